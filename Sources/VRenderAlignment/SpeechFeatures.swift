import Foundation
import VRenderMedia

/// Mel-frequency cepstral coefficients of speech, every 10 ms: what the script's synthesized
/// reading and a take's sound are compared by (as aeneas, and most speech tools, compare them).
///
/// 22,050 Hz sound (espeak-ng's rate; a take is resampled to it), a 512-sample Hann window
/// (23 ms), a hop of 220 samples (9.98 ms), 26 triangular mel filters from 100 to 8,000 Hz, the
/// log of each filter's energy (over a floor, so quiet is flat), and its first 13 cosine
/// coefficients. Each frame is `count` floats in a flat array; c0, the loudness, is kept but
/// compared by no one (`SubsequenceMatch` leaves it out: a take's level is not the script's).
struct SpeechFeatures: Sendable {
    static let rate = 22_050
    static let window = 512
    static let hop = 220
    static let count = 13
    static let filters = 26
    /// Seconds from one frame to the next.
    static let frameSeconds = Double(hop) / Double(rate)

    /// Frames, `count` floats each.
    private(set) var values: [Float] = []
    /// Each frame's energy in the filters' band, in dB (of full scale, roughly): where the
    /// take is quiet (`SoundEdges`). c0 cannot say: a fricative's energy in a few filters
    /// hardly moves the sum of all their logs.
    private(set) var loudness: [Float] = []
    var frameCount: Int { values.count / Self.count }

    subscript(frame: Int) -> ArraySlice<Float> { values[frame * Self.count..<(frame + 1) * Self.count] }

    /// The time of frame `index`'s centre, seconds from the first sample.
    static func time(ofFrame index: Int) -> Double { (Double(index * hop) + Double(window) / 2) / Double(rate) }

    /// The frame whose centre is nearest `time`.
    static func frame(at time: Double) -> Int { Swift.max(0, Int(((time * Double(rate) - Double(window) / 2) / Double(hop)).rounded())) }

    /// A frame this much louder (dB) than the frames `clickReach` before and after it is
    /// part of a click: a tap on the microphone, a clapper's 10 ms click.
    static let clickRise: Float = 6
    static let clickReach = 3

    /// The features of `frames` with each click's frames replaced by the frame before it: a
    /// click is loud in every filter, unlike any speech, and a short line with one in a word
    /// matches worse than a line not said. Frames without `clickReach` frames on either side
    /// are left as they are, and so is `loudness`.
    mutating func removeClicks(in frames: Range<Int>) {
        let reach = Self.clickReach
        func isClick(_ frame: Int) -> Bool {
            loudness[frame] > Swift.max(loudness[frame - reach], loudness[frame + reach]) + Self.clickRise
        }
        var frame = Swift.max(frames.lowerBound, reach)
        let last = Swift.min(frames.upperBound, loudness.count - reach)
        while frame < last {
            guard isClick(frame) else { frame += 1; continue }
            var end = frame + 1
            while end < last, end - frame < reach, isClick(end) { end += 1 }
            for index in frame..<end {
                for value in 0..<Self.count { values[index * Self.count + value] = values[(frame - 1) * Self.count + value] }
            }
            frame = end
        }
    }

    mutating func append(_ other: SpeechFeatures) {
        values += other.values
        loudness += other.loudness
    }

    mutating func removeFirst(_ frames: Int) {
        values.removeFirst(frames * Self.count)
        loudness.removeFirst(frames)
    }

    mutating func append(frame: [Float], loudness level: Float) {
        values += frame
        loudness.append(level)
    }
}

/// Turns sound into `SpeechFeatures`, a block at a time (the samples of a frame's window that
/// reach into the next block are kept).
final class FeatureExtractor {
    private let spectrum: PowerSpectrum
    private let hann: [Float]
    /// Each filter's first bin and its weights from there (the rest are 0).
    private let filterBank: [(first: Int, weights: [Float])]
    /// `count` rows of `filters` cosines.
    private let cosines: [[Float]]
    private var pending: [Float] = []
    private var power: [Float]
    private(set) var features = SpeechFeatures()
    /// Frames made, handed over or not.
    private var framesMade = 0

