import Foundation

/// The synthetic microphone's click as a matched filter: a 3 kHz cosine (16 samples a period at
/// 48 kHz) decaying by e every 0.75 ms (36 samples), its first sample the loudest, over 2 ms.
/// Its normalized correlation with the sound from an onset is about 1 where a click starts
/// there, on any level and over voice (the click's first milliseconds dominate them), and under
/// 0.85 for speech, even levelled into a limiter (its 3 kHz sibilants are noise, not this
/// decay). Quadrature (a complex template), so the click's phase need not be known.
enum ClickTemplate {
    static let length = 96
    static let decaySamples = 36.0
    /// Least normalized correlation of a click, and of the coarse onsets around it.
    static let threshold: Float = 0.9
    static let coarseThreshold: Float = 0.8
    /// Coarse onsets tried 4 samples apart (the correlation falls 10 % over that), then the
    /// best one's neighbours.
    static let stride = 4

    private static let real = (0..<length).map { exp(-Double($0) / decaySamples) * cos(Double.pi / 8 * Double($0)) }
    private static let imaginary = (0..<length).map { -exp(-Double($0) / decaySamples) * sin(Double.pi / 8 * Double($0)) }
    private static let energy = (0..<length).reduce(0.0) { $0 + exp(-2 * Double($1) / decaySamples) }

    /// The onset among `onsets` (sample indices; `samples[0]` is sample `base`, samples outside
    /// are silence) where a click fits best, and that click's amplitude; nil when none fits.
    static func best(onsets: Range<Int>, in samples: [Float], from base: Int) -> (amplitude: Float, onset: Int)? {
        let coarse = Swift.stride(from: onsets.lowerBound, to: onsets.upperBound, by: Self.stride)
        guard let near = bestFit(coarse, samples, base, least: coarseThreshold) else { return nil }
        return bestFit((near.onset - Self.stride + 1)..<(near.onset + Self.stride), samples, base, least: threshold)
    }

    private static func bestFit<Onsets: Sequence<Int>>(_ onsets: Onsets, _ samples: [Float], _ base: Int,
                                                      least: Float) -> (amplitude: Float, onset: Int)? {
        var best: (amplitude: Float, onset: Int)?
        for onset in onsets {
            let fit = fit(at: onset, samples, base)
            if fit.correlation >= least, fit.amplitude > (best?.amplitude ?? 0) { best = (fit.amplitude, onset) }
        }
        return best
    }

    /// The amplitude of a click starting at `onset`, and how well the sound there fits one (the
    /// normalized correlation, 0...1).
    static func fit(at onset: Int, _ samples: [Float], _ base: Int) -> (amplitude: Float, correlation: Float) {
        var sumReal = 0.0, sumImaginary = 0.0, power = 0.0
        let first = onset - base
        let lower = max(0, -first), upper = min(length, samples.count - first)
        for index in lower..<max(lower, upper) {
            let value = Double(samples[first + index])
            sumReal += value * real[index]
            sumImaginary += value * imaginary[index]
            power += value * value
        }
        let magnitude = (sumReal * sumReal + sumImaginary * sumImaginary).squareRoot()
        guard power > 0 else { return (0, 0) }
        // √2: a real cosine puts half its energy at the negative frequency the template ignores.
        // The correlation of a click of amplitude A is A·Σ e^{-2k/36}·cos² ≈ A·energy/2.
        return (Float(2 * magnitude / energy), Float(2.squareRoot() * magnitude / (power * energy).squareRoot()))
    }
}
