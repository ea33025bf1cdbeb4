import Foundation
import Testing
import VRenderTestSupport

/// `vrender-worker`, built beside `vrender`: the chunk steps alone, parsed, checked and reported
/// as `vrender chunk render|sound|join` are (they are the same commands).
@Suite struct WorkerCommandTests {
    let directory = TestMedia.scratchDirectory()
    static let worker = URL(fileURLWithPath: CommandLineTests.binary).deletingLastPathComponent()
        .appendingPathComponent("vrender-worker").path

    func worker(_ arguments: [String]) -> ProgramRun { ProgramRun.run(Self.worker, arguments) }

    @Test func itHasTheChunkStepsAndNothingElse() {
        let help = worker(["--help"])
        #expect(help.status == 0, "\(help.standardError)")
        for step in ["render", "sound", "join"] { #expect(help.standardOutput.contains("  \(step) "), "\(help.standardOutput)") }
        for other in ["concat", "capture", "studio", "plan", "status"] {
            #expect(!help.standardOutput.contains("  \(other) "), "\(help.standardOutput)")
        }
        let chunkHelp = ProgramRun.run(CommandLineTests.binary, ["chunk", "render", "--help"])
        #expect(chunkHelp.status == 0 && chunkHelp.standardOutput.contains("--chunk <K>"), "vrender chunk render is still there")
    }

    @Test func itsErrorsAreVrendersInItsOwnName() {
        let missing = worker(["render", directory])
        #expect(missing.status == 2, "\(missing.standardError)")
        #expect(missing.standardError.hasPrefix("vrender-worker: error: Missing expected argument '--chunk <K>'"), "\(missing.standardError)")
        #expect(missing.standardError.contains("see 'vrender-worker render --help'"), "\(missing.standardError)")
        let badOutput = worker(["join", directory, "-o", directory + "/out.txt"])
        #expect(badOutput.status == 2 && badOutput.standardError.contains("vrender writes .mov, .mp4, .m4v, .mkv or .webm, not .txt"),
                "\(badOutput.standardError)")
        let noPlan = worker(["sound", directory + "/none"])
        #expect(noPlan.status == 1 && noPlan.standardError.hasPrefix("vrender-worker: error: "), "\(noPlan.standardError)")
    }

    /// A plan made by `vrender chunk plan`, rendered, sounded and joined by the worker alone.
    @Test func itRunsAPlanThrough() {
        let work = directory + "/w", output = directory + "/out.mkv"
        let plan = ProgramRun.run(CommandLineTests.binary, ["chunk", "plan", TestMedia.path("small_a.mov"), "--codec", "ffv1",
                                                           "-o", output, "--work-dir", work, "--chunks", "2"])
        #expect(plan.status == 0, "\(plan.standardError)")
        for step in [["render", work, "--chunk", "0"], ["render", work, "--chunk", "1"], ["sound", work],
                     ["join", work, "-o", output]] {
            let run = worker(step + ["--progress", "none"])
            #expect(run.status == 0, "\(step): \(run.standardError)")
        }
        #expect(ProgramRun.decodedFrames(output) == 30)
    }
}
