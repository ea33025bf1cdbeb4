import Foundation
import Testing
import VRenderTestSupport

/// `vrender camera`: the synthetic camera streamed to other programs, judged by ffmpeg.
@Suite struct CameraCommandTests {
    let directory = TestMedia.scratchDirectory()

    func vrender(_ arguments: [String]) -> ProgramRun {
        ProgramRun.run(CommandLineTests.binary, arguments)
    }

    /// A shell pipeline (bash, so `PIPESTATUS` says how each side ended), `VRENDER` naming the binary.
    func pipeline(_ script: String) -> ProgramRun {
        var environment = ProcessInfo.processInfo.environment
        environment["VRENDER"] = CommandLineTests.binary
        return ProgramRun.run("/bin/bash", ["-c", "set -u; " + script], environment: environment, currentDirectory: directory)
    }

    /// ffmpeg's decoded picture checksums, one per line (no header, no timestamps).
    func pictureSums(_ framemd5: String) -> [String] {
        framemd5.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { String($0.split(separator: ",").last ?? "") }
    }

    func pictureSums(ofFile path: String) -> [String] {
        pictureSums(ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-i", path, "-map", "0:v", "-f", "framemd5", "-"]).standardOutput)
    }

    @Test func aPipeGivesTheSamePicturesEveryRunAndAsALosslessCapture() throws {
        let script = directory + "/moves.actions"
        try "at 0s lens 0.5\nat 0.5s zoom 3 ramp 4\nat 1s torch on\nat 1.5s flip\n".write(toFile: script, atomically: true, encoding: .utf8)
        let camera = "\"$VRENDER\" camera --device synthetic:seed=3 --duration 2s --size 320x240 --script \(script) -o - --format y4m"
        let runs = (0..<2).map { _ in pipeline("\(camera) 2>/dev/null | ffmpeg -v error -i - -f framemd5 -") }
        for run in runs { #expect(run.status == 0, "\(run.standardError)") }
        let sums = pictureSums(runs[0].standardOutput)
        #expect(sums.count == 60)
        #expect(Set(sums).count > 30, "the script's moves change the picture")
        #expect(sums == pictureSums(runs[1].standardOutput))

        let takes = directory + "/takes"
        let capture = vrender(["capture", "--device", "synthetic:seed=3", "--duration", "2s", "--size", "320x240", "--script", script,
                               "--codec", "ffv1", "--audio", "none", "--out", takes])
        #expect(capture.status == 0, "\(capture.standardError)")
        let take = try #require(try FileManager.default.contentsOfDirectory(atPath: takes).first { $0.hasSuffix(".mov") })
        #expect(pictureSums(ofFile: takes + "/" + take) == sums)
    }

    @Test func aReaderThatQuitsEndsTheFeedWithExitZeroAndANote() {
        // One 160x120 picture is 28,800 bytes: head takes part of the second and leaves.
        let run = pipeline("\"$VRENDER\" camera --size 160x120 -o - 2>err.txt | head -c 40000 > /dev/null; "
                           + "echo \"${PIPESTATUS[0]}\"; cat err.txt")
        let lines = run.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first == "0", "\(run.standardOutput)")
        #expect(run.standardOutput.contains("camera: the reader closed standard output after"), "\(run.standardOutput)")
        #expect(run.standardOutput.contains("ended by the reader"), "\(run.standardOutput)")
    }

    @Test func nutCarriesTheMicrophoneBesideThePictures() throws {
        let script = directory + "/clap.actions"
        try "at 0.5s clap\n".write(toFile: script, atomically: true, encoding: .utf8)
        let out = directory + "/feed.nut"
        let run = vrender(["camera", "--duration", "1s", "--size", "160x120", "--script", script, "-o", out, "--format", "nut"])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardError.contains("with its microphone's sound (48000 Hz float)"), "\(run.standardError)")
        let streams = ProgramRun.run("/usr/bin/ffprobe", ["-v", "error", "-count_packets", "-show_entries",
                                                         "stream=codec_name,nb_read_packets", "-of", "csv=p=0", out])
        #expect(streams.standardOutput.split(separator: "\n") == ["rawvideo,30", "pcm_f32le,100"], "\(streams.standardOutput)")
        // The clapper clicks at every whole second and at each clap: the clap's click starts at its
        // flash frame's time, 0.5 s, sample 24,000 (samples from ffmpeg, not vrender).
        let raw = directory + "/sound.f32"
        _ = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-i", out, "-map", "0:a", "-f", "f32le", raw])
        let samples = try Data(contentsOf: URL(fileURLWithPath: raw))
        let values = samples.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        #expect(values.count == 48_000)
        let loud = values.indices.first { $0 > 12_000 && abs(values[$0]) > 0.5 }
        #expect(loud.map { abs($0 - 24_000) <= 48 } == true, "first loud sample \(String(describing: loud))")
    }

