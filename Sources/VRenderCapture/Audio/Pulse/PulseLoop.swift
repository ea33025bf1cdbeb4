internal import CPulse
import Foundation
import VRenderCore

/// A connection to the PulseAudio server on a threaded main loop: the loop's thread runs every
/// callback, and callers take the loop's lock (`locked`) to touch the context or its streams.
/// Every callback here only wakes the waiter (`pa_threaded_mainloop_signal`), so what changed is
/// always read under the lock by the thread that waits, never handed over by a callback.
final class PulseLoop {
    let mainloop: OpaquePointer
    let context: OpaquePointer
    private var running = false

    /// Connects (no autospawn) to `server` (nil: PULSE_SERVER or the user's default) and waits
    /// until it answers or refuses.
    /// - Throws: `VRenderError.input(subject, "no PulseAudio server answers (…)")`.
    init(subject: String, server: String?) throws {
        guard let mainloop = pa_threaded_mainloop_new() else {
            throw VRenderError(.runtime, subject: subject, reason: "could not create a PulseAudio main loop")
        }
        guard let context = pa_context_new(pa_threaded_mainloop_get_api(mainloop), "vrender") else {
            pa_threaded_mainloop_free(mainloop)
            throw VRenderError(.runtime, subject: subject, reason: "could not create a PulseAudio context")
        }
        self.mainloop = mainloop
        self.context = context
        pa_context_set_state_callback(context, PulseLoop.wake, UnsafeMutableRawPointer(mainloop))
        guard pa_threaded_mainloop_start(mainloop) >= 0 else {
            throw VRenderError(.runtime, subject: subject, reason: "could not start the PulseAudio main loop thread")
        }
        running = true
        let failure: String? = locked {
            // The socket client gives up by itself after a few seconds on an unanswered server.
            if pa_context_connect(context, server, PA_CONTEXT_NOAUTOSPAWN, nil) < 0 { return errorText }
            while true {
                switch pa_context_get_state(context) {
                case PA_CONTEXT_READY: return nil
                case PA_CONTEXT_FAILED, PA_CONTEXT_TERMINATED: return errorText
                default: pa_threaded_mainloop_wait(mainloop)
                }
            }
        }
        if let failure {
            throw VRenderError.input(subject, "no PulseAudio server answers (\(failure)\(PulseLoop.serverHint(server)))")
        }
    }

    deinit {
        if running { pa_threaded_mainloop_stop(mainloop) }
        pa_context_disconnect(context)
        pa_context_unref(context)
        pa_threaded_mainloop_free(mainloop)
    }

    /// Runs `body` holding the loop's lock (never call from a callback: they already hold it).
    func locked<T>(_ body: () throws -> T) rethrows -> T {
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        return try body()
    }

    /// Blocks until a callback signals; the lock must be held (it is released while waiting).
    func wait() { pa_threaded_mainloop_wait(mainloop) }

    func signal() { pa_threaded_mainloop_signal(mainloop, 0) }

    /// The context's last error in the library's words ("Connection refused").
    var errorText: String { String(cString: pa_strerror(pa_context_errno(context))) }

    var isConnected: Bool { pa_context_get_state(context) == PA_CONTEXT_READY }

    /// The callback every state, read and timing notification uses: wake whoever waits.
    static let wake: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = { _, loop in
        pa_threaded_mainloop_signal(OpaquePointer(loop), 0)
    }

    /// Where the client looked, for the error's parentheses: the server given, else the one
    /// PULSE_SERVER names; nothing for the user's default.
    static func serverHint(_ server: String?) -> String {
        if let server { return "; server \(server)" }
        guard let named = ProcessInfo.processInfo.environment["PULSE_SERVER"], !named.isEmpty else { return "" }
        return "; PULSE_SERVER=\(named)"
    }
}
