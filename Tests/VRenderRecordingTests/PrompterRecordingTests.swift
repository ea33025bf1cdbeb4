import Foundation
import Testing
import VRenderCapture
import VRenderCore
import VRenderPrompter
import VRenderTestSupport
@testable import VRenderRecording
@testable import VRenderTakes

/// A prompter whose script is 200 lines 32 points apart (28 pt text), in a box 100 points
/// high, scrolling at `speed` points per second: a layout of its own, not the real one.
private func prompter(speed: Double = 30) -> PrompterSession.Factory {
    { _, _ in
        let lines = (0..<200).map { "line \($0)" }
        return PrompterSession(scriptName: "talk.txt", settings: PrompterSettings(speed: speed), viewportHeight: 100) { size in
            PrompterText(lines: lines, lineHeight: size + 4, contentHeight: Double(lines.count) * (size + 4) + 24)
        }
    }
}

@Suite struct PrompterRecordingTests {
    let directory = TestMedia.scratchDirectory()

    @Test func eachBatchTakeRecordsTheScrollFromWhereTheLastOneStopped() throws {
        let events = EventLog()
        let plan = RecordingPlan(outputDirectory: directory, takes: 3, duration: 1, preroll: 0.5, prompter: prompter())
        let takes = try Recorder(source: FakeCamera(), plan: plan, writers: { CountingWriter($0) }, events: events.append).run()
        // Scrolling runs from each take's trigger (after its pre-roll) for its second of
        // recording: 30 points a take.
        let records = try takes.map { try #require($0.prompter) }
        #expect(records.map(\.startOffset) == [0, 30, 60])
        #expect(records.map(\.endOffset) == [30, 60, 90])
        #expect(records.allSatisfy { $0.anchors.map(\.time) == [0] && $0.script == "talk.txt" })
        #expect(try TakesManifest.load(from: directory).takes.map(\.prompter) == records)
        // Each take's start shows where its scroll starts.
        let starts = events.prompterViewsAtTakeStarts
        #expect(starts.map(\.offset) == [0, 30, 60])
        #expect(starts.map(\.firstLine) == [0, 0, 1] && starts.allSatisfy { $0.state == .scrolling })
    }

    @Test func theSyntheticCameraWritesTheRecordIntoTakesJSON() throws {
        let out = directory + "/synthetic"
        var plan = RecordingPlan(outputDirectory: out, takes: 2, duration: 0.5, codec: .h264,
                                 prompter: try PrompterSession.captureFactory(
                                     script: PrompterScript(name: "roteiro.txt", text: String(repeating: "Olá, ação! ", count: 400)),
                                     settings: PrompterSettings(speed: 60, fontSize: 18)))
        plan.preroll = 0.2
        let job = CaptureJob(options: CaptureOptions(device: "synthetic", request: CaptureRequest(size: (160, 120)), plan: plan))
        _ = try job.run()
        let takes = try TakesManifest.load(from: out).takes
        let records = try takes.map { try #require($0.prompter) }
        #expect(records.count == 2)
        #expect(records[0].startOffset == 0 && records[0].endOffset == 30)
        #expect(records[1].startOffset == records[0].endOffset)
        #expect(records[1].endOffset == 60)
        #expect(records.allSatisfy { $0.script == "roteiro.txt" && $0.speed == 60 && $0.fontSize == 18 })
    }

    @Test func keysChangeTheScrollAndTheTakeKeepsEachChange() throws {
        let camera = FakeCamera()
        let keys = BoundedQueue<LiveCommand>(capacity: 8)
        camera.onFrame = { frame in
            switch frame {
            case 2: keys.push(.toggleRecording)                 // recording from frame 3 (0.1 s)
            case 8: keys.push(.prompter(.faster, cause: "key ]"))
            case 14: keys.push(.prompter(.toggleHold, cause: "key p"))
            case 20: keys.push(.prompter(.larger, cause: "key >"))
            case 32: keys.push(.toggleRecording)
            case 34: keys.push(.quit)
            default: break
            }
        }
        let recorder = Recorder(source: camera, plan: RecordingPlan(outputDirectory: directory, prompter: prompter()),
                                commands: keys, writers: { CountingWriter($0) })
        let record = try #require(try recorder.run().first?.prompter)
        // Acted on before the next frame: 6, 12 and 18 frames into the take.
        #expect(record.anchors.map(\.time).map { ($0 * 30).rounded() } == [0, 6, 12, 18])
        #expect(record.anchors.map(\.speed) == [30, 34, 34, 34])
        #expect(record.anchors.map(\.running) == [true, true, false, false])
        #expect(record.anchors.map(\.fontSize) == [28, 28, 28, 30])
        // 0.2 s at 30 points per second, 0.2 s at 34, then held: 12.8 of line 0's 32 points,
        // as far into that line at 30 pt, whose lines are 34 points apart.
        #expect(abs(record.endOffset - (6 + 6.8) / 32 * 34) < 1e-9)
    }

    @Test func aNewCaptureInTheFolderContinuesWhereTheLastTakeEnded() throws {
        let first = try Recorder(source: FakeCamera(), plan: RecordingPlan(outputDirectory: directory, duration: 1, prompter: prompter()),
                                 writers: { CountingWriter($0) }).run()
        let events = EventLog()
        let second = try Recorder(source: FakeCamera(), plan: RecordingPlan(outputDirectory: directory, duration: 1, prompter: prompter()),
                                  writers: { CountingWriter($0) }, events: events.append).run()
        let ended = try #require(first.first?.prompter?.endOffset)
        #expect(ended == 30)
        #expect(second.first?.prompter?.startOffset == ended && second.first?.prompter?.endOffset == 60)
        #expect(events.notices == ["prompter: continuing from 0% (where take 1 ended)"])
        #expect(events.prompterViewsAtTakeStarts.map(\.offset) == [30])
    }

    @Test func theRestartKeyTakesTheScrollBackToTheTop() throws {
        _ = try Recorder(source: FakeCamera(), plan: RecordingPlan(outputDirectory: directory, duration: 1, prompter: prompter()),
                         writers: { CountingWriter($0) }).run()
        let camera = FakeCamera()
        let keys = BoundedQueue<LiveCommand>(capacity: 8)
        camera.onFrame = { frame in
            switch frame {
            case 2, 26, 30, 50: keys.push(.toggleRecording)       // takes of frames 3-26 and 31-50
            case 8, 28: keys.push(.prompter(.restart, cause: "key r"))
            case 52: keys.push(.quit)
            default: break
            }
        }
        let takes = try Recorder(source: camera, plan: RecordingPlan(outputDirectory: directory, prompter: prompter()),
                                 commands: keys, writers: { CountingWriter($0) }).run()
        let records = try takes.map { try #require($0.prompter) }
        // Recording, r jumps to the top 6 frames in (an anchor, which an export replays), and
        // the scroll goes on from there: 0.6 s more, 18 points.
        #expect(records[0].startOffset == 30 && records[0].endOffset == 18)
        #expect(records[0].anchors.map(\.offset) == [30, 0] && records[0].anchors.map { ($0.time * 30).rounded() } == [0, 6])
        // Idle, r puts the next take at the top.
        #expect(records[1].startOffset == 0)
    }

    @Test func aPrompterKeyWithoutAPrompterSaysSo() throws {
        let camera = FakeCamera()
        let keys = BoundedQueue<LiveCommand>(capacity: 8)
        camera.onFrame = { frame in
            if frame == 1 { keys.push(.prompter(.toggleHold, cause: "key p")) }
            if frame == 2 { keys.push(.quit) }
        }
        let events = EventLog()
        _ = try Recorder(source: camera, plan: RecordingPlan(outputDirectory: directory), commands: keys,
                         writers: { CountingWriter($0) }, events: events.append).run()
        #expect(events.notices == ["key p: there is no prompter (start the capture with --prompter FILE)"])
        #expect(events.prompterViews.isEmpty)
    }

    @Test func takesJSONWithoutPrompterRecordsStillLoads() throws {
        let old = """
            {"takes": [{"file": "segment_0001_A.mov", "created": "2026-01-01T00:00:00Z", "frames": 30, "dropped": 0,
              "duration": 1, "fps": "30", "width": 64, "height": 48, "codec": "h264", "device": "synthetic",
              "preroll": 0, "timeline": []}]}
            """
        let manifest = try TakesManifest(json: Data(old.utf8))
        #expect(manifest.takes.count == 1 && manifest.takes[0].prompter == nil)

        // A record saved goes back as it was; an entry without one writes no "prompter" key.
        var entry = manifest.takes[0]
        entry.prompter = PrompterTakeRecord(script: "talk.txt", startOffset: 12.5, endOffset: 40, speed: 24, fontSize: 28,
                                            ending: .loop, anchors: [.init(time: 0, offset: 12.5, speed: 24, running: true, fontSize: 28)])
        var without = manifest.takes[0]
        without.file = "segment_0002_B.mov"   // a file belongs to one entry
        try TakesManifest(takes: [entry, without]).save(to: directory)
        let saved = try String(contentsOfFile: directory + "/" + TakesManifest.fileName, encoding: .utf8)
        #expect(saved.components(separatedBy: "\"prompter\"").count == 2)
        #expect(try TakesManifest.load(from: directory).takes == [entry, without])
    }
}
