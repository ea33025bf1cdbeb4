import Foundation
import Testing
import VRenderTestSupport

/// `vrender takes recover`, run as a user would: after a real kill, and its report, exit status
/// and hints from capture and the other takes commands.
@Suite struct TakesRecoverCommandTests {
    let scratch = ScratchFolder()
    var directory: String { scratch.path }

    func vrender(_ arguments: String...) -> ProgramRun {
        ProgramRun.run(CommandLineTests.binary, arguments)
    }

    private func takeFiles(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".mov") }.sorted()
    }

    /// A real-time capture killed (SIGKILL) once two seconds of its take are on disk in whole
    /// fragments: recover makes it one listed take that decodes, start to end, without an error.
    @Test func aKilledCaptureIsRecovered() throws {
        let out = directory + "/killed"
        let capture = Process()
        capture.executableURL = URL(fileURLWithPath: CommandLineTests.binary)
        capture.arguments = ["capture", "--device", "synthetic", "--realtime", "--duration", "20s", "--out", out,
                             "--size", "320x240", "--codec", "h264"]
        capture.standardOutput = FileHandle.nullDevice
        capture.standardError = FileHandle.nullDevice
        try capture.run()
        // The take's file is the signal (the status line is for terminals only): poll it until
        // its complete fragments hold two seconds, bounded by the take's own 20 s.
        var recorded = FragmentCensus(Data())
        let deadline = Date().addingTimeInterval(20)
        while recorded.framesInCompleteFragments < 60, Date() < deadline, capture.isRunning {
            usleep(50_000)
            if let take = takeFiles(out).first { recorded = (try? FragmentCensus(contentsOf: out + "/" + take)) ?? recorded }
        }
        kill(capture.processIdentifier, SIGKILL)
        capture.waitUntilExit()
        #expect(capture.terminationReason == .uncaughtSignal)
        let take = try #require(takeFiles(out).first)
        let path = out + "/" + take
        let killed = try FragmentCensus(contentsOf: path)
        try #require(killed.framesInCompleteFragments >= 60, "the take never held two seconds")
        #expect(killed.boxes.last?.type != "mfra", "killed before its trailer")
        #expect(!FileManager.default.fileExists(atPath: out + "/takes.json"))

        let recover = vrender("takes", "recover", out)
        #expect(recover.status == 0, "\(recover.standardError)")
        #expect(recover.standardOutput.split(separator: "\n").first?.hasPrefix("recovered:  \(take)") == true,
                "\(recover.standardOutput)")
        let entries = try manifest(out)
        #expect(entries.count == 1)
        #expect(entries.first?["file"] as? String == take)
        let frames = try #require(entries.first?["frames"] as? Int)
        #expect(frames == killed.wholeSamples && frames >= killed.framesInCompleteFragments)
        #expect(ProgramRun.decodedFrames(path) == frames)
        #expect(ProgramRun.decodeErrors(path) == "")
        #expect(abs((entries.first?["duration"] as? Double ?? 0) - ProgramRun.playedSeconds(path)) < 1e-3)
        #expect(entries.first?["device"] as? String == "synthetic seed=1")
        // The synthetic microphone's sound (`--audio auto`) is recovered too, to the picture's end.
        let video = try #require(ProgramRun.streamSpan(path, "v"))
        let audio = try #require(ProgramRun.streamSpan(path, "a"), "the recovered take has no sound")
        #expect(abs(audio.end - video.end) <= 0.3, "sound ends at \(audio.end) s, picture at \(video.end) s")

        let again = vrender("takes", "recover", out)
        #expect(again.status == 0)
        #expect(again.standardOutput.hasSuffix("recover: nothing to recover (1 take(s) kept)\n"), "\(again.standardOutput)")
    }

    /// What a kill -9 leaves besides the take: temporaries of takes.json, a thumbnail, a
    /// salvage copy. Recover removes those whose process is gone and says so; others stay.
    @Test func temporariesOfKilledRunsAreRemovedAndReported() throws {
        let out = directory + "/leftovers"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let dead = try ProgramRun.deadPid()
        let leftover = ".takes.json.\(dead)-00000000000000ff.vrender-partial"
        let live = ".takes.json.\(getpid())-00000000000000fe.vrender-partial"
        for name in [leftover, live] { #expect(FileManager.default.createFile(atPath: out + "/" + name, contents: Data("{".utf8))) }
        let recover = vrender("takes", "recover", out)
        #expect(recover.standardOutput.contains("removed 1 temporary file(s) of killed runs: \(leftover)"), "\(recover.standardOutput)")
        #expect(!FileManager.default.fileExists(atPath: out + "/" + leftover))
        #expect(FileManager.default.fileExists(atPath: out + "/" + live))
    }

    /// A batch capture whose second take is cut and unlisted (as a kill leaves it): capture says
    /// so, a damaged takes.json is refused with the hint, recover reports each take, keeps the
    /// damaged file, and exits 1 only while a take cannot be saved.
    @Test func reportHintsAndExitStatus() throws {
        let out = directory + "/takes"
        #expect(vrender("capture", "--device", "synthetic", "--out", out, "--takes", "2", "--duration", "2s",
                        "--size", "160x120", "--codec", "h264").status == 0)
        let files = takeFiles(out)
        let cutTake = out + "/" + files[1]
        let video = try Data(contentsOf: URL(fileURLWithPath: cutTake))
        let lastMdat = try #require(FragmentCensus(video).boxes("mdat").last)
        try video.prefix(lastMdat.offset + lastMdat.size / 2).write(to: URL(fileURLWithPath: cutTake))
        let listed = try JSONSerialization.data(withJSONObject: ["takes": [try manifest(out)[0]]])
        try listed.write(to: URL(fileURLWithPath: out + "/takes.json"))

        let capture = vrender("capture", "--device", "synthetic", "--out", out, "--duration", "200ms", "--size", "160x120",
                              "--codec", "h264")
        #expect(capture.status == 0)
        #expect(capture.standardError.contains(
            "capture: note: \(out) has 1 unfinished take(s) (\(files[1])): run 'vrender takes recover \(out)'\n"),
                "\(capture.standardError)")

        // takes list shows what is listed and says what is not.
        let pending = vrender("takes", "list", out)
        #expect(pending.status == 0 && pending.standardOutput.contains(files[0]) && !pending.standardOutput.contains(files[1]))
        #expect(pending.standardError.contains("takes: note: \(out) has 1 unfinished take(s) (\(files[1])): "
                                               + "run 'vrender takes recover \(out)'"), "\(pending.standardError)")

        // Killed during the first take: no takes.json yet, and the take is named.
        let first = directory + "/first"
        try FileManager.default.createDirectory(atPath: first, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: cutTake, toPath: first + "/" + files[1])
        let none = vrender("takes", "list", first)
        #expect(none.status == 1)
        #expect(none.standardError.contains("\(first): no takes.json, but 1 take file(s) (\(files[1]))")
                && none.standardError.contains("'vrender takes recover \(first)'"), "\(none.standardError)")

        try Data("{\"takes\": [".utf8).write(to: URL(fileURLWithPath: out + "/takes.json"))
        let list = vrender("takes", "list", out)
        #expect(list.status == 1)
        #expect(list.standardError.hasPrefix("vrender: error: \(out)/takes.json: is not a valid takes manifest: "
                                             + "'vrender takes recover \(out)' rebuilds it"), "\(list.standardError)")

        let recover = vrender("takes", "recover", out)
        #expect(recover.status == 0, "\(recover.standardError)")
        let lines = recover.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 5, "\(recover.standardOutput)")
        #expect(lines.first?.hasPrefix("listed:     \(files[0])  2.00 s, 60 frames (finished, but missing from takes.json)") == true)
        #expect(lines.dropFirst().first?.hasPrefix("recovered:  \(files[1])") == true)
        #expect(lines.dropFirst(3).first?.hasPrefix("takes.json: written (the damaged one is kept as takes.json.damaged-") == true)
        #expect(lines.last == "recover: 1 recovered, 2 listed")
        #expect(try manifest(out).count == 3)

        let json = vrender("takes", "recover", out, "--json")
        #expect(json.status == 0)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect((report["takes"] as? [[String: Any]])?.compactMap { $0["outcome"] as? String } == ["kept", "kept", "kept"])
        #expect(report["manifestWritten"] as? Bool == false && report["allSaved"] as? Bool == true)

        try Data("not a video".utf8).write(to: URL(fileURLWithPath: out + "/segment_0009_NOTES.mov"))
        let unsaveable = vrender("takes", "recover", out)
        #expect(unsaveable.status == 1)
        #expect(unsaveable.standardOutput.contains("unsaveable: segment_0009_NOTES.mov (not a QuickTime file)"),
                "\(unsaveable.standardOutput)")
        #expect(FileManager.default.fileExists(atPath: out + "/segment_0009_NOTES.mov"))
    }

    @Test func entriesLeadingOutAreRefused() throws {
        let out = directory + "/hostile"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false)
        let entry: [String: Any] = ["file": "../x.mov", "created": "2026-01-01T00:00:00Z", "frames": 1, "dropped": 0,
                                    "duration": 1, "fps": "30", "width": 64, "height": 48, "codec": "h264",
                                    "device": "test", "preroll": 0, "timeline": [Any]()]
        let bytes = try JSONSerialization.data(withJSONObject: ["takes": [entry]])
        try bytes.write(to: URL(fileURLWithPath: out + "/takes.json"))
        let result = vrender("takes", "recover", out)
        #expect(result.status == 1)
        #expect(result.standardError == "vrender: error: \(out)/takes.json: entry 1 '../x.mov' leads outside the folder ('..')\n")
        #expect(result.standardOutput.isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/takes.json")) == bytes)
    }
}
