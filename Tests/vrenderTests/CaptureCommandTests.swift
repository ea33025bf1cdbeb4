import Foundation
import Testing
import VRenderTestSupport

/// `vrender capture`, `takes`, `devices` and `demo`, run as a user would.
@Suite struct CaptureCommandTests {
    let directory = TestMedia.scratchDirectory()

    func vrender(_ arguments: String...) -> ProgramRun {
        ProgramRun.run(CommandLineTests.binary, arguments)
    }

    @Test(arguments: [(30, 60), (60, 120)])
    func syntheticTakesHaveExactFrameCounts(fps: Int, frames: Int) throws {
        let out = directory + "/t\(fps)"
        let result = vrender("capture", "--device", "synthetic", "--out", out, "--takes", "3", "--duration", "2s",
                             "--fps", String(fps), "--size", "320x240", "--codec", "h264")
        #expect(result.status == 0, "\(result.standardError)")
        let takes = try manifest(out)
        #expect(takes.count == 3)
        for take in takes {
            #expect(take["frames"] as? Int == frames)
            #expect(take["dropped"] as? Int == 0)
            let file = out + "/" + (take["file"] as? String ?? "")
            #expect(ProgramRun.ffprobe(file, stream: "v", entries: "stream=nb_read_frames", countFrames: true) == String(frames))
            #expect(FileManager.default.fileExists(atPath: out + "/" + (take["thumbnail"] as? String ?? "missing")))
        }
        #expect(result.standardOutput.contains("captured 3 take(s)"))
    }

