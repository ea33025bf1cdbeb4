/// Sample layouts a sound device can deliver (always interleaved).
public enum AudioSampleFormat: String, Sendable, Codable, CaseIterable {
    /// Signed 16-bit little-endian (ALSA S16_LE, PulseAudio s16le): most devices' native format.
    case s16
    /// Signed 32-bit little-endian (ALSA S32_LE): pro interfaces, HDMI capture cards.
    case s32
    /// 32-bit float little-endian (ALSA FLOAT_LE, PulseAudio float32le): the synthetic microphone's.
    case f32

    public var bytesPerSample: Int { self == .s16 ? 2 : 4 }
}
