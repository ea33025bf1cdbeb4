import Foundation
import Testing
import VRenderTestSupport

/// Runs the built `vrender` binary as a user would and checks what it prints and returns.
@Suite struct CommandLineTests {
    /// The binary SwiftPM built beside the test bundle.
    static let binary: String = {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [beside, beside.deletingLastPathComponent()] {
            let path = candidate.appendingPathComponent("vrender").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return TestMedia.repositoryRoot + "/.build/debug/vrender"
    }()

    let directory = TestMedia.scratchDirectory()

    /// The repository's VERSION ("0.9.0"), which the build's version starts with.
    static let versionFile = ((try? String(contentsOfFile: TestMedia.repositoryRoot + "/VERSION", encoding: .utf8)) ?? "?")
        .trimmingCharacters(in: .whitespacesAndNewlines)

    func vrender(_ arguments: String...) -> ProgramRun {
        ProgramRun.run(Self.binary, arguments)
    }

    @Test func helpListsTheCommandsAndOptions() {
        let root = vrender("--help")
        #expect(root.status == 0)
        #expect(root.standardOutput.contains("concat"))
        #expect(root.standardOutput.contains("filters"))
        let concat = vrender("concat", "--help")
        #expect(concat.status == 0)
        for option in ["--output", "--filter", "--codec", "--crf", "--preset", "--size", "--fps", "--overwrite", "--progress", "--json"] {
            #expect(concat.standardOutput.contains(option), "concat --help lacks \(option)")
        }
    }

    @Test func filtersListsMono() {
        let result = vrender("filters")
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("mono"))
        #expect(result.standardOutput.contains("none"))
    }

