import VRenderCapture
import VRenderCore
import VRenderTakes
import VRenderPrompter

extension CaptureOptions {
    /// Reads the action script at `actions` and the teleprompter script at `prompter` (scrolled
    /// with `settings`, read aloud by the synthetic microphone in `voice`) into the plan, so a bad
    /// one fails, naming its file, before the camera opens.
    package mutating func readScripts(actions: String?, prompter: String?, settings: PrompterSettings,
                                      voice: String? = nil) throws {
        if let actions { plan.script = try ActionScript(contentsOfFile: actions) }
        try PresenterPlan.checkVoice(voice, prompter: prompter != nil, audio: audio, device: device)
        if let prompter {
            // Keys end the takes of an open-ended plan (`requireEnding`), r among them.
            try plan.setPrompter(try PrompterScript(contentsOfFile: prompter), settings: settings, voice: voice,
                                 restartHint: plan.isOpenEnded ? "press r to start over from the top" : nil)
        }
    }

    /// Whether keys end the takes: true when nothing in the plan does (no duration, no script's
    /// `stop`). Such a capture is refused when `keys` is false (standard input is no terminal).
    /// Keys mean someone is watching: the synthetic camera and microphone then run at the clock,
    /// as real ones do (unpaced, they ran slower than it while the status line said 30.0 fps).
    package mutating func requireEnding(keys: Bool) throws -> Bool {
        guard plan.isOpenEnded else { return false }
        if !keys {
            throw VRenderError.option("--duration", "needed when standard input is not a terminal (or a script with 'at <time> stop')")
        }
        request.realtime = true
        audioRequest.realtime = true
        return true
    }
}

extension TakeEntry {
    /// The error naming the takes of `takes` that read back broken, recorded into `folder`;
    /// nil when every take read back whole.
    package static func readBackFailure(of takes: [TakeEntry], in folder: String) -> VRenderError? {
        let broken = takes.filter { $0.check?.isGood == false }
        guard !broken.isEmpty else { return nil }
        let list = broken.map { "\($0.file) (\($0.check?.problem ?? ""))" }.joined(separator: ", ")
        return VRenderError.output(folder, "\(broken.count) of \(takes.count) take(s) read back broken: \(list)")
    }
}
