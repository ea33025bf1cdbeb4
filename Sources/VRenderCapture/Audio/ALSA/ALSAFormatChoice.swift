import VRenderCore

/// What an ALSA capture PCM offers for interleaved reads (its hw params' whole space): the
/// microphone chooses from it and `vrender devices` lists it.
public struct ALSACapabilities: Sendable, Codable, Equatable, CustomStringConvertible {
    /// Every sample format the device offers, by ALSA's names ("S16_LE", "S24_3LE", ...).
    public var formats: [String]
    public var minRate: Int
    public var maxRate: Int
    public var minChannels: Int
    public var maxChannels: Int

    public init(formats: [String], minRate: Int, maxRate: Int, minChannels: Int, maxChannels: Int) {
        self.formats = formats
        self.minRate = minRate
        self.maxRate = maxRate
        self.minChannels = minChannels
        self.maxChannels = maxChannels
    }

    /// The offered formats vrender reads, in its order of preference.
    public var readableFormats: [AudioSampleFormat] {
        ALSAFormatChoice.preference.filter { formats.contains($0.alsaName) }
    }

    public var description: String {
        let rates = minRate == maxRate ? "\(minRate) Hz" : "\(minRate)–\(maxRate) Hz"
        let channels = minChannels == maxChannels ? "\(minChannels) ch" : "\(minChannels)–\(maxChannels) ch"
        return "\(Self.shortList(formats)), \(rates), \(channels)"
    }

    /// Up to six format names, then how many more (a Loopback card offers over twenty).
    static func shortList(_ names: [String]) -> String {
        guard !names.isEmpty else { return "no formats" }
        let shown = names.prefix(6).joined(separator: " ")
        return names.count > 6 ? "\(shown) +\(names.count - 6) more" : shown
    }
}

extension AudioSampleFormat {
    /// ALSA's name of the layout (snd_pcm_format_name).
    var alsaName: String {
        switch self {
        case .s16: "S16_LE"
        case .s32: "S32_LE"
        case .f32: "FLOAT_LE"
        }
    }
}

/// Chooses what to record from what a device offers: pure, so every refusal is tested.
enum ALSAFormatChoice {
    /// S16 first (most devices' native layout, half the bytes), then S32, then float.
    static let preference: [AudioSampleFormat] = [.s16, .s32, .f32]
    static let defaultRate = 48_000
    static let defaultChannels = 2

    /// The layout, and the rate and channel count to ask for (ALSA's "near" calls then pick the
    /// device's closest): the request's, else 48 kHz stereo, brought inside what the device
    /// offers and what vrender converts (8–192 kHz, 1–8 channels).
    ///
    /// - Throws: `VRenderError.input` naming `subject` ("alsa:hw:1,0") and what the device offers
    ///   when nothing it offers can be recorded.
    static func choose(from offered: ALSACapabilities, request: AudioRequest, subject: String) throws -> AudioFormat {
        guard let layout = offered.readableFormats.first else {
            throw VRenderError.input(subject, "offers no sample format vrender reads (it offers \(ALSACapabilities.shortList(offered.formats)); vrender reads S16_LE, S32_LE, FLOAT_LE: try alsa:plughw:… to let ALSA convert)")
        }
        guard let rate = nearest(request.sampleRate ?? defaultRate, offered: offered.minRate...max(offered.minRate, offered.maxRate),
                                 supported: AudioFormat.sampleRates) else {
            throw VRenderError.input(subject, "records at \(offered.minRate)–\(offered.maxRate) Hz; vrender records 8000–192000 Hz")
        }
        guard let channels = nearest(request.channels ?? defaultChannels,
                                     offered: offered.minChannels...max(offered.minChannels, offered.maxChannels),
                                     supported: AudioFormat.channelCounts) else {
            throw VRenderError.input(subject, "records \(offered.minChannels)–\(offered.maxChannels) channels; vrender records 1–8")
        }
        return AudioFormat(sampleRate: rate, channels: channels, sampleFormat: layout)
    }

    /// `wanted` clamped into the overlap of two ranges; nil when they do not overlap.
    static func nearest(_ wanted: Int, offered: ClosedRange<Int>, supported: ClosedRange<Int>) -> Int? {
        let low = max(offered.lowerBound, supported.lowerBound)
        let high = min(offered.upperBound, supported.upperBound)
        guard low <= high else { return nil }
        return min(max(wanted, low), high)
    }
}
