import VRenderCapture
import VRenderCore

/// Opens what a capture records from: the camera `--device` names and the microphone `--audio`
/// names. A hardware microphone opens before the camera, so an unknown, busy or unsupported one
/// is an error naming it before any camera is touched; the synthetic microphone belongs to the
/// synthetic camera (its clapper) and opens after it.
struct CaptureSources {
    let camera: any CaptureSource
    let microphone: (any AudioSource)?
    /// What `--audio auto` picked (nil for a microphone the user named).
    let picked: MicrophonePick?
    /// What the user should be told about the choice (why `--audio auto` records no sound).
    let notices: [String]

    init(options: CaptureOptions) throws {
        try AudioDevices.check(options.audio)
        let synthetic = SyntheticCamera.isSynthetic(options.device)
        if synthetic, !options.request.realtime, Self.isHardware(options.audio) {
            throw VRenderError.option("--audio", "\(options.audio) records in real time, the synthetic camera without "
                                      + "--realtime renders as fast as it can: add --realtime, or use --audio synthetic")
        }
        func openCamera() throws -> any CaptureSource { try CaptureDevices.open(options.device, request: options.request) }
        func openMicrophone(_ camera: (any CaptureSource)?) throws -> AudioChoice {
            try AudioDevices.open(options.audio, request: options.audioRequest, cameraDevice: options.device, syntheticCamera: camera)
        }
        let choice: AudioChoice
        if Self.belongsToCamera(options.audio, device: options.device) {
            camera = try openCamera()
            choice = try openMicrophone(camera)
        } else {
            choice = try openMicrophone(nil)
            camera = try openCamera()
        }
        microphone = choice.source
        picked = choice.picked
        notices = choice.notices
    }

    /// `alsa:…` and `pulse:…`: devices on the wall clock.
    static func isHardware(_ audio: String) -> Bool { audio.hasPrefix("alsa:") || audio.hasPrefix("pulse:") }

    /// The synthetic microphone, named or picked by `auto` for the synthetic camera.
    static func belongsToCamera(_ audio: String, device: String) -> Bool {
        SyntheticMicrophone.isSynthetic(audio) || (audio == "auto" && SyntheticCamera.isSynthetic(device))
    }
}
