import Foundation
import Synchronization
import Testing
import VRenderTestSupport

/// Two `vrender capture` processes into one folder at once, as a user could start them: both
/// succeed, and every take is listed exactly once, with its own number. However the two
/// interleave, the folder's lock makes this the outcome (the interleaving itself is fixed, and
/// each interleaving checked, by the library's SharedTakesFolderTests).
@Suite struct SharedTakesFolderCommandTests {
    let scratch = ScratchFolder()

    @Test func twoCaptureProcessesListEveryTakeOnce() throws {
        let out = scratch.path + "/takes"
        let arguments = ["capture", "--device", "synthetic", "--out", out, "--takes", "3", "--duration", "0.2s",
                         "--size", "64x48", "--codec", "h264"]
        let runs = Mutex([ProgramRun]())
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            let run = ProgramRun.run(CommandLineTests.binary, arguments)
            runs.withLock { $0.append(run) }
        }
        for run in runs.withLock({ $0 }) { #expect(run.status == 0, "\(run.standardError)") }

        let listed = try manifest(out).compactMap { $0["file"] as? String }
        let movies = try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasSuffix(".mov") }
        #expect(listed.count == 6)
        #expect(Set(listed) == Set(movies), "every take file listed")
        let numbers = listed.compactMap { Int($0.dropFirst("segment_".count).prefix(4)) }
        #expect(numbers.sorted() == Array(1...6), "no take number twice: \(listed)")
        let concat = ProgramRun.run(CommandLineTests.binary, ["concat", out, "-o", scratch.path + "/all.mov"])
        #expect(concat.status == 0, "\(concat.standardError)")
        #expect(ProgramRun.decodedFrames(scratch.path + "/all.mov") == 6 * 6)
    }
}
