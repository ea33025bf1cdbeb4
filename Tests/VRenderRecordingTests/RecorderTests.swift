import Foundation
import Testing
import VRenderCapture
import VRenderCore
import VRenderMedia
import VRenderTestSupport
@testable import VRenderRecording
@testable import VRenderTakes

@Suite struct RecorderTests {
    let directory = TestMedia.scratchDirectory()

    private func record(_ camera: FakeCamera, _ plan: RecordingPlan) throws -> [TakeEntry] {
        try Recorder(source: camera, plan: plan).run()
    }

    @Test func batchTakesHaveExactlyTheirFrames() throws {
        let takes = try record(FakeCamera(), RecordingPlan(outputDirectory: directory, takes: 3, duration: 2, codec: .h264))
        #expect(takes.map(\.frames) == [60, 60, 60])
        #expect(takes.map(\.dropped) == [0, 0, 0])
        #expect(takes.allSatisfy { abs($0.duration - 2) < 1e-9 })
        let manifest = try TakesManifest.load(from: directory)
        #expect(manifest.takes == takes)
        for take in takes {
            #expect(take.file.hasPrefix("segment_") && take.file.hasSuffix(".mov"))
            let path = directory + "/" + take.file
            #expect(ProgramRun.ffprobe(path, stream: "v", entries: "stream=nb_read_frames", countFrames: true) == "60")
            #expect(FileManager.default.fileExists(atPath: directory + "/" + take.thumbnail!))
            #expect(ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-i", path, "-f", "null", "-"]).standardError.isEmpty)
        }
        // Takes follow each other: the second starts where the first ended (its first frame
        // is frame 60 of the camera, luma 16 + 60).
        let second = directory + "/" + takes[1].file
        let stats = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-i", second, "-frames:v", "1", "-vf",
                                                      "signalstats,metadata=print:file=-", "-f", "null", "-"]).standardOutput
        let luma = stats.split(separator: "\n").first { $0.contains("YAVG=") }.flatMap { Double($0.split(separator: "=").last!) }
        #expect(abs((luma ?? 0) - 76) < 1.5, "first frame of take 2: YAVG \(String(describing: luma))")
    }

    @Test func fileNamesSortInRecordingOrderAcrossCaptures() throws {
        let first = try record(FakeCamera(), RecordingPlan(outputDirectory: directory, takes: 4, duration: 0.1, codec: .h264))
        #expect(first.map(\.file).compactMap(TakesFolder.takeNumber(inFileName:)) == [1, 2, 3, 4])
        // A second capture into the same folder counts on after the takes already there.
        let second = try record(FakeCamera(), RecordingPlan(outputDirectory: directory, takes: 2, duration: 0.1, codec: .h264))
        #expect(second.map(\.file).compactMap(TakesFolder.takeNumber(inFileName:)) == [5, 6])

        let listed = try TakesManifest.load(from: directory).takes
        #expect(listed.map(\.file) == (first + second).map(\.file))
        // What a shell glob sees, in byte order (LC_ALL=C) as `ls` would list it.
        let files = try FileManager.default.contentsOfDirectory(atPath: directory)
        let movies = files.filter { $0.hasSuffix(".mov") }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        #expect(movies == listed.map(\.file))
        let thumbnails = files.filter { $0.hasSuffix(".png") }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        #expect(thumbnails == listed.compactMap(\.thumbnail))
        #expect(movies.allSatisfy { $0.hasPrefix("segment_000") && $0.count == "segment_0001_".count + 36 + ".mov".count })
        let (paths, order) = try TakesFolder.takePaths(in: directory)
        #expect(paths == listed.map { directory + "/" + $0.file })
        #expect(order == .manifest)
    }

    @Test func aScriptDrivesTheCameraAndStopsTheTake() throws {
        let script = try ActionScript(text: "at 0s zoom 10\nat 0.5s torch on\nat 1s stop\n", source: "t.actions")
        let camera = FakeCamera()
        let takes = try record(camera, RecordingPlan(outputDirectory: directory, takes: 2, codec: .h264, script: script))
        #expect(takes.map(\.frames) == [30, 30])
        // Each take replays the script from its own start.
        #expect(camera.applied.map(\.1) == [0, 0.5, 1, 1.5])
        let timeline = takes[0].timeline
        #expect(timeline.map(\.cause) == ["start", "t.actions:1", "t.actions:2"])
        #expect(timeline[1].zoom == 6)
        #expect(timeline[2].torch == 1 && abs(timeline[2].time - 0.5) < 1e-9)
    }

    @Test func prerollStartsTheTakeEarly() throws {
        let takes = try record(FakeCamera(), RecordingPlan(outputDirectory: directory, takes: 1, duration: 1, preroll: 0.5, codec: .h264))
        #expect(takes[0].frames == 45)   // 0.5 s before the trigger + 1 s after
        #expect(abs(takes[0].preroll - 0.5) < 1e-9)
    }

    @Test func aSlowEncoderMakesALiveCaptureDropNotFallBehind() throws {
        // The writer holds its first frame until the camera has delivered all 600 frames of
        // the take: capture must go on, dropping the oldest frames the ring cannot hold.
        let camera = FakeCamera(fps: 100, live: true)
        let captured = DispatchSemaphore(value: 0)
        camera.onFrame = { if $0 == 599 { captured.signal() } }
        let events = EventLog()
        let recorder = Recorder(source: camera, plan: RecordingPlan(outputDirectory: directory, takes: 1, duration: 6),
                                writers: { CountingWriter($0, gate: captured) }, events: { events.append($0) })
        let takes = try recorder.run()
        #expect(takes[0].frames + takes[0].dropped == 600)
        // The status line said how far behind the encoder was: the whole ring, at the end.
        #expect(events.behind.count >= 10)
        #expect((events.behind.max() ?? 0) >= 5.4)
        // The ring holds half a second (50 frames at 100 fps) and grows by five seconds more
        // (`RingSizing`); the oldest of the rest gave way.
        #expect(takes[0].frames == 550)
        #expect(takes[0].dropped == 50)
    }

    @Test func aBatchSourceWaitsForASlowEncoderInsteadOfDropping() throws {
        let camera = FakeCamera(fps: 100, live: false)
        let captured = DispatchSemaphore(value: 0)
        camera.onFrame = { if $0 == 49 { captured.signal() } }   // the ring is full by then
        let recorder = Recorder(source: camera, plan: RecordingPlan(outputDirectory: directory, takes: 1, duration: 1),
                                writers: { CountingWriter($0, gate: captured) })
        let takes = try recorder.run()
        #expect(takes.map(\.frames) == [100])
        #expect(takes.map(\.dropped) == [0])
    }

    @Test func startingSettingsAreReportedOnceAsNotices() throws {
        let camera = FakeCamera(request: CaptureRequest(lens: 2, zoom: 10, torch: true))
        let events = EventLog()
        let recorder = Recorder(source: camera, plan: RecordingPlan(outputDirectory: directory, takes: 1, duration: 0.1),
                                writers: { CountingWriter($0) }, events: events.append)
        let takes = try recorder.run()
        #expect(events.openedSources == ["fake camera"])
        #expect(events.notices == ["--zoom: zoom 10.0 → 6.0"])
        // Applied when the camera opened, before the take: its timeline starts there.
        #expect(camera.applied.map(\.0) == [.lens(2), .zoom(10), .torch(level: 1)])
        #expect(takes[0].timeline.map(\.cause) == ["start"])
        #expect(takes[0].timeline[0].zoom == 6 && takes[0].timeline[0].torch == 1)
    }

    @Test func keysStartAndStopTakesAndChangeTheCamera() throws {
        let camera = FakeCamera()
        let keys = BoundedQueue<LiveCommand>(capacity: 8)
        camera.onFrame = { frame in
            switch frame {
            case 2: keys.push(.toggleRecording)
            case 5: keys.push(.toggleTorch)
            case 20: keys.push(.toggleRecording)   // over TakeScheduler.shortestStop into the take
            case 22: keys.push(.quit)
            default: break
            }
        }
        let recorder = Recorder(source: camera, plan: RecordingPlan(outputDirectory: directory), commands: keys,
                                writers: { CountingWriter($0) })
        let takes = try recorder.run()
        // Pressed while frame k was captured: acted on before frame k + 1.
        #expect(takes.map(\.frames) == [18])   // frames 3 ... 20
        #expect(takes[0].timeline.map(\.cause) == ["start", "key t"])
        #expect(takes[0].timeline[1].torch == 1 && abs(takes[0].timeline[1].time - 3.0 / 30) < 1e-9)
    }

    @Test func aStopRequestEndsTheTakeAndKeepsIt() throws {
        let camera = FakeCamera()
        let stop = StopSignal()
        camera.onFrame = { if $0 == 14 { stop.raise() } }
        let recorder = Recorder(source: camera, plan: RecordingPlan(outputDirectory: directory, takes: 3, duration: 10),
                                stop: stop, writers: { CountingWriter($0) })
        let takes = try recorder.run()
        #expect(takes.map(\.frames) == [15])
        #expect(try TakesManifest.load(from: directory).takes.count == 1)
    }

    @Test func aDeviceThatGoesAwayEndsTheTakeCleanly() throws {
        let takes = try record(FakeCamera(lastFrame: 44), RecordingPlan(outputDirectory: directory, takes: 1, duration: 5, codec: .h264))
        #expect(takes.map(\.frames) == [45])
        #expect(ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-i", directory + "/" + takes[0].file, "-f", "null", "-"])
            .standardError.isEmpty)
    }
}

