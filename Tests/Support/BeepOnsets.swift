import Foundation

/// Where beeps start in a file's first audio track, as FFmpeg's own decoder plays it.
extension ProgramRun {
    /// The seconds at which sound rises above `threshold` after at least 50 ms of quiet,
    /// measured from the file's start as `ffmpeg -i FILE` decodes it (48 kHz mono, in 1 ms
    /// windows). `scratch` is a folder for the decoded samples.
    public static func beepOnsets(_ path: String, scratch: String, threshold: Float = 0.2) -> [Double] {
        let raw = scratch + "/onsets-\(UUID().uuidString).f32"
        defer { try? FileManager.default.removeItem(atPath: raw) }
        let decode = run("/usr/bin/ffmpeg", ["-v", "error", "-i", path, "-map", "0:a:0", "-ac", "1", "-ar", "48000",
                                             "-f", "f32le", raw])
        guard decode.status == 0, let data = FileManager.default.contents(atPath: raw) else { return [] }
        let samples: [Float] = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        var onsets: [Double] = []
        var quiet = 2400  // the file's start counts as quiet
        let window = 48
        for start in stride(from: 0, to: samples.count, by: window) {
            let peak = samples[start..<Swift.min(start + window, samples.count)].map(abs).max() ?? 0
            if peak > threshold {
                if quiet >= 2400 { onsets.append(Double(start) / 48_000) }
                quiet = 0
            } else {
                quiet += window
            }
        }
        return onsets
    }
}
