import ArgumentParser
import VRenderCore
import VRenderRecording

/// What `capture` and `studio` both record: the camera, the takes folder, the format and codec,
/// the microphone and the prompter. Declared once, so both commands read them alike and say
/// the same in their help.
struct CameraArguments: ParsableArguments {
    @Option(help: ArgumentHelp("Camera: a V4L2 device path (/dev/video0) or synthetic[:seed=N].", valueName: "device"))
    var device: String

    @Option(help: ArgumentHelp("Folder for the takes (created if missing).", valueName: "dir"))
    var out: String

    @Option(help: ArgumentHelp("Frame rate to capture at (default 30).", valueName: "rate"), transform: FrameRateArgument.parse)
    var fps = FrameRateArgument(30)

    @Option(help: ArgumentHelp("Capture size WxH (narrows the format choice).", valueName: "WxH"), transform: SizeArgument.parse)
    var size: SizeArgument?

    @Option(help: ArgumentHelp("Video codec of the takes: auto (HEVC when it opens and keeps up, else H.264), hevc, h264, "
                               + "or ffv1 (lossless and large: pictures to compare bit for bit)."),
            transform: CaptureCodecArgument.parse)
    var codec: CaptureCodecArgument = .auto

    @Option(help: ArgumentHelp("Microphone: auto, none, synthetic[:seed=N], alsa:DEVICE (alsa:default, alsa:hw:1,0) "
                               + "or pulse:SOURCE (pulse:default). auto: the synthetic microphone with the synthetic "
                               + "camera; with a V4L2 camera its own USB microphone, else PulseAudio, else ALSA.",
                               valueName: "device"))
    var audio = "auto"

    @Option(help: ArgumentHelp("Teleprompter script (UTF-8 text) that scrolls while takes record.", valueName: "file"))
    var prompter: String?

    @OptionGroup var prompterSettings: PrompterArguments

    @Option(help: ArgumentHelp("The synthetic presenter's espeak-ng voice (en, en-us, de, fr-fr, ...): with the synthetic "
                               + "camera and microphone, it reads the --prompter script aloud and takes.json keeps each "
                               + "word's time. Default: the script's language.", valueName: "voice"))
    var voice: String?

    func validate() throws {
        if prompter == nil && prompterSettings.isChanged {
            throw ValidationError("--prompter-speed, --prompter-font and --prompter-end need --prompter SCRIPT")
        }
        if prompter == nil && voice != nil {
            throw ValidationError("--voice is the synthetic presenter's, who reads the --prompter script: it needs --prompter SCRIPT")
        }
    }
}

/// `--codec` of `capture`, `studio` and `bench capture`: a name or one of its other names
/// (`h265`, `x264`: `CodecNames`).
struct CaptureCodecArgument: ValueArgument {
    static let names = ["auto", "hevc", "h264", "ffv1"]
    static let auto = Self(name: "auto", text: "auto")
    let name: String
    let text: String

    static func read(_ text: String) throws(ValueSyntaxError) -> Self {
        Self(name: try CodecNames.resolve(text, among: names), text: text)
    }

    var choice: RecordingPlan.Codec {
        switch name {
        case "hevc": .hevc
        case "h264": .h264
        case "ffv1": .ffv1
        default: .auto
        }
    }
}
