import Foundation
import Testing
import VRenderTestSupport

/// Inputs made and outputs judged by the ffmpeg CLI, never by vrender's own code: the shape a
/// player shows (display aspect) and how close a picture is to the right one (PSNR).
enum GeometryJudge {
    /// Runs ffmpeg quietly, overwriting; the test fails when it does.
    static func ffmpeg(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        let run = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-y"] + arguments)
        #expect(run.status == 0, "ffmpeg \(arguments.joined(separator: " ")): \(run.standardError)", sourceLocation: sourceLocation)
    }

    /// vrender as a user runs it.
    static func vrender(_ arguments: [String]) -> ProgramRun {
        ProgramRun.run(CommandLineTests.binary, arguments)
    }

    /// Width, height and sample aspect ratio as ffprobe reports the video (N/A or 0:1 is 1:1).
    static func shape(_ file: String) -> (width: Int, height: Int, sar: Double) {
        let run = ProgramRun.run("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                      "stream=width,height,sample_aspect_ratio", "-of", "default=nw=1", file])
        var fields: [String: String] = [:]
        for line in run.standardOutput.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { fields[parts[0]] = parts[1] }
        }
        let ratio = (fields["sample_aspect_ratio"] ?? "").split(separator: ":").compactMap { Double($0) }
        let sar = ratio.count == 2 && ratio[0] > 0 && ratio[1] > 0 ? ratio[0] / ratio[1] : 1
        return (Int(fields["width"] ?? "") ?? 0, Int(fields["height"] ?? "") ?? 0, sar)
    }

    /// The aspect ratio a player shows: width × SAR / height.
    static func displayAspect(_ file: String) -> Double {
        let shape = shape(file)
        return shape.height > 0 ? Double(shape.width) * shape.sar / Double(shape.height) : 0
    }

    /// The ffprobe text of the video's sample aspect ratio ("64:45").
    static func sarText(_ file: String) -> String {
        ProgramRun.ffprobe(file, stream: "v:0", entries: "stream=sample_aspect_ratio")
    }

    /// Mean PSNR (dB) of the first `frames` pictures of `file` (as ffmpeg decodes it: display
    /// matrix applied) against `reference`; 99 for identical pictures.
    static func psnr(_ file: String, against reference: String, frames: Int) -> Double {
        let graph = "[0:v]trim=end_frame=\(frames),setpts=PTS-STARTPTS,format=yuv420p[a];"
            + "[1:v]trim=end_frame=\(frames),setpts=PTS-STARTPTS,format=yuv420p[b];[a][b]psnr"
        let run = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "info", "-i", file, "-i", reference, "-lavfi", graph, "-f", "null", "-"])
        guard let range = run.standardError.range(of: #"average:(inf|[0-9.]+)"#, options: .regularExpression) else { return 0 }
        let value = run.standardError[range].dropFirst("average:".count)
        return value == "inf" ? 99 : Double(value) ?? 0
    }

    /// Mean luma (0-255) of a `width`-pixel column strip starting at `x`, in the picture shown
    /// at `seconds`.
    static func stripLuma(_ file: String, atSeconds seconds: Double, x: Int, width: Int = 4) -> Double {
        let run = ProgramRun.runData("/usr/bin/ffmpeg", ["-v", "error", "-ss", String(seconds), "-i", file, "-frames:v", "1",
                                                         "-vf", "crop=\(width):ih:\(x):0,format=gray", "-f", "rawvideo", "-"])
        guard !run.isEmpty else { return 0 }
        return Double(run.reduce(0) { $0 + Int($1) }) / Double(run.count)
    }

    /// A copy of the MP4/MOV `file` whose first track's 'tkhd' display matrix is replaced by
    /// (a b; c d) with translation (tx, ty), all in whole numbers (16.16 fixed point in the file).
    /// FFmpeg 5.1's CLI cannot write a flip, so a mirrored selfie is made this way.
    static func withDisplayMatrix(_ file: String, to output: String, a: Int32, b: Int32, c: Int32, d: Int32,
                                  tx: Int32, ty: Int32) throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        let tag = Array("tkhd".utf8)
        let at = try #require((0..<(bytes.count - 4)).first { Array(bytes[$0..<($0 + 4)]) == tag })
        // version+flags, then times/id/duration (20 bytes, 32 in version 1), reserved 8,
        // layer/group/volume/reserved 8: the matrix follows.
        let matrixOffset = at + 4 + 4 + (bytes[at + 4] == 1 ? 32 : 20) + 16
        let values: [Int32] = [a << 16, b << 16, 0, c << 16, d << 16, 0, tx << 16, ty << 16, 1 << 30]
        for (index, value) in values.enumerated() {
            for byte in 0..<4 {
                bytes[matrixOffset + 4 * index + byte] = UInt8(truncatingIfNeeded: UInt32(bitPattern: value) >> (24 - 8 * byte))
            }
        }
        try Data(bytes).write(to: URL(fileURLWithPath: output))
    }
}

extension ProgramRun {
    /// Runs a program and returns its standard output as bytes (empty when it failed).
    static func runData(_ executable: String, _ arguments: [String]) -> [UInt8] {
        [UInt8](runBinary(executable, arguments))
    }
}
