import Foundation
import Testing
import VRenderTestSupport

/// `vrender concat --transition` as a user runs it: the plan line, `--json`, option errors, and
/// a chunked export (`--engine local`, whose workers get the option through the chunk plan)
/// equal to one pass.
@Suite struct TransitionCommandTests {
    let directory = TestMedia.scratchDirectory()
    /// 1 s at 30 fps (small_a, small_b) and 2 s at 25 fps (hevc): 4 s at 30 fps, 120 frames cut.
    let takes = ["small_a.mov", "small_b.mov", "hevc_640x480_25_aac44k_mono.mp4"].map(TestMedia.path)

    func concat(_ arguments: [String]) -> ProgramRun {
        ProgramRun.run(CommandLineTests.binary, ["concat"] + arguments)
    }

    func pictureHashes(_ file: String) -> [String] {
        let run = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-i", file, "-map", "0:v", "-f", "framemd5", "-"])
        return run.standardOutput.split(separator: "\n").filter { !$0.hasPrefix("#") }
            .compactMap { $0.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) } }
    }

    @Test func planLineAndJsonSayWhatTheFadeDoes() throws {
        let output = directory + "/fade.mp4"
        let run = concat(takes + ["--transition", "fade:0.5", "--codec", "h264", "--preset", "ultrafast", "-o", output,
                                  "--json", "--progress", "bar"])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardError.contains("plan: transcode: --transition fade:0.5 changes the pictures at the joins"))
        #expect(run.standardError.contains("plan: transition: fade 0.50 s at 2 joins, -1.00 s\n"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        let transition = try #require(json["transition"] as? [String: Any])
        #expect(transition["kind"] as? String == "fade" && transition["frames"] as? Int == 15 && transition["joins"] as? Int == 2)
        #expect(json["frames"] as? Int == 90)
        #expect(ProgramRun.ffprobe(output, stream: "v", entries: "stream=nb_read_frames", countFrames: true) == "90")
    }

    @Test(arguments: [
        (["--transition", "wipe:1"], "--transition: 'wipe:1' is not cut, fade:TIME or dip:TIME"),
        (["--transition", "fade:1.2"], "small_a.mov lasts 1.00 s (30 frames), shorter than the 36 frames its transition needs"),
        (["--transition", "fade:0.5", "--codec", "copy"], "stream copy cannot apply --filter, --prompter-overlay, --transition"),
    ])
    func mistakesAreRefusedByName(arguments: [String], message: String) {
        let output = directory + "/refused.mov"
        let run = concat(Array(takes.prefix(2)) + arguments + ["-o", output])
        #expect(run.status != 0)
        #expect(run.standardError.contains(message), "\(run.standardError)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test func chunkedDissolvesWithFilterAndPrompterMatchOnePass() throws {
        let whole = directory + "/whole.mkv", chunked = directory + "/chunked.mkv", script = directory + "/script.txt"
        try "Good morning. This is the talk's first line,\nand this its second.\n".write(toFile: script, atomically: true, encoding: .utf8)
        // With a filter and the prompter, as item 6 of issue 24 asks: each is applied as in one pass.
        let common = ["--transition", "fade:0.5", "--filter", "noir", "--prompter-overlay", script, "--codec", "ffv1",
                      "--progress", "none"]
        let one = concat(takes + common + ["-o", whole])
        #expect(one.status == 0, "\(one.standardError)")
        // 90 frames in 5 chunks (FFV1: every frame a keyframe) start at 0, 18, 36, 54 and 72;
        // the dissolves are at 15..<30 and 45..<60.
        let run = concat(takes + common + ["-o", chunked, "--engine", "local", "--chunks", "5", "--workers", "2"])
        #expect(run.status == 0, "\(run.standardError)")
        let expected = pictureHashes(whole)
        #expect(expected.count == 90)
        #expect(pictureHashes(chunked) == expected)
    }
}