    @Test func rawvideoIsBarePlanesAndAFIFOTakesAReader() {
        let run = pipeline("mkfifo feed.fifo; ffmpeg -v error -f rawvideo -pix_fmt yuv420p -s 160x120 -r 30 -i feed.fifo "
                           + "-f framemd5 - > fifo.md5 & \"$VRENDER\" camera --device synthetic:seed=5 --size 160x120 --duration 1s "
                           + "--format rawvideo -o feed.fifo 2> err.txt; echo \"camera $?\"; wait $!; echo \"reader $?\"; "
                           + "\"$VRENDER\" camera --device synthetic:seed=5 --size 160x120 --duration 1s -o same.y4m 2>/dev/null")
        #expect(run.standardOutput == "camera 0\nreader 0\n", "\(run.standardOutput) \(run.standardError)")
        let viaFIFO = pictureSums((try? String(contentsOfFile: directory + "/fifo.md5", encoding: .utf8)) ?? "")
        #expect(viaFIFO.count == 30)
        #expect(viaFIFO == pictureSums(ofFile: directory + "/same.y4m"))
        let notes = (try? String(contentsOfFile: directory + "/err.txt", encoding: .utf8)) ?? ""
        #expect(notes.contains("waiting for a reader to open the FIFO feed.fifo"), "\(notes)")
    }

