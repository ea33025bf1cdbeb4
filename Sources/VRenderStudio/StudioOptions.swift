import VRenderCapture
import VRenderCore
import VRenderMedia
import VRenderPrompter
import VRenderRecording

/// Everything `vrender studio` can be asked, already parsed.
package struct StudioOptions: Sendable {
    /// `synthetic[:seed=N]` or a V4L2 device path; the synthetic camera always runs in real time.
    package var device: String
    /// Rate, size and the starting lens, zoom and torch.
    package var request: CaptureRequest
    /// The takes folder (`--out`); exports go into `exportsFolder`, playable copies of the
    /// takes into `TAKES/proxies/`.
    package var folder: String
    package var exportsFolder: String
    package var codec: VideoCodecChoice
    /// `--audio` and its request, as `vrender capture` takes them.
    package var audio: String
    package var audioRequest: AudioRequest
    /// `--prompter FILE`, read, with its settings (nil: no prompter).
    package let prompter: (script: PrompterScript, settings: PrompterSettings)?
    /// What each capture records with: the folder, codec and the prompter laid out for the
    /// camera's picture and read by the synthetic presenter (made once, with the font and the
    /// voice, so a missing font or voice fails before the camera opens). Tests give it a
    /// `duration`, so that takes end by themselves.
    var recordingPlan: RecordingPlan
    /// The longest side of the preview pictures sent to pages, pixels.
    package var previewMaxWidth: Int

    package init(device: String, request: CaptureRequest, folder: String, exportsFolder: String? = nil,
                codec: VideoCodecChoice = .auto, audio: String = "auto", audioRequest: AudioRequest = AudioRequest(),
                prompter: (script: PrompterScript, settings: PrompterSettings)? = nil, voice: String? = nil,
                previewMaxWidth: Int = 960) throws {
        try AudioDevices.check(audio)   // before the server starts: an ALSA plugin string, say
        self.device = device
        var request = request
        request.realtime = true   // a page shows the camera as it is now, never faster
        self.request = request
        self.folder = folder
        self.exportsFolder = exportsFolder ?? TakesFolderPaths.join(folder, "exports")
        self.codec = codec
        self.audio = audio
        var audioRequest = audioRequest
        audioRequest.realtime = true
        self.audioRequest = audioRequest
        self.prompter = prompter
        // Takes not listed yet when the studio stops (the folder's lock held elsewhere) are
        // waited for briefly, then left, named, for `takes recover`: stopping must not hang.
        try PresenterPlan.checkVoice(voice, prompter: prompter != nil, audio: audio, device: device)
        var plan = RecordingPlan(outputDirectory: folder, codec: codec, listingWait: FolderLock.defaultWait)
        if let prompter { try plan.setPrompter(prompter.script, settings: prompter.settings, voice: voice) }
        recordingPlan = plan
        self.previewMaxWidth = previewMaxWidth
    }
}

/// Paths inside the folders the studio was given.
enum TakesFolderPaths {
    static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}
