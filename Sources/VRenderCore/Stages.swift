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

/// Runs pipeline stages, one dedicated thread each, and waits for all of them: every thread
/// vrender starts is started here (docs/contributing.md), so its name, stack, priority and
/// joining are set in one place.
///
/// A stage that throws raises `stop` and runs its `onFailure` so the queues around it are
/// cancelled and its neighbours return instead of waiting forever. A lone worker (the audio
/// thread, the preview's encoder) is a group of one stage: `join` waits for it.
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
    /// `niceness` (1 ... 19) lowers the thread's priority, and that of the threads it starts,
    /// for work that must yield to recording (`ThreadNiceness`).
    package func start(_ name: String, niceness: Int32? = nil, _ body: @escaping @Sendable () throws -> Void) {
        group.enter()
        Self.thread(name) { [self] in
            defer { group.leave() }
            if let niceness { ThreadNiceness.lowerCurrentThread(to: niceness) }
            do {
                try body()
            } catch {
                cancel(error)
            }
        }
    }

    /// Waits for every stage, then rethrows the first error any of them raised.
    package func wait() throws {
        group.wait()
        if let error = stop.firstError { throw error }
        if stop.isRaised { throw VRenderError.cancelled }
    }

    /// Waits for every stage, whatever became of them: for workers that report their own
    /// failures. Before any stage started it returns at once.
    package func join() {
        group.wait()
    }

    /// Waits at most `seconds` for every stage; true when they have all ended.
    package func join(timeout seconds: Double) -> Bool {
        group.wait(timeout: .now() + seconds) == .success
    }

    /// Starts a thread nobody joins: one blocked in a read of a descriptor only the process's
    /// end closes (the terminal's keys, the engine's lifeline), which no caller could wait for.
    package static func detach(_ name: String, _ body: @escaping @Sendable () -> Void) {
        thread(name, body)
    }

    private static func thread(_ name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread(block: body)
        thread.name = name
        thread.stackSize = 8 << 20
        thread.start()
    }
}
