import Foundation
import Testing
import VRenderTestSupport

/// `vrender doctor` run as a user would: every area answers one way or another, the exit status
/// follows the core, and nothing is written.
@Suite struct DoctorCommandTests {
    let directory = TestMedia.scratchDirectory()

    struct Report: Decodable {
        struct Finding: Decodable {
            var area: String
            var name: String
            var status: String
            var detail: String
            var fix: String?
            var isCore: Bool
        }
        var version: String
        var findings: [Finding]
    }

    func doctor(_ arguments: String...) -> ProgramRun {
        ProgramRun.run(CommandLineTests.binary, ["doctor"] + arguments)
    }

    @Test func everyAreaHasALineAndTheCoreWorksHere() throws {
        let emptyDev = directory + "/dev"
        try FileManager.default.createDirectory(atPath: emptyDev, withIntermediateDirectories: true)
        let run = doctor("--json", "--dev", emptyDev, "--takes", directory)
        #expect(run.status == 0, "\(run.standardError)")
        let report = try JSONDecoder().decode(Report.self, from: Data(run.standardOutput.utf8))
        let areas = Set(report.findings.map(\.area))
        #expect(areas == ["FFmpeg", "encoder", "CPU", "Vulkan", "V4L2", "audio", "Slurm", "font", "disk"])
        let encoders = report.findings.filter { $0.area == "encoder" }.map(\.name)
        #expect(encoders == ["x265", "x264", "SVT-AV1", "VP9", "FFV1", "AAC", "Opus"])
        // The test machine's FFmpeg is Debian's, which has every encoder vrender uses.
        #expect(report.findings.filter { $0.area == "encoder" }.allSatisfy { $0.status == "ok" })
        let camera = try #require(report.findings.first { $0.area == "V4L2" })
        #expect(camera.status == "none" && camera.detail.contains(emptyDev) && camera.fix != nil)
        let disk = try #require(report.findings.first { $0.area == "disk" })
        #expect(disk.name == directory && disk.detail.contains("GB free"))
        // Every line that is not ok says what to do about it.
        #expect(report.findings.filter { $0.status != "ok" }.allSatisfy { $0.fix != nil })
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["dev"])
    }

    @Test func theTableEndsWithTheVerdict() {
        let run = doctor("--takes", directory + "/not/yet/made")
        #expect(run.status == 0, "\(run.standardError)")
        let lines = run.standardOutput.split(separator: "\n")
        // The columns are as wide as their widest word ("missing" where Slurm is not installed).
        #expect(lines.first.map { $0.split(separator: " ").prefix(2) } == ["status", "area"])
        #expect(lines.last?.hasSuffix("recording and exporting work here") == true)
        // A takes folder that does not exist yet is measured where it would be made.
        #expect(run.standardOutput.contains("disk     \(directory) "))
        #expect(!FileManager.default.fileExists(atPath: directory + "/not"))
    }

    /// `VRENDER_CPU` picks the row kernels and `doctor` says which run; a variant this CPU
    /// cannot run, or a name that is none, is a usage error before any command starts.
    @Test func theRowKernelsFollowVRENDER_CPU() throws {
        var environment = ProcessInfo.processInfo.environment
        environment["VRENDER_CPU"] = "portable"
        let run = ProgramRun.run(CommandLineTests.binary, ["doctor", "--json", "--takes", directory], environment: environment)
        let report = try JSONDecoder().decode(Report.self, from: Data(run.standardOutput.utf8))
        let cpu = try #require(report.findings.first { $0.area == "CPU" })
        #expect(cpu.detail.contains("run the portable (VRENDER_CPU=portable"), "\(cpu.detail)")
        environment["VRENDER_CPU"] = "avx1024"
        let refused = ProgramRun.run(CommandLineTests.binary, ["doctor", "--takes", directory], environment: environment)
        #expect(refused.status == 2)
        #expect(refused.standardError.hasPrefix("vrender: error: VRENDER_CPU=avx1024: is not one of portable, avx2, avx512"),
                "\(refused.standardError)")
    }
}
