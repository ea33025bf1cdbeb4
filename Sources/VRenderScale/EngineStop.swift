import Foundation
import Synchronization

/// How an engine's loop learns that the export must stop (Ctrl-C, or a failure elsewhere) while
/// it waits: for a child to exit, or for the next look at Slurm's queue.
final class EngineStop: Sendable {
    private let stopped = Atomic<Bool>(false)
    /// Wakes a waiting loop; extra signals only cost a look around.
    private let wakeUp = DispatchSemaphore(value: 0)

    var isStopped: Bool { stopped.load(ordering: .acquiring) }

    func stop() {
        stopped.store(true, ordering: .releasing)
        wakeUp.signal()
    }

    func wake() { wakeUp.signal() }

    /// Waits for `wake` or `stop`.
    func sleep() { wakeUp.wait() }

    /// Waits up to `seconds` (or for `wake` or `stop`).
    func sleep(seconds: Double) {
        _ = wakeUp.wait(timeout: .now() + seconds)
    }
}
