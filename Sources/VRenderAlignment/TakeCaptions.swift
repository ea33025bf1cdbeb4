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
        let given = try request.script.map { try PrompterScript(contentsOfFile: $0) }
        let chosenVoice = try request.voice.map { try SpeechVoice(named: $0) }
        let font = try TextFont()
        let output = try folder.folder(folderName, create: true, as: .output)
        return try manifest.takes.enumerated().map { number, take in
            let script = try given ?? recordedScript(of: take, number: number + 1, in: folder)
            let voice = try chosenVoice ?? take.presenter.map { try SpeechVoice(named: $0.voice, option: "takes.json's presenter voice") }
                ?? SpeechVoice.guess(for: script.text)
            let file = try TakesFolder.openTake(take.file, in: folder, entry: number + 1)
            let info = try VRenderError.attributing(to: take.file, as: .input) { try Probe.probe(file.readablePath) }
            guard let audio = info.audio else {
                throw VRenderError.input(take.file, "has no sound to align the script to")
            }
            let plan = take.prompter.map {
                ScriptPlan.prompted(script: script.text, record: $0, preroll: take.preroll, duration: take.duration,
                                    width: take.width, height: take.height, font: font)
            } ?? ScriptPlan.unprompted(script: script.text)
            let alignment = try ScriptAligner.align(AlignmentTake(path: file.readablePath, audioStream: audio.index,
                                                                  origin: info.video.startTime), script: plan, voice: voice)
            let texts = plan.words.words.map(\.text)
            let cues = CaptionCues.cues(for: alignment.words, script: texts)
            let base = String(take.file.split(separator: "/").last ?? "").split(separator: ".").dropLast().joined(separator: ".")
            let files = try request.formats.map { format in
                let name = base + "." + format.rawValue
                try Array(format.text(cues).utf8).withUnsafeBytes { try AtomicFile.write($0, in: output, name: name) }
                return folderName + "/" + name
            }
            let result = Result(take: take.file, words: alignment.words.count, cues: cues,
                                unread: alignment.unread.map { texts[$0.words].joined(separator: " ") }, files: files)
            progress(result)
            return result
        }
    }

    /// The script take `number` was recorded with, when a file of the name its prompter record
    /// keeps lies in the takes folder itself. A name anywhere else is not followed: takes.json
    /// may come from anyone, and must not choose which of the user's files is read.
    private static func recordedScript(of take: TakeEntry, number: Int, in folder: FolderHandle) throws -> PrompterScript {
        guard let recorded = take.prompter?.script else {
            throw VRenderError.option("--script", "take \(number) (\(take.file)) was recorded without the prompter: "
                                      + "give the script it reads with --script FILE")
        }
        let name = String(recorded.split(separator: "/").last ?? "")
        guard !name.isEmpty, name != "..", folder.status(name) != nil else {
            throw VRenderError.option("--script", "take \(number) was recorded with the prompter script '\(recorded)': "
                                      + "give it with --script FILE (or put a copy named \(name.isEmpty ? "like it" : name) in the folder)")
        }
        let data = try folder.readFile(name, limit: PrompterScript.maximumBytes)
        guard let text = String(validating: data, as: UTF8.self) else {
            throw VRenderError.input(folder.join(name), "the prompter script is not UTF-8 text")
        }
        return PrompterScript(name: name, text: PrompterScript.cleaned(text))
    }
}
