import ArgumentParser
import VRenderExport

/// `concat --captions`: where the captions go, and the script and voice they are aligned
/// with when takes.json does not say.
struct CaptionArguments: ParsableArguments {
    @Option(help: ArgumentHelp("Caption the export from the script the takes were recorded with, timed to the voice: any of srt "
                               + "and vtt (files beside the output), track (a subtitle stream: mov_text in .mov/.mp4, WebVTT in "
                               + ".mkv/.webm) and burn (drawn into the pictures), comma-separated.", valueName: "outputs"))
    var captions: String?

    @Option(help: ArgumentHelp("With --captions: the script the takes read (UTF-8 text). Default: the copy in the takes folder "
                               + "of the script takes.json names.", valueName: "file"))
    var script: String?

    @Option(help: ArgumentHelp("With --captions: the espeak-ng voice the script is aligned with (en, de, fr-fr, ...). "
                               + "Default: the synthetic presenter's, else the script's language.", valueName: "voice"))
    var voice: String?

    func validate() throws {
        if captions == nil && (script != nil || voice != nil) {
            throw ValidationError("--script and --voice say how --captions are made: they need --captions OUTPUTS")
        }
    }

    /// The request, the script read and the voice checked; nil without --captions.
    var request: CaptionRequest? {
        get throws { try captions.map { try CaptionRequest(parsing: $0, script: script, voice: voice) } }
    }
}
