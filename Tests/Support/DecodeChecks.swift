import Foundation

/// What FFmpeg's own tools (an independent decoder) say about a video file.
extension ProgramRun {
    /// Video frames ffprobe decodes; -1 when it cannot tell.
    public static func decodedFrames(_ path: String) -> Int {
        Int(ffprobe(path, stream: "v", entries: "stream=nb_read_frames", countFrames: true)) ?? -1
    }

    /// What `ffmpeg -v error` prints decoding the whole file: empty when it decodes without an error.
    public static func decodeErrors(_ path: String) -> String {
        let result = run("/usr/bin/ffmpeg", ["-v", "error", "-i", path, "-f", "null", "-"])
        return result.standardError + (result.status == 0 ? "" : "exit \(result.status)")
    }

    /// Seconds the video plays by ffprobe's frame times: the first frame's start to the end of
    /// the frame that ends last; -1 when ffprobe gives no frame.
    public static func playedSeconds(_ path: String) -> Double {
        let result = run("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries",
                                              "frame=pts_time,pkt_duration_time", "-of", "csv=p=0", path])
        let frames = result.standardOutput.split(separator: "\n").compactMap { line -> (start: Double, end: Double)? in
            let fields = line.split(separator: ",").compactMap { Double($0) }
            return fields.count == 2 ? (fields[0], fields[0] + fields[1]) : nil
        }
        guard let start = frames.map(\.start).min(), let end = frames.map(\.end).max() else { return -1 }
        return end - start
    }
}
