import Foundation

extension ProgramRun {
    /// Where clicks start in a file's first audio track on the file's own clock, as a player
    /// places sound: by its timestamps (`aresample` fills any gap between packets), sample
    /// exact (the first sample over `threshold` after 50 ms of quiet). `scratch` holds the
    /// decoded samples for a moment.
    public static func clickTimes(_ path: String, scratch: String, threshold: Float = 0.3) -> [Double] {
        let raw = scratch + "/clicks-\(UUID().uuidString).f32"
        defer { try? FileManager.default.removeItem(atPath: raw) }
        let decode = run("/usr/bin/ffmpeg", ["-v", "error", "-i", path, "-map", "0:a:0",
                                             "-af", "aresample=async=1:min_hard_comp=0.001:first_pts=0",
                                             "-ac", "1", "-ar", "48000", "-f", "f32le", raw])
        guard decode.status == 0, let data = FileManager.default.contents(atPath: raw) else { return [] }
        let samples: [Float] = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        var onsets: [Double] = []
        var quiet = 2400
        for (index, sample) in samples.enumerated() {
            if abs(sample) > threshold {
                if quiet >= 2400 { onsets.append(Double(index) / 48_000) }
                quiet = 0
            } else {
                quiet += 1
            }
        }
        return onsets
    }

    /// A stream's start and end on the file's clock (`v` or `a`).
    public static func streamSpan(_ path: String, _ stream: String) -> (start: Double, end: Double)? {
        guard let start = Double(ffprobe(path, stream: stream, entries: "stream=start_time")),
              let duration = Double(ffprobe(path, stream: stream, entries: "stream=duration")) else { return nil }
        return (start, start + duration)
    }
}