@Suite struct ActionScriptTests {
    @Test func parsesEveryAction() throws {
        let script = try ActionScript(text: """
            # demo
            at 1.5s zoom 2 ramp 4
            at 2s torch on
            at 0s lens 0.5
            at 3s flip
            at 2500ms torch 0.4   # a level
            at 1s focus 0.2 0.8
            at 4s stop
            """, source: "demo.actions")
        #expect(script.actions.map(\.time) == [0, 1, 1.5, 2, 2.5, 3, 4])
        #expect(script.actions[0].command == .control(.lens(0.5)))
        #expect(script.actions[2].command == .control(.rampZoom(to: 2, rate: 4)))
        #expect(script.actions[4].command == .control(.torch(level: 0.4)))
        #expect(script.actions[5].command == .control(.flip))
        #expect(script.stopTime == 4)
        #expect(script.actions[0].line == 4)
    }

    /// Scripts saved on Windows end lines with CR LF, which Swift reads as one Character: the
    /// parser must still see one action per line (testdata/fuzz/action-script/ has such a seed).
    @Test func readsWindowsLineEnds() throws {
        let script = try ActionScript(text: "# demo\r\nat 0s lens 0.5\r\nat 1s stop\r\n", source: "demo.actions")
        #expect(script.actions.map(\.time) == [0, 1])
        #expect(script.actions.map(\.line) == [2, 3])
        #expect(script.stopTime == 1)
    }

    @Test(arguments: [
        ("at 1s zom 2", "demo.actions:1: unknown action 'zom' (known: zoom, lens, torch, flip, focus, clap, audio-gap, flub, skip, stop)"),
        ("\nzoom 2", "demo.actions:2: expected 'at <time> <action>', got 'zoom 2'"),
        ("at soon zoom 2", "demo.actions:1: 'soon' is not a time (use e.g. 0.5, 0.5s, 500ms, 1:02.5)"),
        ("at 1s lens 3", "demo.actions:1: lens must be 0.5, 1 or 2, got 3"),
        ("at 1s zoom 2 fast 3", "demo.actions:1: usage: at <time> zoom <factor> [ramp <rate>]"),
        ("at 1s torch bright", "demo.actions:1: torch level 'bright' is not a number"),
    ])
    func errorsNameTheLine(text: String, message: String) {
        do {
            _ = try ActionScript(text: text, source: "demo.actions")
            Issue.record("'\(text)' should not parse")
        } catch let error as VRenderError {
            #expect(error.description == message)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
