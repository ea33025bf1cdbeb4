import Foundation
import VRenderCore
import VRenderTakes

/// Reads every finished take back (`TakeVerifier`) on a thread of its own, at a low CPU
/// priority: decoding a long take takes seconds, which the writer thread cannot spare while
/// the next take is recording, and the encoder must keep its cores.
final class TakeChecker: Sendable {
    private struct Job: Sendable {
        var file: String
        var expectedFrames: Int
    }

    private let jobs = BoundedQueue<Job>(capacity: 1024)
    private let store: ManifestStore
    private let worker = StageGroup()

    /// Starts the thread. Each result goes to `store`, which saves it in takes.json and reports
    /// `.takeChecked` (or a notice when it cannot be saved).
    init(store: ManifestStore) {
        self.store = store
        // Niceness 10 lets the encoder and capture threads go first.
        worker.start("vrender-take-check", niceness: 10) { [self] in
            while let job = jobs.pop() { check(job) }
        }
    }

    /// Queues the take `file` (in the store's folder), which was given `expectedFrames` frames.
    func check(file: String, expectedFrames: Int) {
        _ = jobs.push(Job(file: file, expectedFrames: expectedFrames))
    }

    /// Waits until every queued take has been checked.
    func finish() {
        jobs.finish()
        worker.join()
    }

    private func check(_ job: Job) {
        let path = TakesFolder.join(store.directory, job.file)
        store.record(TakeVerifier.verify(path: path, expectedFrames: job.expectedFrames), for: job.file)
    }
}
