import Synchronization
import VRenderCore

/// How `Exporter.cancel()` reaches an export running on another thread (Ctrl-C): a flag that
/// the stream copy polls and that `run` checks before the output is committed, and the stop
/// action of the pipeline running now (it cancels the pipeline's queues, so that stages blocked
/// on them return). The only state the cancelling thread shares with an export.
final class ExportCancellation: Sendable {
    private struct State {
        var cancelled = false
        /// Stops what runs now; nil between runs.
        var stopRunning: (@Sendable () -> Void)?
    }
    private let state = Mutex(State())

    var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Raises the flag and stops what runs now; whatever runs later stops at once.
    func cancel() {
        let stop = state.withLock { state in
            state.cancelled = true
            return state.stopRunning
        }
        stop?()
    }

    /// Runs `body` with `stop` as what `cancel()` calls meanwhile; `stop` runs at once when the
    /// export was cancelled already.
    func run<Result>(stoppingWith stop: @escaping @Sendable () -> Void, _ body: () throws -> Result) throws -> Result {
        let cancelled = state.withLock { state in
            state.stopRunning = stop
            return state.cancelled
        }
        defer { state.withLock { $0.stopRunning = nil } }
        if cancelled { stop() }
        return try body()
    }
}
