import Foundation
import VRenderCore

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

/// A chunk that failed every attempt: the export's error, with the log to read.
enum ChunkFailure {
    static func error(chunk: Int, tries: Int, log: String) -> VRenderError {
        let tail = (try? String(contentsOfFile: log, encoding: .utf8))
            .map { $0.split(separator: "\n").suffix(3).joined(separator: " | ") } ?? ""
        let ending = tail.isEmpty ? "" : "; it ends: \(tail)"
        return VRenderError(.runtime, subject: "chunk \(chunk)",
                            reason: "failed \(tries) time(s); its log is \(log)\(ending). The rendered chunks are kept: fix the cause and run again with --resume")
    }
}
