import VRenderCore

/// What `--audio` resolved to: the microphone to record (nil: a silent take), the microphone
/// `auto` picked, and what the user should be told about the choice ("--audio auto: no
/// microphone found …").
public struct AudioChoice {
    public var source: (any AudioSource)?
    public var notices: [String]
    /// What `--audio auto` picked, for the user to be told; nil for a source named by the user,
    /// or when `auto` found none (a notice says so).
    public var picked: MicrophonePick?

    public init(source: (any AudioSource)?, notices: [String] = [], picked: MicrophonePick? = nil) {
        self.source = source
        self.notices = notices
        self.picked = picked
    }

    /// `source`, as picked by `auto`.
    static func automatic(_ source: any AudioSource) -> AudioChoice {
        AudioChoice(source: source, picked: MicrophonePick(name: source.name, format: source.format, device: source.connectedDevice))
    }
}

/// The microphone `--audio auto` picked and the format it records in.
public struct MicrophonePick: Sendable, Equatable {
    /// As takes.json names it: `pulse:default`, `alsa:hw:1,0`, `synthetic seed=1`.
    public var name: String
    public var format: AudioFormat
    /// The device behind `name` when the name does not say it (`pulse:default`'s source).
    public var device: String?

    public init(name: String, format: AudioFormat, device: String? = nil) {
        self.name = name
        self.format = format
        self.device = device
    }

    /// "auto → pulse:default (alsa_input.usb-…) 48000 Hz 2 ch": what capture and the studio print.
    public var summary: String {
        "auto → \(name)\(device.map { " (\($0))" } ?? "") \(format.sampleRate) Hz \(format.channels) ch"
    }
}

/// The microphone factory: opens the sound source an `--audio` value names, so every command
/// that records reads sound device names the same way (as `CaptureDevices` does cameras).
public enum AudioDevices {
    /// The forms `--audio` accepts, for its help and its errors.
    public static let forms = "auto, none, pulse:SOURCE (pulse:default), alsa:DEVICE (alsa:default, alsa:hw:1,0), "
        + "synthetic[:seed=N]"

    /// - Parameters:
    ///   - spec: `auto`, `none`, `pulse:SOURCE`, `alsa:DEVICE` or `synthetic[:seed=N]`.
    ///   - request: the sample rate, channels and drift asked for (`--audio-rate`, ...).
    ///   - cameraDevice: the `--device` being recorded (`auto` picks the microphone that goes with it).
    ///   - syntheticCamera: the camera, opened, when the synthetic microphone may be chosen (it
    ///     shares the synthetic camera's clapper); nil opens hardware only, before the camera.
    /// - Throws: the backend's error naming the device (unknown, busy, no server, unsupported
    ///   format); `VRenderError.option("--audio", …)` for a value `check` refuses.
    public static func open(_ spec: String, request: AudioRequest, cameraDevice: String,
                            syntheticCamera: (any CaptureSource)? = nil) throws -> AudioChoice {
        try check(spec)
        switch spec {
        case "none": return AudioChoice(source: nil)
        case "auto": return try automatic(request: request, cameraDevice: cameraDevice, syntheticCamera: syntheticCamera)
        default: break
        }
        if let source = try suffix(of: spec, after: "pulse:") {
            return AudioChoice(source: try PulseMicrophone(source: source, request: request))
        }
        if let device = try suffix(of: spec, after: "alsa:") {
            return AudioChoice(source: try openALSA(device: device, request: request))
        }
        // `check` let nothing else through.
        return AudioChoice(source: try openSynthetic(spec, request: request, camera: syntheticCamera))
    }

    /// Checks the form of an `--audio` value without opening anything, so that a command
    /// refuses a bad one before a camera or a server starts: a known form, and for `alsa:` a
    /// capture device's name, never a plugin defined in the string (`ALSADeviceName`: `file:`
    /// wrote any file, `file:'|cmd'` ran a command). Throws `VRenderError.option("--audio", …)`.
    public static func check(_ spec: String) throws {
        if spec == "none" || spec == "auto" || SyntheticMicrophone.isSynthetic(spec) { return }
        if try suffix(of: spec, after: "pulse:") != nil { return }
        if let device = try suffix(of: spec, after: "alsa:") {
            try ALSADeviceName.check(device, subject: spec)
            return
        }
        throw VRenderError.option("--audio", "unknown sound source \"\(spec)\": use \(forms)")
    }

