#if canImport(Glibc)
import Glibc
#endif
internal import CALSA
import VRenderCore

/// One open ALSA capture PCM: the calls the microphone and the listing share (open, read the
/// hw params' space, configure). Closed when released.
final class ALSAPCM {
    let handle: OpaquePointer
    /// The device as the user wrote it, with the backend: "alsa:hw:1,0".
    let subject: String

    /// Opens `device` ("hw:1,0", "default") for capture, non-blocking so that a device another
    /// program holds fails at once with EBUSY instead of waiting for it. A string that is not a
    /// capture device's name (`ALSADeviceName`: `file:PATH`, an inline `{…}`) is refused before
    /// libasound reads it, naming `--audio` and the string.
    init(device: String, subject: String) throws {
        vr_alsa_silence_library_errors()
        try ALSADeviceName.check(device, subject: subject)
        var pcm: OpaquePointer?
        let code = snd_pcm_open(&pcm, device, SND_PCM_STREAM_CAPTURE, SND_PCM_NONBLOCK)
        guard code == 0, let pcm else {
            throw VRenderError.input(subject, Self.openFailure(code: Int(code)))
        }
        handle = pcm
        self.subject = subject
    }

    deinit { snd_pcm_close(handle) }

    /// Why `snd_pcm_open` failed, in words a user can act on.
    static func openFailure(code: Int) -> String {
        switch Int32(-code) {
        case EBUSY: "is in use by another program (close it, or record from alsa:default or pulse:default, which share the device)"
        case ENOENT, ENODEV, ENXIO, EINVAL: "no such ALSA capture device (`vrender devices` lists them)"
        case EACCES, EPERM: "permission denied (add yourself to the 'audio' group)"
        default: "cannot be opened: \(reason(code))"
        }
    }

    static func reason(_ code: Int) -> String { String(cString: snd_strerror(Int32(code))) }

    /// The formats, rates and channel counts the device offers for interleaved reads.
    func capabilities() throws -> ALSACapabilities {
        let hw = try HardwareParameters(subject: subject)
        try check(snd_pcm_hw_params_any(handle, hw.pointer), "reading its parameters")
        try check(snd_pcm_hw_params_set_access(handle, hw.pointer, SND_PCM_ACCESS_RW_INTERLEAVED), "interleaved reads")
        var formats: [String] = []
        for raw in 0...Int32(SND_PCM_FORMAT_LAST.rawValue) {
            let format = snd_pcm_format_t(rawValue: raw)
            if snd_pcm_hw_params_test_format(handle, hw.pointer, format) == 0, let name = snd_pcm_format_name(format) {
                formats.append(String(cString: name))
            }
        }
        var minRate: UInt32 = 0, maxRate: UInt32 = 0, minChannels: UInt32 = 0, maxChannels: UInt32 = 0
        var direction: Int32 = 0
        try check(snd_pcm_hw_params_get_rate_min(hw.pointer, &minRate, &direction), "reading its rates")
        try check(snd_pcm_hw_params_get_rate_max(hw.pointer, &maxRate, &direction), "reading its rates")
        try check(snd_pcm_hw_params_get_channels_min(hw.pointer, &minChannels), "reading its channels")
        try check(snd_pcm_hw_params_get_channels_max(hw.pointer, &maxChannels), "reading its channels")
        return ALSACapabilities(formats: formats, minRate: Int(minRate), maxRate: Int(maxRate),
                                minChannels: Int(minChannels), maxChannels: Int(maxChannels))
    }