    /// Without --format, -o's extension says the container: a .nut holds nut (with sound), a .yuv
    /// bare planes, anything else y4m (ffprobe names what is inside, not vrender).
    @Test(arguments: [("feed.nut", "nut"), ("feed.yuv", "rawvideo"), ("feed.y4m", "yuv4mpegpipe"), ("feed.video", "yuv4mpegpipe")])
    func theExtensionChoosesTheContainer(name: String, container: String) throws {
        let out = directory + "/" + name
        let run = vrender(["camera", "--size", "160x120", "--duration", "200ms", "-o", out])
        #expect(run.status == 0, "\(run.standardError)")
        let probed = container == "rawvideo"
            ? ProgramRun.run("/usr/bin/ffprobe", ["-v", "error", "-f", "rawvideo", "-video_size", "160x120", "-show_entries",
                                                  "format=format_name", "-of", "csv=p=0", out])
            : ProgramRun.run("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "format=format_name", "-of", "csv=p=0", out])
        #expect(probed.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == container, "\(probed.standardError)")
        let size = try FileManager.default.attributesOfItem(atPath: out)[.size] as? Int
        if container == "rawvideo" { #expect(size == 6 * 160 * 120 * 3 / 2, "six bare 4:2:0 pictures") }
        #expect(run.standardError.contains("with its microphone's sound") == (container == "nut"), "\(run.standardError)")
    }

    @Test func theScriptsStopEndsTheFeed() throws {
        let script = directory + "/stop.actions"
        try "at 0.5s stop\n".write(toFile: script, atomically: true, encoding: .utf8)
        let out = directory + "/stopped.y4m"
        let run = vrender(["camera", "--size", "160x120", "--script", script, "-o", out])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardError.contains("camera: 15 frame(s) (0.50 s)"), "\(run.standardError)")
        #expect(run.standardError.contains("ended by the script's stop"), "\(run.standardError)")
        #expect(pictureSums(ofFile: out).count == 15)
    }

    /// The wrong kind of device, a missing one, and bad outputs: a clear error naming each, and
    /// a file that was there is left as it was.
    @Test(arguments: [
        (["--v4l2-out", "/dev/null"], "/dev/null: not a V4L2 device"),
        (["--v4l2-out", "/dev/video-missing"], "/dev/video-missing: no such device"),
        (["--v4l2-out", "/dev/null", "-o", "kept.y4m"], "/dev/null: not a V4L2 device"),
        (["-o", "/"], "-o: / is a folder"),
        (["--device", "/dev/video0", "-o", "kept.y4m"], "--device: vrender camera feeds the synthetic camera"),
        (["--duration", "1s"], "give -o OUT"),
        (["--v4l2-io", "write", "-o", "kept.y4m"], "--v4l2-format and --v4l2-io need --v4l2-out DEVICE"),
    ])
    func badDevicesAndOutputsAreNamed(arguments: [String], message: String) throws {
        let kept = directory + "/kept.y4m"
        try "a file of the user's".write(toFile: kept, atomically: true, encoding: .utf8)
        let run = ProgramRun.run(CommandLineTests.binary, ["camera", "--duration", "1s"] + arguments, currentDirectory: directory)
        #expect(run.status != 0)
        #expect(run.standardError.contains(message), "\(run.standardError)")
        #expect(try String(contentsOfFile: kept, encoding: .utf8) == "a file of the user's")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".vrender-partial") }
        #expect(leftovers.isEmpty)
    }
}

/// `vrender camera`'s keys on a terminal (tmux): a lens key changes the picture from then on, `q` ends the feed.
@Suite(.enabled(if: TmuxTerminal.isInstalled, "needs tmux (scripts/install-deps.sh installs it)"))
struct CameraKeysTests {
    let directory = TestMedia.scratchDirectory()

    @Test func aLensKeyMovesThePictureAndQEndsTheFeed() throws {
        let out = directory + "/keys.y4m"
        let terminal = TmuxTerminal()
        defer { terminal.kill() }
        let vrender = "/usr/bin/timeout --foreground -k 10 \(GuardedRun.limit) '\(CommandLineTests.binary)'"
        terminal.start("\(vrender) camera --device synthetic:seed=6 --realtime --size 160x120 -o '\(out)'; "
                       + "echo \"vrender exited $?\"; exec sleep 300")
        func progress(_ pane: [String]) -> String? { pane.first { $0.contains("camera: ") && $0.contains(" frames, ") } }
        let before = try #require(progress(try terminal.waitFor("the feed running") { progress($0) != nil }))
        terminal.type("2")
        // A second more of frames (the status line's next count) through the 2x lens, then quit.
        try terminal.waitFor("frames after the key") { pane in progress(pane).map { $0 != before } == true }
        terminal.type("q")
        let pane = try terminal.waitFor("vrender exiting") { $0.contains("vrender exited 0") }
        #expect(pane.contains { $0.contains("ended by q") }, "\(pane)")
        let fed = CameraCommandTests().pictureSums(ofFile: out)
        #expect(fed.count >= 30)
        // The same camera without keys, as many frames: equal up to the key, then not.
        let plain = directory + "/plain.y4m"
        // Half a frame short of the count's end: a rounded end could fall just after one more frame.
        let seconds = String(format: "%.4f", (Double(fed.count) - 0.5) / 30)
        let run = ProgramRun.run(CommandLineTests.binary, ["camera", "--device", "synthetic:seed=6", "--size", "160x120",
                                                           "--duration", seconds + "s", "-o", plain])
        #expect(run.status == 0, "\(run.standardError)")
        let unmoved = CameraCommandTests().pictureSums(ofFile: plain)
        #expect(unmoved.count == fed.count)
        #expect(fed.first == unmoved.first)
        #expect(fed.last != unmoved.last, "the 2x lens changed the picture")
    }
}