    /// `pulse:X` → X; nil for another scheme. An empty name is an error naming the option.
    private static func suffix(of spec: String, after scheme: String) throws -> String? {
        guard spec.hasPrefix(scheme) else { return nil }
        let rest = String(spec.dropFirst(scheme.count))
        guard !rest.isEmpty else {
            throw VRenderError.option("--audio", "\"\(spec)\" names no device: use \(scheme)default or \(forms)")
        }
        return rest
    }

    /// `--audio auto`: the synthetic camera's own microphone; for a V4L2 camera the webcam's own
    /// USB microphone, else PulseAudio's default source when a server answers, else ALSA's
    /// `default` when it opens (the choice as `picked`), else no sound, with a notice saying so
    /// and how to pick one.
    /// A rate or channel count no device can record is still an error (it is the user's option).
    /// `pulseServer`: the PulseAudio server to ask (tests); nil: PULSE_SERVER or the user's default.
    static func automatic(request: AudioRequest, cameraDevice: String, syntheticCamera: (any CaptureSource)? = nil,
                          pulseServer: String? = nil) throws -> AudioChoice {
        if SyntheticCamera.isSynthetic(cameraDevice) {
            return .automatic(try openSynthetic("synthetic", request: request, camera: syntheticCamera))
        }
        var tried: [String] = []
        var candidates: [(String, () throws -> any AudioSource)] = []
        if let webcam = webcamMicrophone(ofCamera: cameraDevice) {
            candidates.append(("alsa:\(webcam)", { try openALSA(device: webcam, request: request) }))
        }
        candidates.append(("pulse:default", { try PulseMicrophone(source: "default", request: request, server: pulseServer) }))
        candidates.append(("alsa:default", { try openALSA(device: "default", request: request) }))
        for (name, open) in candidates {
            do {
                return .automatic(try open())
            } catch let error as VRenderError where error.kind == .option {
                throw error
            } catch {
                tried.append("\(name): \(error)")
            }
        }
        return AudioChoice(source: nil, notices: [
            "--audio auto: no microphone found, recording without sound (\(tried.joined(separator: "; "))); "
                + "pick one with --audio (`vrender devices` lists them), or --audio none to silence this"])
    }

    static func openALSA(device: String, request: AudioRequest) throws -> any AudioSource {
        try ALSAMicrophone(device: device, request: request)
    }

    /// The ALSA device of a V4L2 webcam's own microphone (the card on the same USB device).
    static func webcamMicrophone(ofCamera camera: String) -> String? {
        ALSADevices.usbSibling(ofCamera: camera, sysfs: "/sys").map { String($0.dropFirst(ALSAMicrophone.prefix.count)) }
    }

    /// The synthetic microphone, attached to the synthetic camera (`camera`, opened first).
    static func openSynthetic(_ spec: String, request: AudioRequest, camera: (any CaptureSource)?) throws -> any AudioSource {
        guard let camera else {
            throw VRenderError.input(spec, "the synthetic microphone belongs to the synthetic camera (--device synthetic)")
        }
        return try SyntheticMicrophone(specification: spec, request: request, camera: camera)
    }
}

/// The sound sources `vrender devices` shows: PulseAudio's, ALSA's and the synthetic microphone.
public struct AudioListing: Sendable, Encodable {
    public var pulse: PulseListing
    /// Every ALSA card's capture devices (`alsa:hw:N,D`), with their formats.
    public var alsa: [ALSADeviceInfo]
    public var synthetic = SyntheticMicrophoneDescription()

    public struct SyntheticMicrophoneDescription: Sendable, Encodable {
        public var device = "synthetic[:seed=N]"
        public var summary = "the synthetic camera's microphone: a voice-like signal and a click at every whole "
            + "second with the camera's flash frame (what `--audio auto` records with the synthetic camera)"
    }
}

extension AudioDevices {
    /// What can be recorded from, asked of each backend now (a PulseAudio server that does not
    /// answer gives an empty list and the reason).
    public static func list(pulseServer: String? = nil) -> AudioListing {
        AudioListing(pulse: PulseSources.list(server: pulseServer), alsa: ALSADevices.captureDevices())
    }
}
