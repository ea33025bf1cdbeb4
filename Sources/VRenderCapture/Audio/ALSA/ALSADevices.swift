#if canImport(Glibc)
import Glibc
#endif
internal import CALSA
import VRenderCore

/// An ALSA capture PCM, as `vrender devices` lists it.
public struct ALSADeviceInfo: Sendable, Codable, Equatable {
    /// What `--audio` takes: "alsa:hw:CARD,DEVICE" with the card's number.
    public var device: String
    public var card: Int
    public var pcm: Int
    /// The card's id, which stays the same across reboots ("Loopback", "C920"):
    /// `alsa:hw:ID,DEVICE` names the same PCM.
    public var cardID: String
    /// The card's and the PCM's names ("HD Pro Webcam C920", "USB Audio").
    public var cardName: String
    public var pcmName: String
    /// What it records; nil when it could not be opened (see `problem`).
    public var capabilities: ALSACapabilities?
    /// Why it could not be inspected ("busy: in use by another program").
    public var problem: String?

    public init(card: Int, pcm: Int, cardID: String, cardName: String, pcmName: String,
                capabilities: ALSACapabilities?, problem: String? = nil) {
        self.device = "\(ALSAMicrophone.prefix)hw:\(card),\(pcm)"
        self.card = card
        self.pcm = pcm
        self.cardID = cardID
        self.cardName = cardName
        self.pcmName = pcmName
        self.capabilities = capabilities
        self.problem = problem
    }

    /// One line for `vrender devices`:
    /// `alsa:hw:0,1  Loopback [Loopback] "Loopback PCM": S16_LE ..., 8000–192000 Hz, 1–32 ch`.
    public var listingLine: String {
        let what = capabilities.map(\.description) ?? problem ?? "not inspected"
        return "\(device)  \(cardName) [\(cardID)] \"\(pcmName)\": \(what)"
    }
}

/// Finds ALSA microphones: every card's capture PCMs, and a USB webcam's own microphone.
package enum ALSADevices {
    /// Every capture PCM of every card (snd_card_next, then the card's control interface),
    /// opened briefly to read what it records. A PCM another program holds is listed as busy.
    package static func captureDevices() -> [ALSADeviceInfo] {
        vr_alsa_silence_library_errors()
        var devices: [ALSADeviceInfo] = []
        var card: Int32 = -1
        while snd_card_next(&card) == 0, card >= 0 {
            devices += captureDevices(card: Int(card))
        }
        return devices
    }

    /// The lines `vrender devices` prints under its ALSA heading (two-space indented).
    package static func listingLines(_ devices: [ALSADeviceInfo]) -> [String] {
        guard !devices.isEmpty else { return ["  none: no ALSA card has a capture device (alsa:default may still open)"] }
        return devices.map { "  " + $0.listingLine }
    }

    private static func captureDevices(card: Int) -> [ALSADeviceInfo] {
        var control: OpaquePointer?
        guard snd_ctl_open(&control, "hw:\(card)", 0) == 0, let control else { return [] }
        defer { snd_ctl_close(control) }
        var (cardID, cardName) = ("card\(card)", "card \(card)")
        var cardInfo: OpaquePointer?
        if snd_ctl_card_info_malloc(&cardInfo) == 0, let cardInfo {
            if snd_ctl_card_info(control, cardInfo) == 0 {
                cardID = String(cString: snd_ctl_card_info_get_id(cardInfo))
                cardName = String(cString: snd_ctl_card_info_get_name(cardInfo))
            }
            snd_ctl_card_info_free(cardInfo)
        }
        var pcmInfo: OpaquePointer?
        guard snd_pcm_info_malloc(&pcmInfo) == 0, let pcmInfo else { return [] }
        defer { snd_pcm_info_free(pcmInfo) }
        var devices: [ALSADeviceInfo] = []
        var pcm: Int32 = -1
        while snd_ctl_pcm_next_device(control, &pcm) == 0, pcm >= 0 {
            snd_pcm_info_set_device(pcmInfo, UInt32(pcm))
            snd_pcm_info_set_subdevice(pcmInfo, 0)
            snd_pcm_info_set_stream(pcmInfo, SND_PCM_STREAM_CAPTURE)
            guard snd_ctl_pcm_info(control, pcmInfo) == 0 else { continue }  // playback only
            let pcmName = String(cString: snd_pcm_info_get_name(pcmInfo))
            devices.append(inspect(card: Int(card), pcm: Int(pcm), cardID: cardID, cardName: cardName, pcmName: pcmName))
        }
        return devices
    }

    private static func inspect(card: Int, pcm: Int, cardID: String, cardName: String, pcmName: String) -> ALSADeviceInfo {
        var info = ALSADeviceInfo(card: card, pcm: pcm, cardID: cardID, cardName: cardName, pcmName: pcmName, capabilities: nil)
        do {
            let opened = try ALSAPCM(device: "hw:\(card),\(pcm)", subject: info.device)
            info.capabilities = try opened.capabilities()
        } catch let error as VRenderError {
            info.problem = error.reason.hasPrefix("is in use") ? "busy: in use by another program" : error.reason
        } catch {
            info.problem = "\(error)"
        }
        return info
    }
}
