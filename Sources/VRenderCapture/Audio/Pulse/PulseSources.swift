internal import CPulse
import VRenderCore

/// One PulseAudio source as `vrender devices` shows it.
public struct PulseSourceInfo: Sendable, Equatable, Encodable {
    /// What follows `pulse:` in `--audio` ("alsa_input.usb-…", "vrender_test.monitor").
    public var name: String
    public var description: String
    /// The source's own format in PulseAudio's words ("s16le 2ch 48000Hz"); vrender asks for
    /// s16le at the requested rate and channels and the server converts.
    public var sampleSpec: String
    /// A monitor records what a sink plays (not a microphone).
    public var isMonitor: Bool

    public var summary: String {
        "pulse:\(name)  \(description) (\(sampleSpec)\(isMonitor ? ", monitor of a sink" : ""))"
    }
}

/// The sources a PulseAudio server offers, or why none could be listed.
public struct PulseListing: Sendable, Encodable {
    public var sources: [PulseSourceInfo]
    /// Why the list is empty ("no PulseAudio server answers (…)"); nil when the server answered.
    public var unavailable: String?
}

/// Lists PulseAudio sources with `pa_context_get_source_info_list` on a plain `pa_mainloop`
/// run here, bounded by a deadline so a hung server cannot hang `vrender devices`.
package enum PulseSources {
    package static func list(server: String? = nil, timeout: Double = 2) -> PulseListing {
        guard let mainloop = pa_mainloop_new() else {
            return PulseListing(sources: [], unavailable: "could not create a PulseAudio main loop")
        }
        defer { pa_mainloop_free(mainloop) }
        guard let context = pa_context_new(pa_mainloop_get_api(mainloop), "vrender devices") else {
            return PulseListing(sources: [], unavailable: "could not create a PulseAudio context")
        }
        defer { pa_context_unref(context) }
        let query = SourceQuery()
        let token = Unmanaged.passUnretained(query).toOpaque()
        pa_context_set_state_callback(context, { context, token in
            guard let context, let token else { return }
            Unmanaged<SourceQuery>.fromOpaque(token).takeUnretainedValue().stateChanged(context)
        }, token)
        guard pa_context_connect(context, server, PA_CONTEXT_NOAUTOSPAWN, nil) >= 0 else {
            return PulseListing(sources: [], unavailable: noServer(context, server))
        }
        defer { pa_context_disconnect(context) }
        let deadline = MonotonicClock.nowSeconds + timeout
        while !query.finished {
            let left = deadline - MonotonicClock.nowSeconds
            guard left > 0 else {
                return PulseListing(sources: [], unavailable: "the PulseAudio server did not answer within \(timeout) s")
            }
            guard pa_mainloop_prepare(mainloop, Int32(left * 1e6)) >= 0, pa_mainloop_poll(mainloop) >= 0,
                  pa_mainloop_dispatch(mainloop) >= 0 else { break }
        }
        if query.failed {
            return PulseListing(sources: [], unavailable: noServer(context, server))
        }
        return PulseListing(sources: query.sources, unavailable: nil)
    }

    private static func noServer(_ context: OpaquePointer, _ server: String?) -> String {
        "no PulseAudio server answers (\(String(cString: pa_strerror(pa_context_errno(context))))"
            + "\(PulseLoop.serverHint(server)))"
    }
}

/// The listing's state, reached from the C callbacks through an unretained pointer (it
/// outlives them: `list` disconnects the context before it returns). Single-threaded: a plain
/// `pa_mainloop` runs every callback on the thread that called `list`.
private final class SourceQuery {
    var sources: [PulseSourceInfo] = []
    var finished = false
    var failed = false

    func stateChanged(_ context: OpaquePointer) {
        switch pa_context_get_state(context) {
        case PA_CONTEXT_READY:
            let token = Unmanaged.passUnretained(self).toOpaque()
            let operation = pa_context_get_source_info_list(context, { _, info, last, token in
                guard let token else { return }
                Unmanaged<SourceQuery>.fromOpaque(token).takeUnretainedValue().received(info, last: last)
            }, token)
            if let operation { pa_operation_unref(operation) } else { fail() }
        case PA_CONTEXT_FAILED, PA_CONTEXT_TERMINATED:
            fail()
        default:
            break
        }
    }

    func received(_ info: UnsafePointer<pa_source_info>?, last: Int32) {
        if last != 0 {
            finished = true
            failed = failed || last < 0
            return
        }
        guard let source = info?.pointee else { return }
        var spec = source.sample_spec
        var text = [CChar](repeating: 0, count: Int(PA_SAMPLE_SPEC_SNPRINT_MAX))
        let specText = text.withUnsafeMutableBufferPointer { String(cString: pa_sample_spec_snprint($0.baseAddress, $0.count, &spec)) }
        sources.append(PulseSourceInfo(
            name: String(cString: source.name),
            description: source.description.map { String(cString: $0) } ?? "",
            sampleSpec: specText,
            isMonitor: source.monitor_of_sink != UInt32.max))  // PA_INVALID_INDEX: a real source
    }

    private func fail() {
        finished = true
        failed = true
    }
}
