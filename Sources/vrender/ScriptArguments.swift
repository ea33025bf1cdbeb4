import ArgumentParser
import VRenderExport

/// `concat --captions` and `--cut-retakes`: what is done with the script the takes read, and
/// the script and voice they are aligned with when takes.json does not say.
struct ScriptArguments: ParsableArguments {
    @Option(help: ArgumentHelp("Caption the export from the script the takes were recorded with, timed to the voice: any of srt "
                               + "and vtt (files beside the output), track (a subtitle stream: mov_text in .mov/.mp4, WebVTT in "
                               + ".mkv/.webm) and burn (drawn into the pictures), comma-separated.", valueName: "outputs"))
    var captions: String?

    @Flag(name: .customLong("cut-retakes"),
          help: "Cut every line the presenter broke off and read again, keeping the last reading (a plan line per cut).")
    var cutRetakes = false

    @Option(help: ArgumentHelp("With --captions or --cut-retakes: the script the takes read (UTF-8 text). Default: the copy in "
                               + "the takes folder of the script takes.json names.", valueName: "file"))
    var script: String?

    @Option(help: ArgumentHelp("With --captions or --cut-retakes: the espeak-ng voice the script is aligned with (en, de, "
                               + "fr-fr, ...). Default: the synthetic presenter's, else the script's language.", valueName: "voice"))
    var voice: String?

    func validate() throws {
        if captions == nil && !cutRetakes && (script != nil || voice != nil) {
            throw ValidationError("--script and --voice say how the script is aligned: they need --captions OUTPUTS or --cut-retakes")
        }
    }

    /// The request, the script read and the voice checked; nil without --captions or --cut-retakes.
    func request() throws -> ScriptRequest? {
        guard captions != nil || cutRetakes else { return nil }
        return try ScriptRequest(parsing: captions, cutRetakes: cutRetakes, script: script, voice: voice)
    }
}
