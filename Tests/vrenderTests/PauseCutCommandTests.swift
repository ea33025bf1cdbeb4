import Foundation
import Testing
import VRenderTestSupport

/// `vrender concat --cut-pauses --transition` as a user runs it (issue 42): the plan counts
/// takes, not the pieces a pause cut makes, the dissolve is only between takes, `--json` says
/// which take each piece is of, and a chunked export (whose workers get the pieces' takes
/// through the chunk plan's recipe) gives the same pictures and sound as one pass.
@Suite struct PauseCutCommandTests {
    let directory = TestMedia.scratchDirectory()

    private func take(_ name: String, seconds: Double, sound: String) throws -> String {
        let path = directory + "/" + name
        let run = ProgramRun.run("/usr/bin/ffmpeg", [
            "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=30:duration=\(seconds)",
            "-f", "lavfi", "-i", "aevalsrc='\(sound)|\(sound)':s=48000:d=\(seconds)",
            "-c:v", "libx264", "-preset", "ultrafast", "-g", "15", "-pix_fmt", "yuv420p", "-c:a", "pcm_s16le", path])
        try #require(run.status == 0, "\(run.standardError)")
        return path
    }

    /// 2 s of tone, 4 s whose tone pauses from 1.2 to 2.8 s, 2 s of tone.
    private func takes() throws -> [String] {
        [try take("a.mov", seconds: 2, sound: "0.5*sin(2*PI*440*t)"),
         try take("b.mov", seconds: 4, sound: "if(between(t,0.2,1.2)+between(t,2.8,3.8),0.5*sin(2*PI*440*t),0)"),
         try take("c.mov", seconds: 2, sound: "0.5*sin(2*PI*550*t)")]
    }

    private func hashes(_ file: String) -> (pictures: String, sound: String) {
        let pictures = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-i", file, "-map", "0:v", "-f", "framemd5", "-"])
        let sound = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-i", file, "-map", "0:a", "-c:a", "pcm_f32le", "-f", "md5", "-"])
        return (pictures.standardOutput.split(separator: "\n").filter { !$0.hasPrefix("#") }.joined(separator: "\n"), sound.standardOutput)
    }

    @Test func thePlanCountsTakesAndChunksMatchOnePass() throws {
        let inputs = try takes()
        let (whole, chunked) = (directory + "/whole.mkv", directory + "/chunked.mkv")
        let common = ["--trim-silence", "-40:0.1", "--cut-pauses", "1s", "--transition", "fade:0.3", "--codec", "ffv1"]
        let one = ProgramRun.run(CommandLineTests.binary, ["concat"] + inputs + common + ["-o", whole, "--json", "--progress", "bar"])
        #expect(one.status == 0, "\(one.standardError)")
        #expect(one.standardError.contains("plan: 3 take(s) (4 pieces after cuts), 5.80 s -> "), "\(one.standardError)")
        #expect(one.standardError.contains("plan: transition: fade 0.30 s at 2 joins, -0.60 s\n"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(one.standardOutput.utf8)) as? [String: Any])
        #expect(json["takes"] as? Int == 3 && json["inputTakes"] as? [Int] == [1, 2, 2, 3] && json["frames"] as? Int == 174)
        #expect((json["inputs"] as? [String])?.count == 4)
        let run = ProgramRun.run(CommandLineTests.binary, ["concat"] + inputs + common + ["-o", chunked, "--progress", "none",
                                                                                         "--engine", "local", "--chunks", "3", "--workers", "2"])
        #expect(run.status == 0, "\(run.standardError)")
        let (expected, got) = (hashes(whole), hashes(chunked))
        #expect(expected.pictures.split(separator: "\n").count == 174)
        #expect(got.pictures == expected.pictures && got.sound == expected.sound && !got.sound.isEmpty)
    }
}
