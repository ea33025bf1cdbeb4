import Foundation
import Synchronization
import Testing
import VRenderCapture
import VRenderCore
import VRenderMedia
import VRenderTestSupport
@testable import VRenderRecording
@testable import VRenderTakes

/// Signals when a notice containing the pattern awaited arrives.
private final class NoticeWatch: Sendable {
    let matched = DispatchSemaphore(value: 0)
    // Inferred, not spelled out: see VRenderCore/TSanMutex.swift.
    private let pattern = Mutex(String?.none)

    func watch(for text: String) { pattern.withLock { $0 = text } }

    func see(_ event: RecorderEvent) {
        guard case .notice(let text) = event, let awaited = pattern.withLock({ $0 }), text.contains(awaited) else { return }
        matched.signal()
    }
}

/// A capture on a thread of its own, its events logged; `waitFor` returns once a notice
/// matches (or the capture ended), so a test acts at a point of the capture, not at a time.
private final class BackgroundCapture: Sendable {
    let events = EventLog()
    private let recorder: Recorder
    private let watch = NoticeWatch()
    private let done = DispatchSemaphore(value: 0)
    private let result = Mutex(Result<[TakeEntry], any Error>?.none)

    init(plan: RecordingPlan, giveUp: StopSignal = StopSignal()) {
        let log = events, watch = self.watch
        recorder = Recorder(source: FakeCamera(), plan: plan, giveUp: giveUp, writers: SegmentWriter.factory, events: { event in
            log.append(event)
            watch.see(event)
        })
        Thread { [self] in
            let outcome = Result { try recorder.run() }
            result.withLock { $0 = outcome }
            done.signal()
            watch.matched.signal()
        }.start()
    }

    /// Waits for a notice containing `pattern`; false when the capture ended without one.
    func waitFor(notice pattern: String) -> Bool {
        watch.watch(for: pattern)
        if events.notices.contains(where: { $0.contains(pattern) }) { return true }
        watch.matched.wait()
        return events.notices.contains { $0.contains(pattern) }
    }

    func requestStop() { recorder.requestStop() }

    func outcome() -> Result<[TakeEntry], any Error> {
        done.wait()
        done.signal()
        return result.withLock { $0! }
    }
}

/// Another process holding the takes folder's lock (`flock -s takes/.vrender.lock sleep 60`)
/// while takes record: they are kept, the camera records on, each is listed once the lock
/// frees, and the user is told. Another holder is played by a lock of this process (each lock
/// is its own open file description, excluded as another process's is).
@Suite struct LockedFolderCaptureTests {
    let scratch = ScratchFolder()
    var directory: String { scratch.path }

    /// The folder's lock held shared, as `flock -s` holds it, once vrender's file exists.
    private func holdLock() throws -> FolderLock {
        try FolderLock.with(directory, .exclusive, for: "vrender capture", wait: .zero) {}
        return try FolderLock.acquire(directory, .shared, for: "flock -s", wait: .zero)
    }

    private func movies() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".mov") }.sorted()
    }

    @Test func takesRecordedWhileTheLockIsHeldAreKeptAndListedWhenItFrees() throws {
        let held = Mutex<FolderLock?>(try holdLock())
        let capture = BackgroundCapture(plan: RecordingPlan(outputDirectory: directory, takes: 2, duration: 0.1, codec: .h264))
        // Both takes recorded, the capture waiting at its end for the lock: nothing lost so far.
        try #require(capture.waitFor(notice: "waiting for the lock of"), "\(capture.events.notices)")
        #expect(try movies().count == 2)
        #expect(try TakesManifest.load(from: directory).takes.isEmpty)
        let told = capture.events.notices
        #expect(told.contains { $0.contains("is complete and kept, but \(directory) is in use by another process reading it") })
        #expect(told.contains { $0.contains("stopping again (Ctrl-C) leaves them for 'vrender takes recover \(directory)'") })

        held.withLock { $0 = nil }
        let recorded = try capture.outcome().get()
        let listed = try TakesManifest.load(from: directory).takes
        #expect(listed.map(\.file) == recorded.map(\.file))
        #expect(listed.map(\.file).sorted() == (try movies()))
        #expect(listed.allSatisfy { $0.check?.isGood == true }, "the checks waited too")
        #expect(capture.events.notices.contains { $0.contains("listed in takes.json after waiting") })
    }

    /// A stop requested again while the end waits gives up the wait: the take stays on disk,
    /// complete, the error names it and the command that lists it, and that command does.
    @Test func aSecondStopLeavesTheTakeForTakesRecoverAndNamesIt() throws {
        let held = Mutex<FolderLock?>(try holdLock())
        let capture = BackgroundCapture(plan: RecordingPlan(outputDirectory: directory, takes: 1, duration: 0.1, codec: .h264))
        try #require(capture.waitFor(notice: "waiting for the lock of"))
        capture.requestStop()
        let failure = try #require(capture.outcome().failure as? VRenderError)
        let take = try #require(try movies().first)
        #expect(failure.subject == directory + "/takes.json")
        #expect(failure.reason.contains("does not list \(take), complete and kept on disk"), "\(failure)")
        #expect(failure.reason.hasSuffix("'vrender takes recover \(directory)' lists it"), "\(failure)")

        held.withLock { $0 = nil }
        _ = try TakesRecovery.recover(directory)
        #expect(try TakesManifest.load(from: directory).takes.map(\.file) == [take])
    }

    /// The studio's bounded wait (`listingWait`): past it, the same error, without a second stop.
    @Test func aBoundedWaitEndsOnItsOwn() throws {
        let held = try holdLock()
        let plan = RecordingPlan(outputDirectory: directory, takes: 1, duration: 0.1, codec: .h264, listingWait: .zero)
        let failure = try #require(BackgroundCapture(plan: plan).outcome().failure as? VRenderError)
        #expect(failure.reason.contains("in use by another process reading it until the capture ended"), "\(failure)")
        #expect(try movies().count == 1)
        withExtendedLifetime(held) {}
    }

    /// A take `takes recover` listed while the capture waited is listed once: the capture's entry
    /// (which knows the timeline and latency) replaces the one read from the file, its trim kept.
    @Test func aTakeRecoveredMeanwhileIsListedOnce() throws {
        let entry = TakeEntry(file: "segment_0001_A.mov", thumbnail: nil, created: "2024-01-01T00:00:00Z", frames: 3, dropped: 0,
                              duration: 0.1, fps: "30", width: 64, height: 48, codec: "h264", device: "fake camera",
                              preroll: 0, timeline: [], latency: nil)
        var recovered = entry
        recovered.device = "recovered"
        recovered.trim = TakeTrim(start: 0.02, end: nil)
        try TakesManifest(takes: [recovered]).save(in: FolderHandle.open(directory))
        let store = try ManifestStore(directory: directory)
        store.append(entry)
        #expect(store.finish(waitingAtMost: nil, unless: StopSignal()) == nil)
        let listed = try TakesManifest.load(from: directory).takes
        #expect(listed.map(\.device) == ["fake camera"])
        #expect(listed.first?.trim == recovered.trim)
    }
}

private extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
