/// The loudness of a take's sound over time, for finding its silences: the loudest sample of
/// each 1 ms window, mixed to mono at 48 kHz, window 0 starting at a given time of the file
/// (the take's first picture), so that silence and pictures are cut at the same instants.
/// Peaks, not averages: a consonant's first millisecond counts, as auto-editor counts it.
package enum SoundLevels {
    package static let windowSeconds = 0.001
    static let rate = 48_000

    /// Peak levels (linear, 0…1+) of audio stream `stream` of `path`, one per 1 ms window
    /// from `origin` (seconds on the file's clock) to the end of the sound; sound before
    /// `origin` is skipped, a late start is silence.
    package static func windowPeaks(path: String, stream: Int, from origin: Double) throws -> [Float] {
        var peaks: [Float] = []
        try MonoSound.read(path: path, stream: stream, from: origin, rate: rate, block: Int(Double(rate) * windowSeconds)) { window in
            peaks.append(window.reduce(0) { Swift.max($0, abs($1)) })
        }
        return peaks
    }
}