    /// A usage error is one `vrender: error:` line, at most a hint after it, and exit status 2.
    /// `message` nil: any message.
    private func expectUsageError(_ result: ProgramRun, _ message: String?, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == 2, "\(result.standardError)", sourceLocation: sourceLocation)
        let lines = result.standardError.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.first?.hasPrefix("vrender: error: \(message ?? "")") == true, sourceLocation: sourceLocation)
        #expect(message == nil || lines.first.map(String.init) == "vrender: error: \(message!)", sourceLocation: sourceLocation)
        #expect(lines.count <= 2 && lines.dropFirst().allSatisfy { $0.hasPrefix("see 'vrender") },
                "\(result.standardError)", sourceLocation: sourceLocation)
        #expect(result.standardOutput.isEmpty, sourceLocation: sourceLocation)
    }

    @Test func usageErrorsAreOneLineAndExitTwo() {
        expectUsageError(vrender("concat"), "give at least one input take")
        expectUsageError(vrender("concat", "--crf", "99", "a.mov"), "--crf must be between 0 and 51, got 99")
        // Without inputs ArgumentParser reports the failed validate() first; either is one line.
        expectUsageError(vrender("concat", "--bogus"), nil)
        expectUsageError(vrender("concat", "a.mov", "--bogus"), "Unknown option '--bogus'")
        expectUsageError(vrender("concat", "a.mov", "--crf"), "Missing value for '--crf <crf>'")
        expectUsageError(vrender("takes", "list"), "Missing expected argument '<dir>'")
        let badSize = vrender("concat", TestMedia.path("small_a.mov"), "--size", "1281x720")
        expectUsageError(badSize, "--size '1281x720' is not WxH with even, positive sides (e.g. 1280x720)")
        #expect(badSize.standardError.contains("see 'vrender concat --help'"))
    }

    @Test func helpAndVersionStillExitZero() {
        let version = vrender("--version")
        #expect(version.status == 0)
        let lines = version.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.map { $0.split(separator: " ").first.map(String.init) ?? "" }
                == ["vrender", "commit", "FFmpeg", "Vulkan", "FreeType"], "\(version.standardOutput)")
        #expect(lines.first?.hasPrefix("vrender \(Self.versionFile)") == true || lines.first?.hasPrefix("vrender unknown") == true)
        #expect(lines.count == 5 && lines[2].contains("libavcodec ") && lines[3].hasPrefix("Vulkan loader 1."))
        let help = vrender("help", "takes", "rm")
        #expect(help.status == 0)
        #expect(help.standardOutput.contains("USAGE: vrender takes rm"))
        #expect(vrender("--help").standardOutput.contains("2 on a usage error"))
    }

    @Test func aRuntimeErrorIsPrintedOnce() {
        let result = vrender("takes", "rm", "/nonexistent", "1")
        #expect(result.status == 1)
        #expect(result.standardError == "vrender: error: /nonexistent: no such folder\n")
    }

    @Test func theProgressBarFitsANarrowTerminal() {
        var environment = ProcessInfo.processInfo.environment
        environment["COLUMNS"] = "60"
        let result = ProgramRun.run(Self.binary, ["concat", TestMedia.path("small_a.mov"), TestMedia.path("small_b.mov"),
                                                  "-o", directory + "/bar.mov", "--codec", "h264", "--preset", "ultrafast",
                                                  "--progress", "bar"], environment: environment)
        #expect(result.status == 0, "\(result.standardError)")
        // Each redraw: carriage return, at most 59 characters, clear to the end of the line.
        let draws = result.standardError.split(separator: "\r").dropFirst()
        #expect(!draws.isEmpty)
        for draw in draws {
            let line = draw.split(separator: "\n", omittingEmptySubsequences: false)[0]
            #expect(line.hasSuffix("\u{1B}[K"), "\(line)")
            #expect(line.dropLast(3).count <= 59, "\(line)")
        }
        #expect(draws.last?.contains("100%") == true)
    }

    @Test func inputErrorsNameTheFileAndExitOne() {
        let missing = directory + "/missing.mov"
        let output = directory + "/out.mov"
        let result = vrender("concat", TestMedia.path("small_a.mov"), missing, "-o", output)
        #expect(result.status == 1)
        #expect(result.standardError.contains("vrender: error: \(missing): no such file"))
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test("a bad option value or combination the library finds is a usage error too: exit 2, the hint, a suggestion")
    func optionErrorsFoundPastParsingAreUsageErrors() {
        let sepai = vrender("concat", TestMedia.path("small_a.mov"), "--filter", "sepai", "-o", directory + "/x.mov")
        expectUsageError(sepai, "--filter: unknown filter 'sepai' (known filters: none, mono, noir, chrome, fade, instant, "
            + "process, tonal, transfer, sepia); did you mean 'sepia'?")
        #expect(sepai.standardError.hasSuffix("see 'vrender concat --help'\n"))
        let copy = vrender("concat", TestMedia.path("small_a.mov"), "--codec", "copy", "--filter", "mono", "-o", directory + "/y.mov")
        expectUsageError(copy, nil)
        #expect(copy.standardError.contains("--codec copy: stream copy cannot apply --filter"))
        let trim = vrender("takes", "trim", directory, "1", "0", "1")
        #expect(trim.status == 1, "a missing folder is not a usage error: \(trim.standardError)")
        for name in ["x.mov", "y.mov"] { #expect(!FileManager.default.fileExists(atPath: directory + "/" + name)) }
    }

    @Test func exportPrintsPlanProgressAndFinalLine() {
        let output = directory + "/joined.mov"
        let result = vrender("concat", TestMedia.path("small_a.mov"), TestMedia.path("small_b.mov"), "-o", output, "--progress", "plain")
        #expect(result.status == 0)
        #expect(result.standardError.contains("plan: stream copy"))
        #expect(result.standardError.contains("progress=end"))
        #expect(result.standardError.contains("frame=60"))
        #expect(result.standardOutput.hasPrefix("\(output): 2.00 s, 60 frames, 320x240 h264+aac"))
        #expect(result.standardOutput.contains("(stream-copy)"))

        let again = vrender("concat", TestMedia.path("small_a.mov"), "-o", output)
        #expect(again.status == 1)
        #expect(again.standardError.contains("already exists (use --overwrite to replace it)"))
    }

    @Test func jsonSummaryIsMachineReadable() throws {
        let output = directory + "/mono.mp4"
        let result = vrender("concat", TestMedia.path("small_a.mov"), TestMedia.path("mjpeg_422_full.mkv"),
                             "--filter", "mono", "--codec", "h264", "--preset", "ultrafast", "-o", output,
                             "--json", "--progress", "none")
        #expect(result.status == 0, "\(result.standardError)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect(summary["mode"] as? String == "transcode")
        #expect(summary["frames"] as? Int == 60)
        #expect(summary["videoCodec"] as? String == "libx264")
        #expect(summary["filters"] as? [String] == ["mono"])
        #expect(summary["width"] as? Int == 320)
        #expect((summary["bytes"] as? Int ?? 0) > 0)
    }

    @Test func ctrlCRemovesTheTemporaryFileAndExits130() throws {
        let output = directory + "/interrupted.mov"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = ["concat", TestMedia.path("same_1.mov"), TestMedia.path("same_2.mov"), TestMedia.path("same_3.mov"),
                             "--filter", "mono", "--codec", "hevc", "-o", output, "--progress", "plain"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // Interrupt once the first progress block shows the export is under way.
        var seen = Data()
        while !String(decoding: seen, as: UTF8.self).contains("frame=") {
            let chunk = errors.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen.append(chunk)
        }
        process.interrupt()
        seen.append(errors.fileHandleForReading.readDataToEndOfFile())
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        #expect(String(decoding: seen, as: UTF8.self).contains("vrender: error: interrupted"))
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect(TestMedia.files(in: directory, containing: "vrender-partial").isEmpty)
    }
}

/// `--gpu` when the machine has no Vulkan driver at all (the loader pointed at nothing).
@Suite struct NoVulkanTests {
    let directory = TestMedia.scratchDirectory()

    private func run(_ arguments: [String]) -> ProgramRun {
        var environment = ProcessInfo.processInfo.environment
        environment["VK_ICD_FILENAMES"] = "/nonexistent/icd.json"
        environment["VK_DRIVER_FILES"] = "/nonexistent/icd.json"
        return ProgramRun.run(CommandLineTests.binary, arguments, environment: environment)
    }

    @Test func vulkanIsRequiredOnlyWhenAskedFor() {
        let input = TestMedia.path("small_a.mov")
        let insisted = run(["concat", input, "--filter", "mono", "--gpu", "vulkan", "-o", directory + "/v.mov", "--progress", "none"])
        #expect(insisted.status == 1)
        #expect(insisted.standardError.contains("vrender: error: --gpu vulkan: no Vulkan device found"))
        #expect(!FileManager.default.fileExists(atPath: directory + "/v.mov"))
        let automatic = run(["concat", input, "--filter", "mono", "--gpu", "auto", "-o", directory + "/a.mov", "--progress", "none", "--json"])
        #expect(automatic.status == 0)
        #expect(automatic.standardOutput.contains("\"filterBackend\" : \"cpu\""))
        let listing = run(["filters"])
        #expect(listing.standardOutput.contains("--gpu auto runs them on cpu"))
    }

    @Test func filtersPreviewWritesALabelledGrid() {
        let output = directory + "/filters.png"
        let result = ProgramRun.run(CommandLineTests.binary, ["filters", "--preview", TestMedia.path("small_a.mov"), "-o", output,
                                                             "--at", "0.5s", "--gpu", "cpu"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("10 filters"))
        // 5 columns of 320 px thumbnails of a 320x240 frame, labels under each: 8 + 5 × 328.
        #expect(ProgramRun.ffprobe(output, stream: "v", entries: "stream=width") == "1648")
    }
}
