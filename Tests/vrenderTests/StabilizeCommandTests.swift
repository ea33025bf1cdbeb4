import Foundation
import Testing
import VRenderTestSupport

/// `concat --stabilize` and `capture --shake` as a user runs them, judged by ffmpeg: the
/// shaken take is made by ffmpeg (a still picture cropped along a known wobble) and the
/// motion measured by ffmpeg's own vidstab filters, never by vrender.
@Suite struct StabilizeCommandTests {
    let directory = TestMedia.scratchDirectory()

    func vrender(_ arguments: [String]) -> ProgramRun { ProgramRun.run(CommandLineTests.binary, arguments) }

    /// 4 s at 640x360, 30 fps: a still 704x400 picture seen through a window that wobbles up
    /// to 16 pixels across and 13 down at 1.9 to 3.7 Hz, as a hand does.
    func shakenTake() throws -> String {
        let still = directory + "/still.png", take = directory + "/shaken.mp4"
        let picture = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=704x400:rate=1",
                                                         "-frames:v", "1", still])
        try #require(picture.status == 0, "\(picture.standardError)")
        let wobble = "crop=640:360:32+10*sin(2*PI*2.3*t)+6*sin(2*PI*3.1*t+1):20+8*sin(2*PI*1.9*t+2)+5*sin(2*PI*3.7*t),format=yuv420p"
        let made = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-loop", "1", "-framerate", "30", "-i", still, "-t", "4",
                                                      "-vf", wobble, "-c:v", "libx264", "-g", "30", "-bf", "2", "-crf", "18", take])
        try #require(made.status == 0, "\(made.standardError)")
        return take
    }

    /// Mean |dx| + |dy| per frame, in pixels, as ffmpeg's vidstabdetect sees `file` (the
    /// global motions vidstabtransform writes with debug=1).
    func motion(_ file: String) throws -> Double {
        let work = directory + "/measure-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        for filter in ["vidstabdetect=result=m.trf", "vidstabtransform=input=m.trf:debug=1"] {
            let run = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-i", file, "-vf", filter, "-f", "null", "-"],
                                     currentDirectory: work)
            try #require(run.status == 0, "\(run.standardError)")
        }
        let lines = try String(contentsOfFile: work + "/global_motions.trf", encoding: .utf8)
            .split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0.split(separator: " ").compactMap { Double($0) } }
            .filter { $0.count >= 5 }
        try #require(lines.count > 100)
        return lines.map { abs($0[1]) + abs($0[2]) }.reduce(0, +) / Double(lines.count)
    }

    func frameHashes(_ file: String) -> [String] {
        ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-i", file, "-map", "0:v", "-f", "framemd5", "-"])
            .standardOutput.split(separator: "\n").filter { !$0.hasPrefix("#") }
            .compactMap { $0.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) } }
    }

    @Test("far less motion than the input, as ffmpeg measures it; the plan and --json say what was done")
    func stabilizedOutputHasLittleMotion() throws {
        let take = try shakenTake(), output = directory + "/stable.mkv"
        // --json with progress lines (not a terminal: key=value), so that the plan is printed too.
        let run = vrender(["concat", take, "--stabilize", "--codec", "ffv1", "-o", output, "--json"])
        try #require(run.status == 0, "\(run.standardError)")
        #expect(run.standardError.contains("plan: transcode: --stabilize"), "\(run.standardError)")
        #expect(run.standardError.contains("plan: stabilize: 1 take(s), strength 0.5"), "\(run.standardError)")
        let summary = try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any]
        let stabilize = summary?["stabilize"] as? [String: Any]
        #expect(stabilize?["takes"] as? Int == 1 && stabilize?["framesWarped"] as? Int == 120, "\(run.standardOutput)")
        #expect((stabilize?["meanCorrection"] as? Double ?? 0) > 2, "\(run.standardOutput)")
        let before = try motion(take), after = try motion(output)
        #expect(before > 3, "the input shakes: \(before) px per frame")
        #expect(after < 0.2 * before, "residual \(after) px per frame against the input's \(before)")
    }

    @Test("a chunk boundary inside the stabilized take: the same pictures as one pass")
    func chunksMatchOnePass() throws {
        let take = try shakenTake(), whole = directory + "/whole.mkv", chunked = directory + "/chunked.mkv"
        let one = vrender(["concat", take, "--stabilize", "0.3", "--codec", "ffv1", "-o", whole, "--progress", "none"])
        try #require(one.status == 0, "\(one.standardError)")
        let parts = vrender(["concat", take, "--stabilize", "0.3", "--codec", "ffv1", "-o", chunked, "--engine", "local",
                             "--chunks", "3", "--workers", "2", "--progress", "none"])
        try #require(parts.status == 0, "\(parts.standardError)")
        let expected = frameHashes(whole)
        #expect(expected.count == 120 && Set(expected).count > 100)
        #expect(frameHashes(chunked) == expected)
    }

    @Test("bad values and impossible combinations name --stabilize or --shake")
    func optionErrors() {
        let take = TestMedia.path("small_a.mov")
        for (arguments, option) in [
            (["concat", take, "--stabilize", "1.5", "-o", directory + "/a.mov"], "--stabilize"),
            (["concat", take, "--stabilize", "--codec", "copy", "-o", directory + "/b.mov"], "--stabilize"),
            (["capture", "--device", "synthetic", "--shake", "8:x", "--duration", "1s", "--out", directory + "/c"], "--shake"),
            (["capture", "--device", "/dev/video0", "--shake", "8", "--duration", "1s", "--out", directory + "/d"], "--shake"),
        ] {
            let run = vrender(arguments)
            #expect(run.status != 0, "\(arguments)")
            #expect(run.standardError.contains(option), "\(arguments): \(run.standardError)")
        }
        for name in ["a.mov", "b.mov", "c", "d"] {
            #expect(!FileManager.default.fileExists(atPath: directory + "/" + name), "nothing written for \(name)")
        }
    }
}
