import Foundation

/// `--loudness LUFS`: what the export's sound measured and the gain each output track gets
/// (one per track, the whole export's), decided before anything is written. The audio stage
/// applies the gain, then a true-peak limiter (`LoudnessShaper`).
public struct LoudnessPlan: Sendable, Equatable, Codable {
    public struct Track: Sendable, Equatable, Codable {
        /// Integrated loudness, LUFS, as the audio stage would encode the track; nil: silent.
        public var measured: Double?
        /// True peak before the gain, dBTP; nil: every sample zero.
        public var truePeak: Double?
        /// The gain applied, dB; nil: nothing applied (silence is not amplified).
        public var gain: Double?
    }

    /// Accepted targets: BS.1770's absolute gate up to louder than anything published.
    public static let targets: ClosedRange<Double> = -70 ... -5
    /// The true peak the output is held under.
    public static let truePeakLimit = -1.0

    public var target: Double
    public var tracks: [Track]
    /// Seconds the measuring pass took (decoding and metering every take's audio).
    public var measureSeconds: Double

    /// `gains`: per track, `target` minus what it measured, plus what the limiter takes away
    /// (`LoudnessMeasurement`); nil for a silent track.
    init(target: Double, measured: [(integrated: Double?, truePeak: Double?)], gains: [Double?], measureSeconds: Double) {
        self.target = target
        self.measureSeconds = measureSeconds
        tracks = zip(measured, gains).map { Track(measured: $0.integrated, truePeak: $0.truePeak, gain: $1) }
    }

    /// The plan's lines (after "plan: "), one per track.
    public var lines: [String] {
        tracks.enumerated().map { index, track in
            let prefix = "loudness: " + (tracks.count > 1 ? "track \(index + 1): " : "")
            let peak = track.truePeak.map { String(format: "%.1f dBTP", $0) } ?? "none"
            guard let measured = track.measured, let gain = track.gain else {
                return prefix + "measured silence (below -70 LUFS), true peak \(peak) -> left as it is "
                    + String(format: "(target %.1f LUFS: silence is not amplified)", target)
            }
            // What the gain adds beyond target - measured: the loudness the limiter takes away.
            let makeUp = gain - (target - measured)
            let share = abs(makeUp) >= 0.05 ? String(format: " with %+.1f dB for what the limiter takes", makeUp) : ""
            return prefix + String(format: "measured %.1f LUFS, true peak %@ -> target %.1f LUFS (gain %+.1f dB%@, limiter at %.0f dBTP)",
                                   measured, peak, target, gain, share, Self.truePeakLimit)
        }
    }
}
