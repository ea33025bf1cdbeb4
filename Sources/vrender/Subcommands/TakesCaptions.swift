import ArgumentParser
import Foundation
import VRenderAlignment

extension VRender.Takes {
    /// `vrender takes captions DIR`: `TakeCaptions.write`, one line per take.
    struct Captions: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Caption every take from its script: captions/<take>.srt and .vtt in the folder.",
            discussion: """
                The script's words are placed on each take's voice (espeak-ng's reading of the script, \
                found by dynamic time warping, guided by the prompter's scroll when the take recorded \
                it). Lines the take never says are listed. The takes are not changed.
                """)

        @Argument(help: ArgumentHelp("Folder with takes.json.", valueName: "dir"))
        var directory: String

        @Option(help: ArgumentHelp("The script the takes read (default: the prompter script each take was recorded with).",
                                   valueName: "file"))
        var script: String?

        @Option(help: ArgumentHelp("espeak-ng voice the script is read in for the alignment (default: the synthetic "
                                   + "presenter's, else the script's language).", valueName: "voice"))
        var voice: String?

        @Option(help: ArgumentHelp("Caption file formats, comma-separated: srt, vtt (default both).", valueName: "formats"),
                transform: { text in
                    try text.split(separator: ",").map { name in
                        guard let format = CaptionFormat(rawValue: String(name)) else {
                            throw ValidationError("--format '\(name)' is not a caption format (srt, vtt)")
                        }
                        return format
                    }
                })
        var format: [CaptionFormat] = CaptionFormat.allCases

        func run() throws {
            let request = TakeCaptions.Request(folder: directory, script: script, voice: voice, formats: format)
            _ = try TakeCaptions.write(request) { result in
                let unread = result.unread.isEmpty ? "" : "; not heard: " + result.unread.map { "\"\($0)\"" }.joined(separator: ", ")
                print("\(result.take): \(result.words) words in \(result.cues.count) cues -> "
                      + result.files.joined(separator: ", ") + unread)
            }
        }
    }
}
