internal import CPulse
import VRenderCore

/// `pulse:SOURCE` / `pulse:default`: a PulseAudio (or PipeWire's pipewire-pulse) record stream.
///
/// Built on the asynchronous API (a threaded main loop and a `pa_stream`), not `pa_simple`:
/// `stop()` from another thread must end a blocked `read()`, which `pa_simple` cannot do, and the
/// stream's timing info (`pa_stream_get_latency`, interpolated on the monotonic clock) says
/// when each sample was captured rather than when the read returned.
package final class PulseMicrophone: AudioSource, @unchecked Sendable {
    // @unchecked Sendable: every mutable field is touched only with the main loop's lock held.
    package let name: String
    package let format: AudioFormat
    package let isLive = true
    package let clock = AudioClockDomain.monotonic
    /// PulseAudio's interpolated latency wanders: on a null sink's monitor, whose samples have
    /// no drift at all, the stamps ran 10 ms late over the stream's first 4 s, stepped by 1–4 ms
    /// every few seconds, and read as a 500 ppm drift over 10 s; on a loaded machine they wandered
    /// by 13 ms. Following that would stretch the sound by milliseconds per second.
    package let timestampWander = 0.015
    package var endReason: String? { loop.locked { ended } }
    /// `pulse:default`'s source, as the server connected the stream (nil for a named source).
    package private(set) var connectedDevice: String?

    private let loop: PulseLoop
    private let server: String?
    private let stream: OpaquePointer
    private var stopped = false
    private var ended: String?
    private var pastFirst = false
    /// Where the last period's samples end, on its clock: the stamp of a fragment whose own
    /// reading was interrupted.
    private var nextTime: Double?
    /// Frames of holes peeked since the last fragment returned.
    private var lostFrames = 0
    private var buffer: UnsafeMutableRawBufferPointer

    /// Period length the server is asked for (`fragsize`): 10 ms.
    static let fragmentSeconds = 0.010

    /// True for `pulse:…` specifications.
    package static func isPulse(_ specification: String) -> Bool { specification.hasPrefix("pulse:") }

    /// - Parameters:
    ///   - source: a PulseAudio source name (`pactl list short sources`), or `default`, which
    ///     follows the server's default source.
    ///   - request: rate (default 48000 Hz) and channels (default 2); samples are s16le.
    ///   - server: the server to ask (`unix:/path/native`); nil: PULSE_SERVER or the user's default.
    /// - Throws: `VRenderError` naming `pulse:SOURCE`: no server answers, no such source;
    ///   naming `--audio-rate`/`--audio-channels` for a rate or channel count vrender does not record.
    package init(source: String, request: AudioRequest, server: String? = nil) throws {
        name = "pulse:\(source)"
        format = try Self.format(for: request, device: "pulse:\(source)")
        loop = try PulseLoop(subject: name, server: server)
        self.server = server
        var spec = pa_sample_spec(format: PA_SAMPLE_S16LE, rate: UInt32(format.sampleRate),
                                  channels: UInt8(format.channels))
        var map = pa_channel_map()
        pa_channel_map_init_extend(&map, UInt32(format.channels), PA_CHANNEL_MAP_DEFAULT)
        let (loop, name) = (loop, name)  // a closure cannot capture self before every field is set
        guard let stream = loop.locked({ pa_stream_new(loop.context, "vrender microphone", &spec, &map) }) else {
            throw VRenderError.input(name, "PulseAudio refused a \(format) record stream (\(loop.errorText))")
        }
        self.stream = stream
        buffer = .allocate(byteCount: 8192, alignment: 16)
        try loop.locked { try connect(source: source, spec: &spec) }
        if source == "default" {
            connectedDevice = loop.locked { pa_stream_get_device_name(stream).map { String(cString: $0) } }
        }
    }

    deinit {
        loop.locked {
            if pa_stream_get_state(stream) == PA_STREAM_READY { pa_stream_disconnect(stream) }
            pa_stream_set_state_callback(stream, nil, nil)
            pa_stream_set_read_callback(stream, nil, nil)
            pa_stream_set_latency_update_callback(stream, nil, nil)
            pa_stream_unref(stream)
        }
        buffer.deallocate()
    }

    /// The format a request asks for, or the option's error when vrender does not record it.
    static func format(for request: AudioRequest, device: String) throws -> AudioFormat {
        let format = AudioFormat(sampleRate: request.sampleRate ?? 48_000, channels: request.channels ?? 2,
                                 sampleFormat: .s16)
        guard AudioFormat.sampleRates.contains(format.sampleRate) else {
            throw VRenderError.option("--audio-rate", "\(device) cannot record at \(format.sampleRate) Hz "
                                      + "(vrender records 8000–192000 Hz)")
        }
        guard AudioFormat.channelCounts.contains(format.channels) else {
            throw VRenderError.option("--audio-channels", "\(device) cannot record \(format.channels) channels "
                                      + "(vrender records 1–8)")
        }
        return format
    }

    /// Connects the record stream (corked until `start()`) and waits for the server's answer.
    /// A named source is never moved elsewhere (DONT_MOVE): if it goes away the take ends.
    private func connect(source: String, spec: inout pa_sample_spec) throws {
        let wakeLoop = UnsafeMutableRawPointer(loop.mainloop)
        pa_stream_set_state_callback(stream, PulseLoop.wake, wakeLoop)
        pa_stream_set_read_callback(stream, { _, _, loop in pa_threaded_mainloop_signal(OpaquePointer(loop), 0) },
                                    wakeLoop)
        pa_stream_set_latency_update_callback(stream, PulseLoop.wake, wakeLoop)
        let fragment = UInt32(pa_usec_to_bytes(pa_usec_t(Self.fragmentSeconds * 1e6), &spec))
        var attributes = pa_buffer_attr(maxlength: UInt32.max, tlength: UInt32.max, prebuf: UInt32.max,
                                        minreq: UInt32.max, fragsize: fragment)
        var flags = PA_STREAM_START_CORKED.rawValue | PA_STREAM_INTERPOLATE_TIMING.rawValue
            | PA_STREAM_AUTO_TIMING_UPDATE.rawValue | PA_STREAM_ADJUST_LATENCY.rawValue
        if source != "default" { flags |= PA_STREAM_DONT_MOVE.rawValue }
        let device = source == "default" ? nil : source
        guard pa_stream_connect_record(stream, device, &attributes, pa_stream_flags_t(flags)) >= 0 else {
            throw VRenderError.input(name, "PulseAudio refused the record stream (\(loop.errorText))")
        }
        while true {
            switch pa_stream_get_state(stream) {
            case PA_STREAM_READY: return
            case PA_STREAM_FAILED, PA_STREAM_TERMINATED: throw openError(source: source)
            default: loop.wait()
            }
        }
    }

    private func openError(source: String) -> VRenderError {
        let code = pa_context_errno(loop.context)
        if code == Int32(PA_ERR_NOENTITY.rawValue) {
            return VRenderError.input(name, "PulseAudio has no source named \"\(source)\" "
                                      + "(`vrender devices` lists them; `pulse:default` is the default source)")
        }
        if !loop.isConnected {
            return VRenderError.input(name, "no PulseAudio server answers (\(loop.errorText)\(PulseLoop.serverHint(server)))")
        }
        return VRenderError.input(name, "PulseAudio cannot record \(format) from it (\(loop.errorText))")
    }

    /// Uncorks the stream, then waits for fresh timing info: the stream's last was taken while
    /// it was corked, and would stamp the first period several milliseconds off.
    package func start() throws {
        try loop.locked {
            guard !stopped, ended == nil else { return }
            guard let cork = pa_stream_cork(stream, 0, nil, nil) else {
                throw VRenderError.input(name, "PulseAudio could not start the record stream (\(loop.errorText))")
            }
            pa_operation_unref(cork)
            let wake: pa_stream_success_cb_t = { _, _, loop in pa_threaded_mainloop_signal(OpaquePointer(loop), 0) }
            guard let update = pa_stream_update_timing_info(stream, wake, UnsafeMutableRawPointer(loop.mainloop)) else {
                return
            }
            while pa_operation_get_state(update) == PA_OPERATION_RUNNING, goneReason() == nil { loop.wait() }
            pa_operation_unref(update)
        }
    }

    package func read() throws -> AudioPeriod? {
        try loop.locked {
            while true {
                if stopped { return nil }
                if let reason = goneReason() {
                    ended = reason
                    return nil
                }
                if let period = try takeFragment() {
                    if pastFirst { return period }
                    // The first fragment after uncorking is stamped 5–7 ms early against every
                    // later one (measured on a null sink's monitor): 10 ms the take can spare.
                    pastFirst = true
                    continue
                }
                loop.wait()
            }
        }
    }

    package func stop() {
        loop.locked {
            guard !stopped else { return }
            stopped = true
            if pa_stream_get_state(stream) == PA_STREAM_READY { pa_stream_disconnect(stream) }
            loop.signal()
        }
    }

    /// Why the stream cannot deliver any more: the server went away, or the source did.
    private func goneReason() -> String? {
        if !loop.isConnected { return "the PulseAudio server went away (\(loop.errorText))" }
        switch pa_stream_get_state(stream) {
        case PA_STREAM_FAILED, PA_STREAM_TERMINATED:
            return "the PulseAudio source went away (\(loop.errorText))"
        default:
            return nil
        }
    }

    /// The next fragment the server sent, copied out and stamped; nil when none is queued yet, or
    /// while the stream has no timing info yet (fragments stay queued until it has).
    private func takeFragment() throws -> AudioPeriod? {
        guard pa_stream_get_timing_info(stream) != nil else { return nil }
        var data: UnsafeRawPointer?
        var bytes = 0
        repeat {
            guard pa_stream_peek(stream, &data, &bytes) >= 0 else {
                throw VRenderError(.runtime, subject: name, reason: "reading the record stream failed (\(loop.errorText))")
            }
            guard bytes > 0 else { return nil }
            // A hole is sound the server lost, of exactly its length: reported with the next fragment.
            if data == nil {
                lostFrames += bytes / format.bytesPerFrame
                pa_stream_drop(stream)
            }
        } while data == nil
        let frames = bytes / format.bytesPerFrame
        let lost = lostFrames
        lostFrames = 0
        if buffer.count < bytes {
            buffer.deallocate()
            buffer = .allocate(byteCount: bytes, alignment: 16)
        }
        buffer.copyMemory(from: UnsafeRawBufferPointer(start: data, count: bytes))
        pa_stream_drop(stream)
        // After the drop the stream's read index is the end of this fragment: its latency is how
        // long ago the sample after the fragment's last one was captured. The library reads the
        // clock inside the call; ours brackets it, and a call that spans a preemption (over
        // 0.5 ms) gives no stamp: the fragment then continues the previous one's.
        var usec: pa_usec_t = 0
        var negative: Int32 = 0
        let before = MonotonicClock.nowSeconds
        guard pa_stream_get_latency(stream, &usec, &negative) >= 0 else {
            throw VRenderError(.runtime, subject: name, reason: "PulseAudio gave no latency (\(loop.errorText))")
        }
        let after = MonotonicClock.nowSeconds
        let latency = (negative != 0 ? -1.0 : 1.0) * Double(usec) / 1e6
        var time = Self.firstSampleTime(now: (before + after) / 2, latency: latency, frames: frames,
                                        sampleRate: format.sampleRate)
        if after - before > 0.0005, let continued = nextTime { time = continued + Double(lost) / Double(format.sampleRate) }
        nextTime = time + Double(frames) / Double(format.sampleRate)
        return AudioPeriod(samples: UnsafeRawBufferPointer(start: buffer.baseAddress, count: frames * format.bytesPerFrame),
                           frames: frames, time: time, loss: lost > 0 ? .frames(lost) : nil)
    }

    /// When the first of `frames` samples just read was captured: `latency` (the stream's, read
    /// at `now` after the read) is the age of the sample that follows them, so the first one is
    /// `frames / sampleRate` older still.
    static func firstSampleTime(now: Double, latency: Double, frames: Int, sampleRate: Int) -> Double {
        now - latency - Double(frames) / Double(sampleRate)
    }
}