    /// Sets interleaved `wanted.sampleFormat` at the nearest rate and channel count the device has,
    /// ~10 ms periods in a ring of up to 2 s, and monotonic timestamps on every position update.
    /// Returns the format it got and the period's length in frames.
    func configure(_ wanted: AudioFormat) throws -> (format: AudioFormat, periodFrames: Int) {
        let hw = try HardwareParameters(subject: subject)
        try check(snd_pcm_hw_params_any(handle, hw.pointer), "reading its parameters")
        try check(snd_pcm_hw_params_set_access(handle, hw.pointer, SND_PCM_ACCESS_RW_INTERLEAVED), "interleaved reads")
        try check(snd_pcm_hw_params_set_format(handle, hw.pointer, wanted.sampleFormat.pcmFormat),
                  "format \(wanted.sampleFormat.alsaName)")
        var channels = UInt32(wanted.channels)
        try check(snd_pcm_hw_params_set_channels_near(handle, hw.pointer, &channels), "\(wanted.channels) channels")
        var rate = UInt32(wanted.sampleRate)
        var direction: Int32 = 0
        try check(snd_pcm_hw_params_set_rate_near(handle, hw.pointer, &rate, &direction), "\(wanted.sampleRate) Hz")
        // The ring is how late the reading thread may run before the device overruns: on a busy
        // machine (snd-aloop in a saturated guest) 250 ms overran and lost 274 ms of sound. Two
        // seconds, where the device allows, as PulseAudio keeps; periods still come every 10 ms.
        var bufferMicroseconds: UInt32 = 2_000_000
        try check(snd_pcm_hw_params_set_buffer_time_near(handle, hw.pointer, &bufferMicroseconds, &direction), "a 2 s buffer")
        var periodMicroseconds: UInt32 = 10_000
        try check(snd_pcm_hw_params_set_period_time_near(handle, hw.pointer, &periodMicroseconds, &direction), "10 ms periods")
        try check(snd_pcm_hw_params(handle, hw.pointer), "setting \(wanted)")
        var periodFrames: snd_pcm_uframes_t = 0
        try check(snd_pcm_hw_params_get_period_size(hw.pointer, &periodFrames, &direction), "reading its period")
        let got = AudioFormat(sampleRate: Int(rate), channels: Int(channels), sampleFormat: wanted.sampleFormat)
        guard AudioFormat.sampleRates.contains(got.sampleRate), AudioFormat.channelCounts.contains(got.channels) else {
            throw VRenderError.input(subject, "gave \(got), outside what vrender records (8000–192000 Hz, 1–8 channels)")
        }
        try configureTimestamps(availMin: periodFrames)
        return (got, max(1, Int(periodFrames)))
    }

    /// sw params: a monotonic timestamp with every position update (snd_pcm_htimestamp), and
    /// wake-ups once a whole period is there.
    private func configureTimestamps(availMin: snd_pcm_uframes_t) throws {
        var sw: OpaquePointer?
        try check(snd_pcm_sw_params_malloc(&sw), "allocating its parameters")
        guard let sw else { throw VRenderError.input(subject, "cannot allocate ALSA parameters") }
        defer { snd_pcm_sw_params_free(sw) }
        try check(snd_pcm_sw_params_current(handle, sw), "reading its parameters")
        try check(snd_pcm_sw_params_set_tstamp_mode(handle, sw, SND_PCM_TSTAMP_ENABLE), "timestamps")
        try check(snd_pcm_sw_params_set_tstamp_type(handle, sw, SND_PCM_TSTAMP_TYPE_MONOTONIC), "monotonic timestamps")
        try check(snd_pcm_sw_params_set_avail_min(handle, sw, availMin), "its wake-up size")
        try check(snd_pcm_sw_params(handle, sw), "setting timestamps")
    }

    /// Turns a negative ALSA code into an error naming the device and what was being done.
    func check(_ code: Int32, _ doing: String) throws {
        guard code < 0 else { return }
        throw VRenderError.input(subject, "refused \(doing): \(Self.reason(Int(code)))")
    }

    /// An `snd_pcm_hw_params_t`, freed with its owner.
    final class HardwareParameters {
        let pointer: OpaquePointer
        init(subject: String) throws {
            var hw: OpaquePointer?
            guard snd_pcm_hw_params_malloc(&hw) == 0, let hw else {
                throw VRenderError.input(subject, "cannot allocate ALSA parameters")
            }
            pointer = hw
        }
        deinit { snd_pcm_hw_params_free(pointer) }
    }
}

extension AudioSampleFormat {
    var pcmFormat: snd_pcm_format_t {
        switch self {
        case .s16: SND_PCM_FORMAT_S16_LE
        case .s32: SND_PCM_FORMAT_S32_LE
        case .f32: SND_PCM_FORMAT_FLOAT_LE
        }
    }
}