    /// A second capture into a folder that has takes calls its takes by their files' numbers:
    /// it once said "take 1" of segment_0003.
    @Test func takesAreNumberedAsTheFolderNumbersThem() throws {
        let out = directory + "/again"
        let common = ["--device", "synthetic", "--out", out, "--duration", "0.2s", "--size", "160x96", "--codec", "h264"]
        let first = ProgramRun.run(CommandLineTests.binary, ["capture", "--takes", "2"] + common)
        #expect(first.status == 0 && first.standardError.contains("take 2: recording"), "\(first.standardError)")
        let second = ProgramRun.run(CommandLineTests.binary, ["capture"] + common)
        #expect(second.status == 0, "\(second.standardError)")
        #expect(second.standardError.contains("take 3: recording") && !second.standardError.contains("take 1: recording"),
                "\(second.standardError)")
        #expect(try manifest(out).last?["file"] as? String ?? "" > "segment_0003_" )
    }

    /// Decoded frames' checksums (ffmpeg's framemd5), the determinism check.
    private func framemd5(_ folder: String) throws -> String {
        let take = try manifest(folder)[0]["file"] as? String ?? ""
        return ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-i", folder + "/" + take, "-f", "framemd5", "-"])
            .standardOutput.split(separator: "\n").filter { !$0.hasPrefix("#") }.joined(separator: "\n")
    }

    @Test func sameSeedAndScriptGiveIdenticalFrames() throws {
        let script = directory + "/s.actions"
        try "at 0s lens 0.5\nat 0.3s zoom 3 ramp 4\nat 0.6s torch on\nat 1s stop\n".write(toFile: script, atomically: true, encoding: .utf8)
        var sums: [String] = []
        for (name, seed) in [("a", "7"), ("b", "7"), ("c", "8")] {
            let out = directory + "/" + name
            let result = vrender("capture", "--device", "synthetic:seed=\(seed)", "--out", out, "--script", script,
                                 "--size", "320x240", "--codec", "h264")
            #expect(result.status == 0, "\(result.standardError)")
            sums.append(try framemd5(out))
        }
        #expect(!sums[0].isEmpty)
        #expect(sums[0] == sums[1])
        #expect(sums[0] != sums[2])
    }

    @Test func clampedControlsAreReportedNotFatal() throws {
        let result = vrender("capture", "--device", "synthetic", "--out", directory + "/z", "--duration", "200ms",
                             "--zoom", "10", "--size", "160x120", "--codec", "h264")
        #expect(result.status == 0)
        #expect(result.standardError.contains("6.0"))
    }

    /// `--audio auto` (the default) names the microphone it picked and its format, on a line of
    /// capture's own; a microphone the user named is not announced.
    @Test func autoNamesTheMicrophoneItPicked() throws {
        let common = ["--duration", "200ms", "--size", "160x120", "--codec", "h264", "--audio-channels", "2"]
        let auto = ProgramRun.run(CommandLineTests.binary, ["capture", "--device", "synthetic:seed=4", "--out", directory + "/auto"] + common)
        #expect(auto.status == 0, "\(auto.standardError)")
        let lines = auto.standardError.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasPrefix("capture: audio:") } == ["capture: audio: auto → synthetic seed=4 48000 Hz 2 ch"],
                "\(auto.standardError)")
        let named = ProgramRun.run(CommandLineTests.binary, ["capture", "--device", "synthetic:seed=4", "--out", directory + "/named",
                                                             "--audio", "synthetic"] + common)
        #expect(named.status == 0, "\(named.standardError)")
        #expect(!named.standardError.contains("capture: audio:"), "\(named.standardError)")
    }

    @Test func aMissingDeviceIsNamed() {
        let result = vrender("capture", "--device", "/dev/video-missing", "--out", directory + "/m", "--duration", "1s")
        #expect(result.status == 1)
        #expect(result.standardError.contains("vrender: error: /dev/video-missing"))
    }

    @Test func aFailedCaptureLeavesNoFolderItMade() {
        let out = directory + "/new/deeper"
        let result = vrender("capture", "--device", "/dev/nonexistent", "--out", out, "--duration", "1s")
        #expect(result.status == 1)
        #expect(!FileManager.default.fileExists(atPath: directory + "/new"))
        // A folder that was there before is kept, even empty.
        let existing = directory + "/kept"
        try? FileManager.default.createDirectory(atPath: existing, withIntermediateDirectories: false)
        #expect(vrender("capture", "--device", "/dev/nonexistent", "--out", existing, "--duration", "1s").status == 1)
        #expect(FileManager.default.fileExists(atPath: existing))
    }

    @Test func takesListNeedsATakesFolder() {
        let notTakes = vrender("takes", "list", directory)
        #expect(notTakes.status == 1)
        #expect(notTakes.standardError.hasPrefix("vrender: error: \(directory): no takes.json (not a takes folder"))
        #expect(notTakes.standardOutput.isEmpty)
        let missing = vrender("takes", "list", directory + "/missing")
        #expect(missing.status == 1)
        #expect(missing.standardError == "vrender: error: \(directory)/missing: no such folder\n")
    }

    @Test func withoutATerminalADurationIsNeeded() {
        let result = vrender("capture", "--device", "synthetic", "--out", directory + "/n")
        #expect(result.status == 2, "a missing option is a usage error")
        #expect(result.standardError.contains("--duration"))
    }

    @Test func takesListRemoveAndContactSheet() throws {
        let out = directory + "/l"
        #expect(vrender("capture", "--device", "synthetic", "--out", out, "--takes", "3", "--duration", "300ms",
                        "--size", "160x120", "--codec", "h264").status == 0)
        let list = vrender("takes", "list", out)
        #expect(list.status == 0)
        #expect(list.standardOutput.contains("3 take(s), 0.90 s"))
        let sheet = directory + "/sheet.png"
        let thumbs = vrender("takes", "thumbs", out, "-o", sheet, "--columns", "2", "--width", "160")
        #expect(thumbs.status == 0, "\(thumbs.standardError)")
        #expect(ProgramRun.ffprobe(sheet, stream: "v", entries: "stream=width") == "344")    // 8 + 2 × (160 + 8)
        // 8 + 2 × (120 + 42 + 8): each take labelled on two lines (number and length, file name).
        #expect(ProgramRun.ffprobe(sheet, stream: "v", entries: "stream=height") == "348")
        let first = try manifest(out)[0]["file"] as? String ?? ""
        #expect(first.hasPrefix("segment_0001_") && first.hasSuffix(".mov"))
        let removed = vrender("takes", "rm", out, "1")
        #expect(removed.status == 0)
        #expect(!FileManager.default.fileExists(atPath: out + "/" + first))
        #expect(try manifest(out).count == 2)
        #expect(vrender("takes", "rm", out, "9").status == 1)
    }

    @Test func devicesListsTheSyntheticCamera() {
        let result = vrender("devices", "--dev", directory)
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("none found in \(directory)"))
        #expect(result.standardOutput.contains("synthetic[:seed=N]"))
    }

    @Test func ctrlCEndsTheTakeKeepsItAndExits130() throws {
        let out = directory + "/i"
        let output = Pipe(), errors = Pipe()
        let process = try startLongCapture(into: out, size: "160x120", output: output, errors: errors)
        // Interrupt once the take's file exists: it has frames then.
        for _ in 0..<200 where ((try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []).allSatisfy({ !$0.hasSuffix(".mov") }) {
            usleep(50_000)
        }
        process.interrupt()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let complaints = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        #expect(printed.hasPrefix("captured 1 take(s)"), "\(printed)")
        #expect(!complaints.contains("error"), "\(complaints)")
        let takes = try manifest(out)
        #expect(takes.count == 1)
        // Read back before exiting: its check is in takes.json.
        let check = try #require(takes.first?["check"] as? [String: Any])
        #expect(check["problem"] == nil)
        #expect((check["decodableFrames"] as? Int ?? 0) == takes.first?["frames"] as? Int)
    }

    @Test func removingTheFolderMidTakeIsAnErrorNamingTheTake() throws {
        let out = directory + "/removed"
        let errors = Pipe()
        let process = try startLongCapture(into: out, size: "160x120", output: FileHandle.nullDevice, errors: errors)
        for _ in 0..<200 where TestMedia.files(in: out, containing: ".mov").isEmpty { usleep(50_000) }
        let take = try #require(TestMedia.files(in: out, containing: ".mov").first)
        // Moved away in one step, then removed once the capture is done: deleting it file by file
        // races the capture, which may add a file (a thumbnail) while the folder is emptied.
        #expect(rename(out, out + ".gone") == 0)
        let complaints = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try FileManager.default.removeItem(atPath: out + ".gone")
        #expect(process.terminationStatus == 1)
        // The take's next fragment, or its thumbnail if that comes first, finds the folder gone.
        let stem = (take as NSString).deletingPathExtension
        #expect(complaints.contains("vrender: error: \(out)/\(stem)."), "\(complaints)")
    }

    @Test func aFileSizeLimitEndsTheTakeAndKeepsWhatWasWritten() throws {
        let out = directory + "/limited"
        // 200 blocks of 1 KiB: the take hits the limit a few seconds in. SIGXFSZ as a shell
        // leaves it (the test runner may ignore it), so vrender must ignore it itself.
        let result = ProgramRun.run("/bin/bash", ["-c", "ulimit -f 200; exec env --default-signal=XFSZ \"$@\"", "bash",
                                                 CommandLineTests.binary,
                                                 "capture", "--device", "synthetic", "--out", out, "--duration", "30s",
                                                 "--size", "640x360", "--codec", "h264"])
        #expect(result.status == 1)
        let takes = try manifest(out)
        let file = try #require(takes.first?["file"] as? String)
        #expect(result.standardError.contains("vrender: error: \(out)/\(file): cannot write (File too large); the take ends there"),
                "\(result.standardError)")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: out + "/" + file)[.size] as? Int)
        #expect(size <= 200 * 1024)
        let frames = Int(ProgramRun.ffprobe(out + "/" + file, stream: "v", entries: "stream=nb_read_frames", countFrames: true)) ?? 0
        #expect(frames > 30 && frames == takes.first?["frames"] as? Int)
        #expect(ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-i", out + "/" + file, "-f", "null", "-"]).standardError.isEmpty)
    }

    @Test func demoRecordsAndExportsAndRerunsFromScratch() throws {
        let out = directory + "/demo"
        for _ in 0..<2 {
            let result = vrender("demo", "--out", out, "--size", "160x120", "--gpu", "cpu")
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.standardOutput.contains("demo: takes in \(out)/takes/"))
            #expect(result.standardError.components(separatedBy: "take: segment_").count == 4)
        }
        #expect(try manifest(out + "/takes").count == 3)   // the rerun replaced the first run's takes
        #expect(ProgramRun.ffprobe(out + "/export.mov", stream: "v", entries: "stream=nb_frames") == "270")
    }

    /// Starts a 30-second real-time synthetic capture into `out`, for a test to interrupt.
    private func startLongCapture(into out: String, size: String, output: Any, errors: Any) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLineTests.binary)
        process.arguments = ["capture", "--device", "synthetic", "--out", out, "--duration", "30s", "--realtime",
                             "--size", size, "--codec", "h264"]
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        return process
    }
}
