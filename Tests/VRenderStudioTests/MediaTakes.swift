import Foundation
import Synchronization
import VRenderCapture
import VRenderCore
import VRenderRecording
import VRenderTakes
import VRenderTestSupport

/// Two 1-second takes with sound, recorded once per run through the real capture path (the
/// synthetic camera and microphone), wider than a proxy (720x480). Tests copy them into folders
/// of their own.
enum MediaTakes {
    static let size = (width: 720, height: 480)
    static let folder: String = {
        let directory = TestMedia.scratchDirectory() + "/takes"
        let options = CaptureOptions(device: "synthetic:seed=3", request: CaptureRequest(size: size),
                                     plan: RecordingPlan(outputDirectory: directory, takes: 2, duration: 1),
                                     audio: "synthetic")
        do {
            let recorded = try CaptureJob(options: options).run()
            precondition(recorded.count == 2, "recorded \(recorded.count) takes")
        } catch {
            fatalError("recording the test takes failed: \(error)")
        }
        return directory
    }()

    static let manifest: TakesManifest = try! TakesManifest.load(from: folder)
    static var files: [String] { manifest.takes.map(\.file) }

    /// A scratch folder holding copies of the takes (their videos and takes.json).
    static func copy() throws -> String {
        let directory = TestMedia.scratchDirectory() + "/takes"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for name in files + ["takes.json"] + manifest.takes.compactMap(\.thumbnail) {
            try FileManager.default.copyItem(atPath: folder + "/" + name, toPath: directory + "/" + name)
        }
        return directory
    }
}

/// Events from a background worker, and a way to wait for one that matches without sleeping.
final class EventLog<Event: Sendable>: Sendable {
    private let events = Mutex([Event]())
    private let lock = ConditionLock()

    func add(_ event: Event) {
        lock.withLock {
            events.withLock { $0.append(event) }
            lock.broadcast()
        }
    }

    var all: [Event] { events.withLock { $0 } }

    /// Waits (up to a minute: a hang fails rather than blocks) until `predicate` holds for the log.
    @discardableResult
    func wait(until predicate: ([Event]) -> Bool) -> Bool {
        let deadline = MonotonicClock.now() + 60_000_000_000
        return lock.withLock {
            while !predicate(all) {
                if !lock.wait(untilNanoseconds: deadline) { return predicate(all) }
            }
            return true
        }
    }
}
