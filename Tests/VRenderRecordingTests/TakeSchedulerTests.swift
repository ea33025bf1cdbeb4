import Testing
import VRenderCapture
@testable import VRenderRecording

/// The capture loop's decisions, frame by frame, with no camera or encoder: at 30 fps, frame k
/// is expected at k/30 s; each case lists the steps taken before each frame that had any.
@Suite struct TakeSchedulerTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var plan: RecordingPlan
        var interactive = false
        /// Keys pressed before frame k.
        var keys: [Int: [LiveCommand]] = [:]
        /// A stop requested (Ctrl-C) before this frame.
        var stopBefore: Int?
        /// Steps before frame k, for every k that had some.
        var expected: [Int: [TakeStep]]
        /// The frame before which the scheduler says it is done.
        var doneBefore: Int

        var testDescription: String { name }
    }

    static let fps = 30.0

    static func time(_ frame: Int) -> Double { Double(frame) / fps }

    static func script(_ text: String) -> ActionScript {
        // The texts below are valid; a parse error fails the case through its missing steps.
        (try? ActionScript(text: text, source: "s")) ?? ActionScript(actions: [], source: "invalid")
    }

    static let cases: [Case] = [
        Case(name: "back-to-back takes of a duration lose no frame between them",
             plan: RecordingPlan(outputDirectory: "", takes: 3, duration: 0.1),
             expected: [0: [.begin(take: 0, at: 0)],
                        3: [.end(take: 0), .begin(take: 1, at: time(3))],
                        6: [.end(take: 1), .begin(take: 2, at: time(6))],
                        9: [.end(take: 2)]],
             doneBefore: 9),
        Case(name: "the first take is pressed after the pre-roll",
             plan: RecordingPlan(outputDirectory: "", takes: 1, duration: 0.1, preroll: 0.2),
             expected: [6: [.begin(take: 0, at: time(6))], 9: [.end(take: 0)]],
             doneBefore: 9),
        Case(name: "a script replays from each take's start and its stop ends the take",
             plan: RecordingPlan(outputDirectory: "", takes: 2, script: script("at 0s lens 2\nat 0.1s torch on\nat 0.2s stop")),
             expected: [0: [.begin(take: 0, at: 0), .control(.lens(2), cause: "s:1")],
                        3: [.control(.torch(level: 1), cause: "s:2")],
                        6: [.end(take: 0), .begin(take: 1, at: time(6)), .control(.lens(2), cause: "s:1")],
                        9: [.control(.torch(level: 1), cause: "s:2")],
                        12: [.end(take: 1)]],
             doneBefore: 12),
        Case(name: "a duration shorter than the script's stop wins",
             plan: RecordingPlan(outputDirectory: "", takes: 1, duration: 0.1, script: script("at 0.2s flip\nat 1s stop")),
             expected: [0: [.begin(take: 0, at: 0)], 3: [.end(take: 0)]],
             doneBefore: 3),
        Case(name: "keys start and stop takes, and quit ends the one recording",
             plan: RecordingPlan(outputDirectory: ""), interactive: true,
             keys: [2: [.toggleRecording], 4: [.toggleTorch, .zoomStep(up: true)], 20: [.toggleRecording],
                    22: [.toggleRecording, .control(.lens(0.5), cause: "key 0")], 23: [.quit]],
             expected: [2: [.begin(take: 0, at: time(2))], 4: [.toggleTorch, .zoomStep(up: true)], 20: [.end(take: 0)],
                        22: [.begin(take: 1, at: time(22)), .control(.lens(0.5), cause: "key 0")], 23: [.end(take: 1)]],
             doneBefore: 23),
        Case(name: "a double press (a stop under half a second into the take) is ignored; the next stop ends it",
             plan: RecordingPlan(outputDirectory: ""), interactive: true,
             keys: [2: [.toggleRecording], 12: [.toggleRecording], 20: [.toggleRecording], 30: [.quit]],
             expected: [2: [.begin(take: 0, at: time(2))], 12: [.stopIgnored(take: 0, age: time(12) - time(2))],
                        20: [.end(take: 0)]],
             doneBefore: 30),
        Case(name: "the studio's start and stop are idempotent: a start while recording and a stop while idle do nothing",
             plan: RecordingPlan(outputDirectory: ""), interactive: true,
             keys: [1: [.stopRecording], 2: [.startRecording, .startRecording], 20: [.startRecording], 25: [.stopRecording],
                    26: [.stopRecording], 28: [.startRecording], 40: [.quit]],
             expected: [2: [.begin(take: 0, at: time(2))], 25: [.end(take: 0)], 28: [.begin(take: 1, at: time(28))],
                        40: [.end(take: 1)]],
             doneBefore: 40),
        Case(name: "the studio's stop under half a second into the take is ignored like a double press; a later one ends it",
             plan: RecordingPlan(outputDirectory: ""), interactive: true,
             keys: [2: [.startRecording, .stopRecording], 12: [.stopRecording], 17: [.stopRecording, .startRecording], 30: [.quit]],
             expected: [2: [.begin(take: 0, at: time(2)), .stopIgnored(take: 0, age: 0)],
                        12: [.stopIgnored(take: 0, age: time(12) - time(2))],
                        17: [.end(take: 0), .begin(take: 1, at: time(17))], 30: [.end(take: 1)]],
             doneBefore: 30),
        Case(name: "a take of a duration ends by itself under the studio's start; a stop after it does nothing",
             plan: RecordingPlan(outputDirectory: "", duration: 0.6), interactive: true,
             keys: [3: [.startRecording], 25: [.stopRecording], 26: [.startRecording], 60: [.quit]],
             expected: [3: [.begin(take: 0, at: time(3))], 21: [.end(take: 0)], 26: [.begin(take: 1, at: time(26))],
                        44: [.end(take: 1)]],
             doneBefore: 60),
        Case(name: "interactive with nothing pressed records nothing until quit",
             plan: RecordingPlan(outputDirectory: ""), interactive: true, keys: [4: [.quit]],
             expected: [:], doneBefore: 4),
        Case(name: "a stop request ends the take in progress and the batch",
             plan: RecordingPlan(outputDirectory: "", takes: 3, duration: 10), stopBefore: 4,
             expected: [0: [.begin(take: 0, at: 0)], 4: [.end(take: 0)]],
             doneBefore: 4),
    ]

    @Test(arguments: cases)
    func stepsFrameByFrame(_ test: Case) {
        var scheduler = TakeScheduler(plan: test.plan, interval: 1 / Self.fps, interactive: test.interactive)
        var steps: [Int: [TakeStep]] = [:]
        var frame = 0
        while frame < 1000 {
            let due = scheduler.steps(beforeFrameAt: Self.time(frame), commands: test.keys[frame] ?? [],
                                      stopRequested: frame == test.stopBefore)
            if !due.isEmpty { steps[frame] = due }
            if scheduler.isDone { break }
            frame += 1
        }
        #expect(steps == test.expected)
        #expect(frame == test.doneBefore)
    }

    @Test func finishEndsOnlyATakeInProgress() {
        var recording = TakeScheduler(plan: RecordingPlan(outputDirectory: "", takes: 1, duration: 1), interval: 1 / 30,
                                      interactive: false)
        #expect(recording.steps(beforeFrameAt: 0) == [.begin(take: 0, at: 0)])
        #expect(recording.recordingTake == 0)
        #expect(recording.finish() == [.end(take: 0)])
        #expect(recording.isDone && recording.recordingTake == nil)

        var idle = TakeScheduler(plan: RecordingPlan(outputDirectory: ""), interval: 1 / 30, interactive: true)
        #expect(idle.steps(beforeFrameAt: 0).isEmpty)
        #expect(idle.finish().isEmpty)
    }

    @Test func aPlanWithoutDurationOrStopIsOpenEnded() {
        #expect(RecordingPlan(outputDirectory: "").isOpenEnded)
        #expect(!RecordingPlan(outputDirectory: "", duration: 1).isOpenEnded)
        #expect(!RecordingPlan(outputDirectory: "", script: Self.script("at 1s stop")).isOpenEnded)
        #expect(RecordingPlan(outputDirectory: "", script: Self.script("at 1s flip")).isOpenEnded)
    }

    @Test func theStatusLineTicksEveryHalfSecond() {
        var ticker = StatusTicker(interval: 1 / 30)
        let rates = (0...31).map { ticker.tick(at: Double($0) / 30) }
        #expect(rates.enumerated().filter { $0.element != nil }.map(\.offset) == [15, 30])
        #expect(rates[15] == 32)   // frames 0...15 over 0.5 s
        #expect(rates[30] == 30)
    }
}
