import Foundation
import Synchronization

/// A flag any thread can raise to stop a pipeline (Ctrl-C, or a stage that failed).
public final class StopSignal: Sendable {
    private struct State {
        var raised = false
        var reasons: [any Error] = []
    }

    private let state = Mutex(State())

    public init() {}

    public var isRaised: Bool { state.withLock { $0.raised } }

    /// Raises the signal, remembering the first error (if any) as the reason.
    public func raise(_ error: (any Error)? = nil) {
        state.withLock { state in
            state.raised = true
            if let error { state.reasons.append(error) }
        }
    }

    /// The first error a stage reported, if any.
    public var firstError: (any Error)? { state.withLock { $0.reasons.first } }
}

/// Runs pipeline stages, one dedicated thread each, and waits for all of them.
///
/// A stage that throws raises `stop` and runs its `onFailure` so the queues around it are
/// cancelled and its neighbours return instead of waiting forever.
package final class StageGroup: Sendable {
    private let group = DispatchGroup()
    package let stop: StopSignal
    private let cancelHandlers = Mutex<[@Sendable () -> Void]>([])

    package init(stop: StopSignal = StopSignal()) {
        self.stop = stop
    }

    /// Registers what to do when any stage fails or the group is cancelled: typically
    /// `queue.cancel()` for every queue of the pipeline.
    package func onCancel(_ handler: @escaping @Sendable () -> Void) {
        cancelHandlers.withLock { $0.append(handler) }
    }

    /// Stops every stage: raises the signal and runs the cancel handlers.
    package func cancel(_ error: (any Error)? = nil) {
        stop.raise(error)
        let handlers = cancelHandlers.withLock { $0 }
        for handler in handlers { handler() }
    }

    /// Starts `body` on a thread of its own named `name` (visible in `top -H` and debuggers).
    package func start(_ name: String, _ body: @escaping @Sendable () throws -> Void) {
        group.enter()
        let thread = Thread { [self] in
            defer { group.leave() }
            do {
                try body()
            } catch {
                cancel(error)
            }
        }
        thread.name = name
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// Waits for every stage, then rethrows the first error any of them raised.
    package func wait() throws {
        group.wait()
        if let error = stop.firstError { throw error }
        if stop.isRaised { throw VRenderError.cancelled }
    }
}
