import Foundation

/// What `--loudness` does to one output track's sound as it is encoded: one gain, then the
/// true-peak limiter, with the limiter's delay taken back out so that every sample stays where
/// it was (the sound keeps its sync and its exact length).
///
///     var shaper = LoudnessShaper(gainDecibels: 11.3, sampleRate: 48_000)
///     for block in blocks { encode(shaper.process(block)) }   // interleaved stereo
///     encode(shaper.finish())
struct LoudnessShaper {
    /// The ceiling the limiter holds the samples' true peak under: 1 dB below the -1 dBTP the
    /// file must read, for the AAC encoder's own overshoot (at -1.5 the encoded 11 kHz bursts
    /// of `LoudnessTests` read -0.8 dBTP; at -2 they read -1.4 to -1.7).
    static let limiterCeiling = -2.0

    private let gain: Float
    private var limiter: TruePeakLimiter
    /// Output samples (pairs) still to drop: the limiter's delay.
    private var toSkip: Int

    init(gainDecibels: Double, sampleRate: Int) {
        gain = Float(pow(10, gainDecibels / 20))
        limiter = TruePeakLimiter(ceilingDecibels: Self.limiterCeiling, sampleRate: sampleRate)
        toSkip = limiter.latency
    }

    /// Interleaved stereo in; out what is ready (fewer samples at first, by the delay).
    mutating func process(_ samples: [Float]) -> [Float] {
        var shaped = samples
        for index in shaped.indices { shaped[index] *= gain }
        limiter.process(&shaped)
        return skipDelay(shaped)
    }

    /// The end of the sound: what the limiter still holds. In all, as many samples come out
    /// as went in.
    mutating func finish() -> [Float] {
        var tail = [Float](repeating: 0, count: 2 * limiter.latency)
        limiter.process(&tail)
        return skipDelay(tail)
    }

    private mutating func skipDelay(_ samples: [Float]) -> [Float] {
        guard toSkip > 0 else { return samples }
        let skipped = Swift.min(toSkip, samples.count / 2)
        toSkip -= skipped
        return Array(samples[(2 * skipped)...])
    }
}
