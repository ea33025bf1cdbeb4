import Foundation
import VRenderAlignment
import VRenderCore
import VRenderImaging
import VRenderPrompter
import VRenderSpeech

/// Where `--captions` puts an export's captions.
public enum CaptionOutput: String, Sendable, Codable, CaseIterable {
    /// `export.srt` beside the output.
    case srt
    /// `export.vtt` beside the output.
    case vtt
    /// A subtitle stream in the output: mov_text in .mov/.mp4, WebVTT in .mkv/.webm.
    case track
    /// Drawn into the pictures (a transcode).
    case burn

    /// `--captions`'s value: any of srt, vtt, track, burn, comma-separated, each once.
    public static func parse(_ text: String) throws -> [CaptionOutput] {
        var outputs: [CaptionOutput] = []
        for name in text.lowercased().split(separator: ",", omittingEmptySubsequences: false) {
            guard let output = CaptionOutput(rawValue: name.trimmingCharacters(in: .whitespaces)) else {
                throw VRenderError.option("--captions", "'\(name)' is none of srt, vtt, track, burn (e.g. --captions srt,track)")
            }
            if !outputs.contains(output) { outputs.append(output) }
        }
        return outputs
    }

    /// The caption file's format, for the two that are files beside the output.
    var fileFormat: CaptionFormat? {
        switch self {
        case .srt: .srt
        case .vtt: .vtt
        case .track, .burn: nil
        }
    }
}

/// What an export does with the script the takes read (`--captions`, `--cut-retakes`): its
/// words placed on each take's voice (`TakeAlignment`) and carried through every cut the
/// export makes, written as asked; lines broken off and read again cut.
public struct ScriptRequest: Sendable {
    /// Where the captions go (none: `--cut-retakes` alone).
    public var captions: [CaptionOutput]
    /// `--cut-retakes`: each line's broken readings cut, its last one kept.
    public var cutRetakes: Bool
    /// `--script`: nil takes, for each take, the script takes.json says it was recorded with.
    public var script: PrompterScript?
    /// `--voice`: nil takes each take's presenter's voice, else the script's language.
    public var voice: SpeechVoice?

    public init(captions: [CaptionOutput], cutRetakes: Bool = false, script: PrompterScript? = nil, voice: SpeechVoice? = nil) {
        (self.captions, self.cutRetakes, self.script, self.voice) = (captions, cutRetakes, script, voice)
    }

    /// `[--captions OUTPUTS] [--cut-retakes] [--script FILE] [--voice NAME]` as typed: the
    /// script read (UTF-8, cleaned as the prompter cleans it) and the voice checked, each
    /// error naming its option.
    public init(parsing captions: String?, cutRetakes: Bool, script: String?, voice: String?) throws {
        self.init(captions: try captions.map(CaptionOutput.parse) ?? [], cutRetakes: cutRetakes,
                  script: try script.map { try PrompterScript(contentsOfFile: $0) }, voice: try voice.map { try SpeechVoice(named: $0) })
    }

    /// How each take is aligned.
    func context(font: TextFont) -> TakeAlignment.Context {
        TakeAlignment.Context(script: script, voice: voice, font: font)
    }
}

/// The captions an export writes, on the output's clock: worked out once, when the export is
/// planned (a chunked export's plan keeps them, so that no worker aligns again).
public struct CaptionTrack: Sendable, Equatable, Codable {
    public var outputs: [CaptionOutput]
    /// ISO 639-2, the script's language; empty when not known.
    public var language: String
    public var cues: [CaptionCue]

    public init(outputs: [CaptionOutput], language: String, cues: [CaptionCue]) {
        (self.outputs, self.language, self.cues) = (outputs, language, cues)
    }

    /// Why a track read from a file vrender did not write itself (a chunk plan) cannot be one
    /// it made: nil when it is plausible.
    public var implausibility: String? {
        if cues.count > 1_000_000 { return "holds more cues than any export has" }
        if language.count > 3 || !language.allSatisfy({ $0.isASCII && $0.isLowercase }) { return "holds a language that is not ISO 639-2" }
        var previous = -Double.infinity
        for cue in cues {
            guard cue.start.isFinite, cue.end.isFinite, cue.start >= previous, cue.end > cue.start, cue.end - cue.start <= 3600 else {
                return "holds a cue whose times are out of order or not times"
            }
            guard (1...2).contains(cue.lines.count), cue.lines.allSatisfy({ $0.utf8.count <= 4 * CaptionCues.lineLength && !$0.contains("\0") })
            else { return "holds a cue of more than two lines, or a line too long for one" }
            previous = cue.start
        }
        return nil
    }

    /// The files beside `output` this writes: `talk.srt` for `talk.mov`.
    public func files(beside output: String) -> [(format: CaptionFormat, path: String)] {
        let base = (output as NSString).deletingPathExtension
        return outputs.compactMap(\.fileFormat).map { ($0, base + "." + $0.rawValue) }
    }
}
