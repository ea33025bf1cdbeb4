import VRenderCore
import VRenderPrompter
import VRenderSpeech
import VRenderTakes

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
    /// either fails before the camera opens. `restartHint`: how the user starts the scroll over
    /// (`PrompterSession.restartHint`, said when the prompter continues the folder's takes).
    public mutating func setPrompter(_ script: PrompterScript, settings: PrompterSettings, voice: String? = nil,
                                     restartHint: String? = nil) throws {
        prompter = try PrompterSession.captureFactory(script: script, settings: settings, restartHint: restartHint)
        let voice = try voice.map { try SpeechVoice(named: $0) } ?? SpeechVoice.guess(for: script.text)
        presenter = PresenterPlan(script: script.text, voice: voice)
    }
}

extension PrompterSession {
    /// Continues from where the folder's last take of this script left the scroll
    /// (`continueAfter`): the last one recorded (`created`, then the later listed), not the last
    /// listed, which a reorder may have moved. Returns the notice; nil: from the top, unsaid.
    mutating func continueFromFolder(_ takes: [TakeEntry]) -> String? {
        let ofScript = takes.enumerated().compactMap { index, take in
            take.prompter.flatMap { isSameScript($0) ? (created: take.created, number: index + 1, record: $0) : nil }
        }
        guard let last = ofScript.max(by: { ($0.created, $0.number) < ($1.created, $1.number) }) else { return nil }
        return continueAfter(last.record, take: last.number)
    }
}
