import VRenderCore

/// What `--audio` resolved to: the microphone to record (nil: a silent take) and what the user
/// should be told about the choice ("--audio auto: no microphone found …").
public struct AudioChoice {
    public var source: (any AudioSource)?
    public var notices: [String]

    public init(source: (any AudioSource)?, notices: [String] = []) {
        self.source = source
        self.notices = notices
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
    ///   - cameraDevice: the `--device` being recorded (`auto` picks the microphone that goes with it).
    /// - Throws: the backend's error naming the device (unknown, busy, no server, unsupported
    ///   format); `VRenderError.option("--audio", …)` for a value of no known form.
    public static func open(_ spec: String, request: AudioRequest, cameraDevice: String) throws -> AudioChoice {
        switch spec {
        case "none": return AudioChoice(source: nil)
        case "auto": return try automatic(request: request, cameraDevice: cameraDevice)
        default: break
        }
        if let source = try suffix(of: spec, after: "pulse:") {
            return AudioChoice(source: try PulseMicrophone(source: source, request: request))
        }
        if let device = try suffix(of: spec, after: "alsa:") {
            return AudioChoice(source: try openALSA(device: device, request: request))
        }
        if spec == "synthetic" || spec.hasPrefix("synthetic:") {
            return AudioChoice(source: try openSynthetic(spec, request: request))
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
    /// `default` when it opens, else no sound, with a notice saying so and how to pick one.
    /// A rate or channel count no device can record is still an error (it is the user's option).
    /// `pulseServer`: the PulseAudio server to ask (tests); nil: PULSE_SERVER or the user's default.
    static func automatic(request: AudioRequest, cameraDevice: String, pulseServer: String? = nil) throws -> AudioChoice {
        if cameraDevice == "synthetic" || cameraDevice.hasPrefix("synthetic:") {
            return AudioChoice(source: try openSynthetic(cameraDevice, request: request))
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
                let source = try open()
                return AudioChoice(source: source, notices: ["--audio auto: recording sound from \(source.name)"])
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

    // lead: wire ALSAMicrophone at merge (`ALSAMicrophone(device: device, request: request)`).
    static func openALSA(device: String, request: AudioRequest) throws -> any AudioSource {
        throw VRenderError.input("alsa:\(device)", "ALSA microphones are not built yet")
    }

    // lead: wire ALSADevices.usbSibling(ofCamera: camera, sysfs: "/sys") at merge: the ALSA
    // device of the webcam's own microphone (the card on the same USB device), nil when none.
    static func webcamMicrophone(ofCamera camera: String) -> String? {
        nil
    }

    // lead: wire the synthetic microphone at merge (the synth helper's, for `spec` and `request`).
    static func openSynthetic(_ spec: String, request: AudioRequest) throws -> any AudioSource {
        throw VRenderError.input(spec, "the synthetic microphone is not built yet")
    }
}

/// The sound sources `vrender devices` shows: PulseAudio's, ALSA's and the synthetic microphone.
public struct AudioListing: Sendable, Encodable {
    public var pulse: PulseListing
    // lead: add the alsa helper's ALSA device listing here at merge (`alsa: [...]`).
    public var synthetic = SyntheticMicrophoneDescription()

    public struct SyntheticMicrophoneDescription: Sendable, Encodable {
        public var device = "synthetic[:seed=N]"
        // lead: take the synth helper's summary at merge if it has one.
        public var summary = "the synthetic camera's microphone: a voice-like signal and a click at every whole "
            + "second with the camera's flash frame (what `--audio auto` records with the synthetic camera)"
    }
}

extension AudioDevices {
    /// What can be recorded from, asked of each backend now (a PulseAudio server that does not
    /// answer gives an empty list and the reason).
    public static func list(pulseServer: String? = nil) -> AudioListing {
        AudioListing(pulse: PulseSources.list(server: pulseServer))
    }
}
