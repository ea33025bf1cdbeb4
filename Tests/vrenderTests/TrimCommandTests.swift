import Foundation
import Testing
import VRenderTestSupport

/// `vrender takes trim` and `concat --trim-silence` from the command line: trims written to
/// takes.json and honoured by one-pass and chunked exports alike.
@Suite struct TrimCommandTests {
    let directory = TestMedia.scratchDirectory()

    func vrender(_ arguments: [String]) -> ProgramRun {
        ProgramRun.run(CommandLineTests.binary, arguments)
    }

    @Test func trimmedTakesExportTheSameInOnePassAndInChunks() throws {
        let takes = directory + "/takes"
        let capture = vrender(["capture", "--device", "synthetic", "--takes", "2", "--duration", "2s", "--size", "160x120",
                               "--codec", "h264", "--audio", "synthetic", "--out", takes])
        try #require(capture.status == 0, "\(capture.standardError)")
        #expect(vrender(["takes", "trim", takes, "1", "10f", "50f"]).status == 0)
        let second = vrender(["takes", "trim", takes, "2", "0.5", "end"])
        #expect(second.status == 0 && second.standardOutput.hasSuffix(": trim from 0.500 s\n"), "\(second.standardOutput)")
        let list = vrender(["takes", "list", takes])
        #expect(list.standardOutput.contains("  0.333–1.667 s (1.33 s used)") && list.standardOutput.contains("2.83 s after trims"),
                "\(list.standardOutput)")
        let refused = vrender(["takes", "trim", takes, "1", "1s", "9s"])
        #expect(refused.status != 0 && refused.standardError.contains("OUT 9.000 s is past its end"))

        let whole = directory + "/whole.mkv"
        let onePass = vrender(["concat", takes, "--codec", "ffv1", "-o", whole, "--progress", "none"])
        #expect(onePass.status == 0, "\(onePass.standardError)")
        #expect(onePass.standardError.contains("plan: note: trims: take 1 0.333–1.667 s, take 2 from 0.500 s"))
        let chunked = directory + "/chunked.mkv"
        let run = vrender(["concat", takes, "--codec", "ffv1", "-o", chunked, "--engine", "local", "--chunks", "3",
                           "--workers", "2", "--progress", "none"])
        #expect(run.status == 0, "\(run.standardError)")
        let frames = { (file: String) in
            ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-i", file, "-map", "0:v", "-f", "framemd5", "-"]).standardOutput
                .split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { $0.split(separator: ",").last }
        }
        #expect(frames(whole).count == 40 + 45)
        #expect(frames(whole) == frames(chunked))
    }

    /// A trimmed take burns in the scroll the presenter saw from its in point on: its frames are
    /// the untrimmed export's from there.
    @Test func aTrimmedTakeShowsThePrompterWhereItWasAtTheInPoint() throws {
        let script = directory + "/script.txt"
        try "Welcome to the talk. This script has words enough to scroll while the presenter reads.\nA second paragraph.\n"
            .write(toFile: script, atomically: true, encoding: .utf8)
        let takes = directory + "/prompted"
        let capture = vrender(["capture", "--device", "synthetic", "--takes", "1", "--duration", "2s", "--size", "160x120",
                               "--codec", "h264", "--prompter", script, "--out", takes])
        try #require(capture.status == 0, "\(capture.standardError)")
        let export = { (name: String) -> [Substring] in
            let output = self.directory + "/" + name
            let run = self.vrender(["concat", takes, "--prompter-overlay", script, "--codec", "ffv1", "-o", output, "--progress", "none"])
            #expect(run.status == 0, "\(run.standardError)")
            return ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-i", output, "-map", "0:v", "-f", "framemd5", "-"]).standardOutput
                .split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { $0.split(separator: ",").last }
        }
        let whole = export("whole.mkv")
        #expect(vrender(["takes", "trim", takes, "1", "20f", "end"]).status == 0)
        let trimmed = export("trimmed.mkv")
        #expect(whole.count == 60 && Array(whole.dropFirst(20)) == trimmed)
    }

    @Test func trimSilenceTakesAnOptionalValue() throws {
        let take = TestMedia.path("small_a.mov")
        for arguments in [["--trim-silence", take], ["--trim-silence", "-30:0.1", take], [take, "--trim-silence"]] {
            let run = vrender(["concat"] + arguments + ["-o", directory + "/s.mov", "--overwrite", "--progress", "none"])
            #expect(run.status == 0, "\(arguments): \(run.standardError)")
        }
        let bad = vrender(["concat", take, "--cut-pauses", "1s", "-o", directory + "/p.mov"])
        #expect(bad.status == 2 && bad.standardError.contains("--cut-pauses needs --trim-silence"))
    }
}
