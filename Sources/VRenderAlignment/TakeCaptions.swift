import VRenderCore
import VRenderImaging
import VRenderMedia
import VRenderPrompter
import VRenderSpeech
import VRenderTakes

/// `vrender takes captions DIR`: each take's captions from the script, without exporting.
///
/// The script is `--script FILE`, or else a copy in the folder of the script the takes were
/// recorded with (takes.json's prompter record names it; a name outside the folder is not
/// followed). Each take is aligned
/// (`ScriptAligner`: with the prompter's scroll when takes.json has it) and its cues written as
/// `captions/<take>.srt` and `.vtt` inside the folder, each atomically. The takes are read
/// through descriptors opened once (`TakesFolder.openTake`) and never written.
public enum TakeCaptions {
    public struct Request: Sendable {
        public var folder: String
        /// `--script`: nil takes the copy in the folder of the script takes.json names.
        public var script: String?
        /// `--voice`: nil takes the synthetic presenter's voice, else the script's language.
        public var voice: String?
        public var formats: [CaptionFormat]

        public init(folder: String, script: String? = nil, voice: String? = nil, formats: [CaptionFormat] = CaptionFormat.allCases) {
            self.folder = folder
            self.script = script
            self.voice = voice
            self.formats = formats
        }
    }

    /// What was written for one take.
    public struct Result: Sendable {
        public var take: String
        public var words: Int
        public var cues: [CaptionCue]
        /// The lines never heard (their text).
        public var unread: [String]
        /// The files written, relative to the folder.
        public var files: [String]
    }

    public static let folderName = "captions"

    /// Aligns and writes every take's captions; `progress` hears each take's result as it is done.
    public static func write(_ request: Request, progress: (Result) -> Void = { _ in }) throws -> [Result] {
        let folder = try FolderHandle.open(request.folder)
        let manifest = try TakesManifest.load(in: folder)
        guard !manifest.takes.isEmpty else { throw VRenderError.input(request.folder, "has no takes (takes.json lists none)") }
        let context = TakeAlignment.Context(script: try request.script.map { try PrompterScript(contentsOfFile: $0) },
                                            voice: try request.voice.map { try SpeechVoice(named: $0) }, font: try TextFont())
        let output = try folder.folder(folderName, create: true, as: .output)
        return try manifest.takes.enumerated().map { number, take in
            let file = try TakesFolder.openTake(take.file, in: folder, entry: number + 1)
            let aligned: TakeAlignment
            do {
                aligned = try TakeAlignment.align(path: file.readablePath, name: take.file, entry: take, number: number + 1,
                                                  folder: folder, context: context)
            } catch {
                throw HeldFile.naming(error, [file])   // the take's name, not the descriptor it was read through
            }
            let cues = CaptionCues.cues(for: aligned.alignment.words, script: aligned.words)
            let base = String(take.file.split(separator: "/").last ?? "").split(separator: ".").dropLast().joined(separator: ".")
            let files = try request.formats.map { format in
                let name = base + "." + format.rawValue
                try Array(format.text(cues).utf8).withUnsafeBytes { try AtomicFile.write($0, in: output, name: name) }
                return folderName + "/" + name
            }
            let result = Result(take: take.file, words: aligned.alignment.words.count, cues: cues, unread: aligned.unread, files: files)
            progress(result)
            return result
        }
    }
}
