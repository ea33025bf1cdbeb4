import Foundation
import Synchronization
import VRenderCapture
import VRenderCore
import VRenderRecording
import VRenderTakes
import VRenderTestSupport
import XCTest
@testable import VRenderStudio

/// Issue 42, "the studio", state: record and stop are separate, idempotent commands that are
/// never dropped, and the pages show what the recorder did (its events), not what was asked:
/// a stop it ignores (a double press) leaves the take recording, a take it ends by itself
/// shows idle. Judged against the recorder's own events, takes.json and the folder.
final class StudioRecordStateTests: XCTestCase {
    /// The recorder as its events tell it, in the capture thread's order.
    private struct Recorder {
        var take: Int?
        var started = 0
        var ended = 0
        var listed = 0
    }

    private final class Watch: Sendable {
        let recorder = Mutex(Recorder())
        let lines = Mutex([String]())
        /// The newest snapshot each page (subscription) got, and the newest camera frame previewed.
        let pages = Mutex([StudioState?](repeating: nil, count: 2))
        let frame = Mutex(-1)
        /// The longest the pages took to agree with the recorder after a press (printed: how
        /// near a run came to `agreeing`).
        let slowestAgreement = Mutex(Duration.zero)

        func observe(_ event: RecorderEvent) {
            recorder.withLock { recorder in
                switch event {
                case .takeStarted(let take):
                    recorder.take = take
                    recorder.started += 1
                case .takeEnded:
                    recorder.take = nil
                    recorder.ended += 1
                case .takeFinished: recorder.listed += 1
                default: break
                }
            }
        }
    }

    private func studio(folder: String, watch: Watch, takeLength: Double?) throws -> StudioSession {
        let request = CaptureRequest(frameRate: Rational(60, 1), size: (64, 36))
        var options = try StudioOptions(device: "synthetic:seed=5", request: request, folder: folder, codec: .h264,
                                        audio: "none", previewMaxWidth: 64)
        options.recordingPlan.duration = takeLength
        return try StudioSession(options: options, terminal: { line, _ in watch.lines.withLock { $0.append(line) } },
                                 observe: { watch.observe($0) })
    }

    /// Two pages: each keeps the newest snapshot it was sent; one also reads the preview's frame numbers.
    private func openPages(_ session: StudioSession, _ watch: Watch) -> [StudioSubscription] {
        (0..<2).map { page in
            let subscription = session.subscribe()
            Task { for await state in subscription.states { watch.pages.withLock { $0[page] = state } } }
            if page == 0 {
                Task {
                    for await preview in subscription.previews {
                        let number = preview.bytes[12..<16].reversed().reduce(0) { $0 << 8 | Int($1) }
                        watch.frame.withLock { $0 = number }
                    }
                }
            }
            return subscription
        }
    }

    /// Waits until `condition` holds (checked every few milliseconds; `seconds` bounds a failure).
    private func until(_ what: @autoclosure () -> String, seconds: Double = 15, file: StaticString = #filePath,
                       line: UInt = #line, _ condition: () throws -> Bool) async throws {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while try !condition() {
            guard ContinuousClock.now < deadline else {
                XCTFail("not within \(seconds) s: \(what())", file: file, line: line)
                throw CancellationError()
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// The takes folder's take files, and takes.json's.
    private func files(in folder: String) throws -> (present: Set<String>, listed: [String]) {
        let present = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".mov") }
        let listed = FileManager.default.fileExists(atPath: folder + "/takes.json")
            ? try TakesFolder.manifest(in: folder).takes.map(\.file) : []
        return (Set(present), listed)
    }

    /// Settled: within `agreeing` seconds, no start or stop on its way and both pages at the
    /// session's newest snapshot, showing what the recorder's events say. (Shorter than a take:
    /// a page wrongly showing idle would otherwise be put right by the take ending by itself.)
    /// Then, when the recorder is idle, every take it ended listed, takes.json listing exactly
    /// the take files in the folder, and both pages showing takes.json's takes.
    private func settle(_ session: StudioSession, _ watch: Watch, folder: String, step: Int,
                        file: StaticString = #filePath, line: UInt = #line) async throws {
        let shown = { "step \(step): pages \(watch.pages.withLock { $0.map { $0?.recordingState } }), recorder "
                      + "\(watch.recorder.withLock { $0 }), session \(session.state().recordingState)" }
        let pressed = ContinuousClock.now
        try await until(shown(), seconds: Self.agreeing, file: file, line: line) {
            let recorder = watch.recorder.withLock { $0 }
            let current = session.state()
            return [.idle, .recording].contains(current.recordingState) && current.recording == (recorder.take != nil)
                && watch.pages.withLock { $0 }.allSatisfy { $0?.version == current.version }
        }
        let agreed = ContinuousClock.now - pressed
        watch.slowestAgreement.withLock { $0 = Swift.max($0, agreed) }
        try await until(shown() + ", takes \((try? files(in: folder)).map { "\($0)" } ?? "?")", file: file, line: line) {
            let recorder = watch.recorder.withLock { $0 }
            guard recorder.take == nil else { return true }
            let (present, listed) = try files(in: folder)
            let pages = watch.pages.withLock { $0 }
            return recorder.listed == recorder.ended && Set(listed) == present && listed.count == present.count
                && pages.allSatisfy { $0?.takes.map(\.file) == listed }
        }
    }

    /// How long a take lasts unless stopped, and how soon the pages must agree with the recorder.
    private static let takeLength = 1.6
    private static let agreeing = 1.0

