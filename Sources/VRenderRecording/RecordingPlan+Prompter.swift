import VRenderCore
import VRenderPrompter
import VRenderSpeech

/// The synthetic presenter's part of a plan: what it reads, in which voice.
public struct PresenterPlan: Sendable {
    /// The prompter's script, as the prompter shows it.
    public var script: String
    public var voice: SpeechVoice

    /// Refuses `--voice` where nobody would read with it: without a prompter script, or with a
    /// microphone other than the synthetic one (`audio`, `device`: `--audio`, `--device`).
    package static func checkVoice(_ voice: String?, prompter: Bool, audio: String, device: String) throws {
        guard voice != nil, !prompter || !CaptureSources.belongsToCamera(audio, device: device) else { return }
        throw VRenderError.option("--voice", "is the synthetic presenter's voice: it reads the --prompter script "
                                  + "through the synthetic microphone (--device synthetic --audio synthetic), "
                                  + "and this capture has " + (prompter ? "--audio \(audio)" : "no --prompter"))
    }
}

extension RecordingPlan {
    /// Shows `script` on the prompter with `settings`, and has the synthetic microphone (when it
    /// records) read it aloud in `voice`, an espeak-ng voice name (`--voice`; nil: the voice of
    /// the script's language, `SpeechVoice.guess`). Opens the font and checks the voice now, so
    /// either fails before the camera opens.
    public mutating func setPrompter(_ script: PrompterScript, settings: PrompterSettings, voice: String? = nil) throws {
        prompter = try PrompterSession.captureFactory(script: script, settings: settings)
        let voice = try voice.map { try SpeechVoice(named: $0) } ?? SpeechVoice.guess(for: script.text)
        presenter = PresenterPlan(script: script.text, voice: voice)
    }
}
