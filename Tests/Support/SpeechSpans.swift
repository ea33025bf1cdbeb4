import Foundation

extension ProgramRun {
    /// Where there is sound in a file's first audio track, as ffmpeg's `silencedetect` finds it
    /// (a judge that is not vrender): spans louder than `noise` dBFS, on the file's clock, with
    /// quiet stretches shorter than `minimumSilence` seconds not counted as pauses. Spans shorter
    /// than `shortest` (the clapper's 3 ms clicks) are dropped.
    public static func soundSpans(_ path: String, noise: Double = -45, minimumSilence: Double = 0.1,
                                  shortest: Double = 0.03) -> [(start: Double, end: Double)] {
        let result = run("/usr/bin/ffmpeg", ["-v", "info", "-nostats", "-i", path, "-map", "0:a:0",
                                             "-af", "silencedetect=n=\(noise)dB:d=\(minimumSilence)", "-f", "null", "-"])
        guard result.status == 0 else { return [] }
        guard let end = Double(ffprobe(path, stream: "a:0", entries: "format=duration")) else { return [] }
        var spans: [(start: Double, end: Double)] = []
        var soundStart: Double? = 0
        for line in result.standardError.split(separator: "\n") {
            if let value = Self.value(after: "silence_start: ", in: line), let start = soundStart {
                spans.append((start, value))
                soundStart = nil
            } else if let value = Self.value(after: "silence_end: ", in: line) {
                soundStart = value
            }
        }
        if let start = soundStart, start < end { spans.append((start, end)) }
        return spans.filter { $0.end - $0.start >= shortest }
    }

    private static func value(after label: String, in line: Substring) -> Double? {
        guard let range = line.range(of: label) else { return nil }
        return Double(line[range.upperBound...].prefix { $0 == "." || $0.isNumber })
    }
}