    /// Waits for `frames` more frames of the camera (its clock, which the shortest stop counts in).
    private func waitFrames(_ frames: Int, _ watch: Watch) async throws {
        let from = watch.frame.withLock { $0 }
        try await until("\(frames) frames after \(from)") { watch.frame.withLock { $0 } >= from + frames }
    }

    /// Two pages press record and stop 200 times in a seeded random order, now and then after
    /// a pause long enough for a stop to be honoured or for the take to end by itself (1.6 s
    /// takes): after each press settles and at the end, the pages agree with each other and with
    /// the recorder, takes.json lists exactly the take files in the folder, and there are as
    /// many takes as the recorder started.
    func testTwoPagesPressingRecordAndStopAgreeWithTheRecorderAndTheFolder() async throws {
        let folder = TestMedia.scratchDirectory() + "/takes"
        let watch = Watch()
        let session = try studio(folder: folder, watch: watch, takeLength: Self.takeLength)
        let pages = openPages(session, watch)
        session.start()
        defer {
            for page in pages { page.cancel() }
            session.stop()
        }
        try await until("the camera opens") { session.state().camera != nil && watch.frame.withLock { $0 } >= 0 }
        var random = SeededRandom(seed: 42)
        var pressed = (start: 0, stop: 0)
        for step in 0..<200 {
            // One page presses, or (one step in four) both at the same moment.
            let presses = (0..<(random.next() % 4 == 0 ? 2 : 1)).map { _ in random.next() % 2 == 0 }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for start in presses { group.addTask { try await session.perform(.record(start)) } }
                try await group.waitForAll()
            }
            for start in presses { if start { pressed.start += 1 } else { pressed.stop += 1 } }
            switch random.next() % 16 {
            case 0: try await waitFrames(33, watch)   // past the shortest stop: the next stop is honoured
            case 1: try await until("the take ends by itself") { watch.recorder.withLock { $0.take == nil } }
            default: break
            }
            try await settle(session, watch, folder: folder, step: step)
        }
        try await session.perform(.record(false))
        try await until("the last take ends") { watch.recorder.withLock { $0.take == nil } }
        try await settle(session, watch, folder: folder, step: 200)

        let recorder = watch.recorder.withLock { $0 }
        let (present, listed) = try files(in: folder)
        XCTAssertEqual(listed.count, recorder.started, "a take for every take started")
        XCTAssertEqual(Set(listed), present)
        XCTAssertEqual(session.state().takes.count, recorder.started)
        XCTAssertEqual(watch.pages.withLock { $0.map { $0?.takes.count } }, [recorder.started, recorder.started])
        // Every kind of end happened: honoured stops, ignored ones (double presses), takes ending by themselves.
        let durations = try TakesFolder.manifest(in: folder).takes.map(\.duration)
        let ignored = watch.lines.withLock { $0.filter { $0.contains("stop ignored") }.count }
        XCTAssertGreaterThan(ignored, 0)
        XCTAssertTrue(durations.contains { $0 < Self.takeLength - 0.01 }, "\(durations)")
        XCTAssertTrue(durations.contains { $0 >= Self.takeLength - 0.01 }, "\(durations)")
        let slowest = watch.slowestAgreement.withLock { $0 }
        print("record/stop: \(pressed.start) starts, \(pressed.stop) stops pressed; \(recorder.started) takes, \(ignored) stops ignored; "
              + "pages agreed within \(slowest) (limit \(Self.agreeing) s)")
    }

    /// The terminal numbers a take as its file is numbered (on from the folder's 3 takes, not
    /// from 1) and prints its seconds as the CLI does ("0.60 s", not a raw double).
    func testTheTerminalNumbersTakesAsTheFolderDoesAndRoundsSeconds() async throws {
        let folder = TestMedia.scratchDirectory() + "/takes"
        let earlier = CaptureOptions(device: "synthetic:seed=3", request: CaptureRequest(frameRate: Rational(30, 1), size: (64, 36)),
                                     plan: RecordingPlan(outputDirectory: folder, takes: 3, duration: 0.2, codec: .h264))
        XCTAssertEqual(try CaptureJob(options: earlier).run().count, 3)
        let watch = Watch()
        let session = try studio(folder: folder, watch: watch, takeLength: 0.6)
        session.start()
        defer { session.stop() }
        try await until("the camera opens") { session.state().camera != nil }
        try await session.perform(.record(true))
        // Listed, and its line printed (the take's check, on its own thread, may show the
        // listed take a moment before the listing's own event prints the line).
        try await until("the take is listed and its line printed, \(watch.lines.withLock { $0 })") {
            session.state().takes.count == 4 && watch.lines.withLock { $0.contains { $0.hasPrefix("take 4 saved: ") } }
        }
        let file = try XCTUnwrap(session.state().takes.last?.file)
        XCTAssertTrue(file.hasPrefix("segment_0004_"), file)
        let lines = watch.lines.withLock { $0 }
        XCTAssertTrue(lines.contains("take 4 recording"), "\(lines)")
        let saved = try XCTUnwrap(lines.first { $0.hasPrefix("take 4 saved: \(file) (") }, "\(lines)")
        XCTAssertNotNil(saved.range(of: #"\(\d+\.\d\d s, \d+ frames, \d+ dropped\)$"#, options: .regularExpression), saved)
    }
}

/// SplitMix64: the same presses on every run.
private struct SeededRandom {
    var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
