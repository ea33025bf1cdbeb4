#if canImport(Glibc)
import Glibc
#endif
internal import CALSA
import Synchronization
import VRenderCore

/// An ALSA capture device (`alsa:default`, `alsa:hw:1,0`, `alsa:plughw:1,0`,
/// `alsa:hw:Loopback,1`) read a period (~10 ms) at a time. Each period is stamped from ALSA's
/// own monotonic htimestamp, never from when the read returned.
///
/// Errors at open name the device: unknown, busy, or nothing it offers vrender can record.
/// An overrun restarts the device and reading goes on: the next period reports it
/// (`AudioLoss.restart`), and its htimestamp says how long the gap was; a device that goes away
/// (unplugged, suspended) ends the source with `endReason`.
// @unchecked Sendable: all state is the audio thread's except `stopping`, an atomic (stop()).
package final class ALSAMicrophone: AudioSource, @unchecked Sendable {
    package let name: String
    package let format: AudioFormat
    package var isLive: Bool { true }
    package var clock: AudioClockDomain { .monotonic }
    package private(set) var endReason: String?
    /// Overruns so far: each is a gap the next period's time shows.
    package private(set) var overruns = 0
    /// An overrun restarted the device since the last period was returned.
    private var restarted = false

    private let pcm: ALSAPCM
    private let periodFrames: Int
    private let samples: UnsafeMutableRawBufferPointer
    private let stopping = Atomic<Bool>(false)
    /// How long one wait lasts before `stopping` is looked at again (ms).
    private static let waitSlice: Int32 = 50

    /// `alsa:DEVICE` names an ALSA microphone; this is the prefix.
    package static let prefix = "alsa:"

    /// Opens `device` (the part after `alsa:`) and configures it from `request` (the nearest
    /// rate and channel count it has to the request's, else to 48 kHz stereo).
    package init(device: String, request: AudioRequest = AudioRequest()) throws {
        let subject = Self.prefix + device
        guard !device.isEmpty else {
            throw VRenderError.input(subject, "names no device (write alsa:default or alsa:hw:CARD,DEVICE; `vrender devices` lists them)")
        }
        pcm = try ALSAPCM(device: device, subject: subject)
        let wanted = try ALSAFormatChoice.choose(from: pcm.capabilities(), request: request, subject: subject)
        (format, periodFrames) = try pcm.configure(wanted)
        // Blocking from here on: the busy check was the only reason to open non-blocking, and
        // `read()` waits only until a whole period is there.
        try pcm.check(snd_pcm_nonblock(pcm.handle, 0), "blocking reads")
        name = subject
        samples = .allocate(byteCount: periodFrames * format.bytesPerFrame, alignment: 16)
    }

    deinit { samples.deallocate() }

    package func start() throws {
        try pcm.check(snd_pcm_start(pcm.handle), "starting")
    }

    /// Ends a `read()` blocked on another thread within one wait slice (50 ms).
    package func stop() {
        stopping.store(true, ordering: .releasing)
    }

    package func read() throws -> AudioPeriod? {
        while !stopping.load(ordering: .acquiring) {
            let ready = snd_pcm_wait(pcm.handle, Self.waitSlice)
            if ready < 0 {
                guard try recover(Int(ready)) else { return nil }
                continue
            }
            if ready == 0 { continue }
            let count = snd_pcm_readi(pcm.handle, samples.baseAddress, snd_pcm_uframes_t(periodFrames))
            if count < 0 {
                guard try recover(Int(count)) else { return nil }
                continue
            }
            guard count > 0 else { continue }
            let frames = Int(count)
            defer { restarted = false }
            return AudioPeriod(samples: UnsafeRawBufferPointer(rebasing: samples[0..<frames * format.bytesPerFrame]),
                               frames: frames, time: firstSampleTime(framesRead: frames), loss: restarted ? .restart : nil)
        }
        snd_pcm_drop(pcm.handle)
        return nil
    }

    /// When the first of the `framesRead` frames just read was captured (CLOCK_MONOTONIC).
    private func firstSampleTime(framesRead: Int) -> Double {
        var available: snd_pcm_uframes_t = 0
        var stamp = timespec()
        if snd_pcm_htimestamp(pcm.handle, &available, &stamp) == 0, stamp.tv_sec != 0 || stamp.tv_nsec != 0 {
            return ALSAClock.firstSampleTime(timestamp: ALSAClock.seconds(seconds: stamp.tv_sec, nanoseconds: stamp.tv_nsec),
                                             available: Int(available), framesRead: framesRead, sampleRate: format.sampleRate)
        }
        // No position stamped yet (some drivers stamp only from the first interrupt on): the
        // monotonic clock now, with what is still waiting in the ring.
        clock_gettime(CLOCK_MONOTONIC, &stamp)
        let waiting = max(0, Int(snd_pcm_avail(pcm.handle)))
        return ALSAClock.firstSampleTime(timestamp: ALSAClock.seconds(seconds: stamp.tv_sec, nanoseconds: stamp.tv_nsec),
                                         available: waiting, framesRead: framesRead, sampleRate: format.sampleRate)
    }

    /// Handles a failed wait or read: true to read on, false when the device went away.
    private func recover(_ code: Int) throws -> Bool {
        switch ALSAReadOutcome.classify(code) {
        case .again:
            return true
        case .overrun:
            overruns += 1
            restarted = true
            try pcm.check(snd_pcm_prepare(pcm.handle), "restarting after an overrun")
            try pcm.check(snd_pcm_start(pcm.handle), "restarting after an overrun")
            return true
        case .gone:
            endReason = "\(name): the device went away (\(ALSAPCM.reason(code)))"
            return false
        case .failed:
            throw VRenderError(.runtime, subject: name, reason: "reading failed: \(ALSAPCM.reason(code))")
        }
    }
}