    init() throws {
        spectrum = try PowerSpectrum(length: SpeechFeatures.window)
        power = [Float](repeating: 0, count: spectrum.binCount)
        let size = SpeechFeatures.window
        hann = (0..<size).map { Float(0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(size))) }
        filterBank = Self.melFilters(bins: spectrum.binCount).map { weights in
            let first = weights.firstIndex { $0 > 0 } ?? 0
            let last = weights.lastIndex { $0 > 0 } ?? 0
            return (first, Array(weights[first...Swift.max(first, last)]))
        }
        let filters = SpeechFeatures.filters
        cosines = (0..<SpeechFeatures.count).map { k in
            (0..<filters).map { n in Float(cos(Double.pi * Double(k) * (Double(n) + 0.5) / Double(filters))) }
        }
    }

    /// The features of `samples` alone.
    static func features(of samples: [Float]) throws -> SpeechFeatures {
        let extractor = try FeatureExtractor()
        samples.withUnsafeBufferPointer { extractor.append($0) }
        extractor.finish()
        return extractor.features
    }

    /// The frames made so far, handed over: the extractor goes on from an empty list.
    func takeFeatures() -> SpeechFeatures {
        defer { features = SpeechFeatures() }
        return features
    }

    /// Adds the frames the samples complete.
    func append(_ samples: UnsafeBufferPointer<Float>) {
        pending += samples
        var start = 0
        while pending.count - start >= SpeechFeatures.window {
            addFrame(at: start)
            start += SpeechFeatures.hop
        }
        pending.removeFirst(start)
    }

    /// The last frame, its window padded with silence, when any sound is left for it.
    func finish() {
        guard pending.count > SpeechFeatures.window - SpeechFeatures.hop || (framesMade == 0 && !pending.isEmpty) else { return }
        pending += [Float](repeating: 0, count: SpeechFeatures.window - pending.count)
        addFrame(at: 0)
        pending.removeAll()
    }

    private func addFrame(at start: Int) {
        pending.withUnsafeBufferPointer { all in
            spectrum.power(of: UnsafeBufferPointer(rebasing: all[start..<start + SpeechFeatures.window]), window: hann, into: &power)
        }
        var total: Float = 0
        let energies = filterBank.map { filter in
            var sum: Float = 0
            for (offset, weight) in filter.weights.enumerated() { sum += weight * power[filter.first + offset] }
            total += sum
            return Float(log(Double(sum) + Self.floor))
        }
        framesMade += 1
        features.append(frame: cosines.map { row in zip(row, energies).reduce(0) { $0 + $1.0 * $1.1 } },
                        loudness: Float(10 * log10(Double(total) + 1e-12)))
    }

    /// Added to each filter's energy before its log: −40 dB or so under speech at the levels
    /// takes have, so room noise and digital silence both come out flat (and alike).
    static let floor = 0.01

    /// Triangular filters spaced evenly in mels between 100 and 8,000 Hz, over `bins` FFT bins.
    private static func melFilters(bins: Int) -> [[Float]] {
        func mel(_ hertz: Double) -> Double { 2595 * log10(1 + hertz / 700) }
        func hertz(_ mel: Double) -> Double { 700 * (pow(10, mel / 2595) - 1) }
        let count = SpeechFeatures.filters
        let (low, high) = (mel(100), mel(8000))
        let edges = (0...count + 1).map { hertz(low + (high - low) * Double($0) / Double(count + 1)) }
        let binHertz = Double(SpeechFeatures.rate) / Double(SpeechFeatures.window)
        return (0..<count).map { filter in
            (0..<bins).map { bin in
                let frequency = Double(bin) * binHertz
                let (left, centre, right) = (edges[filter], edges[filter + 1], edges[filter + 2])
                if frequency <= left || frequency >= right { return 0 }
                return Float(frequency < centre ? (frequency - left) / (centre - left) : (right - frequency) / (right - centre))
            }
        }
    }
}
