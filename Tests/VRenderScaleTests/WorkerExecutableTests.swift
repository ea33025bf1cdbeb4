import Foundation
import Testing
import VRenderCore
import VRenderExport
import VRenderTestSupport
@testable import VRenderScale

/// The local engine runs `vrender-worker`, found beside the running program, with the steps by
/// their own names (`render`, `sound`); without one there, the export stops before planning and
/// says where it looked and how to get it.
@Suite struct WorkerExecutableTests {
    let directory = TestMedia.scratchDirectory()

    func request(executable: String) -> ChunkedExportRequest {
        var options = ExportOptions(inputs: [TestMedia.path("small_a.mov")], output: directory + "/out.mkv")
        options.codec = .encode(.ffv1)
        return ChunkedExportRequest(options: options, engine: .local, sizing: .count(2), workers: 2, workDir: directory + "/w",
                                    executable: executable)
    }

    @Test func theWorkerIsLookedForBesideTheRunningProgram() throws {
        let running = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let folder = URL(fileURLWithPath: running).deletingLastPathComponent().path
        #expect(WorkerExecutable.besideThisProgram == folder + "/vrender-worker")
        #expect(ChunkedExportRequest(options: ExportOptions(inputs: [], output: "o.mkv"), engine: .local).executable
                == WorkerExecutable.besideThisProgram)
    }

    @Test func aMissingWorkerIsNamedBeforeAnyPlanIsMade() throws {
        let missing = directory + "/bin/vrender-worker"
        let error = try #require(throws: VRenderError.self) {
            try ChunkedExport(request: request(executable: missing), report: { _ in }).run()
        }
        #expect("\(error)".contains("\(missing): no chunk worker there"), "\(error)")
        #expect("\(error)".contains("make install") && "\(error)".contains("swift build --product vrender-worker"), "\(error)")
        #expect(!FileManager.default.fileExists(atPath: directory + "/w"), "no work folder is left to resume")
    }

    /// A stand-in worker writes down the arguments it is given, then runs the real one: every
    /// job of the plan is started once, by its step's name, with its share of processors.
    @Test func theLocalEngineRunsEachJobAsAWorkerStep() throws {
        let calls = directory + "/calls", script = directory + "/worker.sh", work = directory + "/w"
        try FileManager.default.createDirectory(atPath: calls, withIntermediateDirectories: true)
        let real = WorkerExecutable.besideThisProgram
        try #require(FileManager.default.isExecutableFile(atPath: real), "\(real) is not built (swift build --build-tests builds it)")
        try "#!/bin/sh\nprintf '%s\\n' \"$@\" > '\(calls)/'$$\nexec '\(real)' \"$@\"\n"
            .write(toFile: script, atomically: true, encoding: .utf8)
        #expect(chmod(script, 0o755) == 0)

        let summary = try ChunkedExport(request: request(executable: script), report: { _ in }).run()
        #expect(summary.frames == 30)
        let recorded = try FileManager.default.contentsOfDirectory(atPath: calls).map { name in
            try String(contentsOfFile: calls + "/" + name, encoding: .utf8).split(separator: "\n").map(String.init)
        }
        #expect(Set(recorded.map { Array($0.dropLast(2)) }) == [["render", work, "--chunk", "0"], ["render", work, "--chunk", "1"],
                                                              ["sound", work]], "\(recorded)")
        #expect(recorded.count == 3 && recorded.allSatisfy { $0.suffix(2).first == "--threads" }, "\(recorded)")
    }
}
