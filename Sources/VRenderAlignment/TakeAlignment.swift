import VRenderCore
import VRenderImaging
import VRenderMedia
import VRenderPrompter
import VRenderSpeech
import VRenderTakes

/// One take's script placed on its voice: the one way `vrender takes captions` and an export's
/// `--captions` choose the script, the voice and the prompter's scroll for a take, then align.
public struct TakeAlignment: Sendable {
    /// Where each word and line was said, on the take's clock (seconds from its first picture).
    public var alignment: ScriptAlignment
    /// The script's words, as the alignment's indices count them.
    public var words: [String]
    /// The line of the script file each word is on, from 1.
    public var scriptLines: [Int]
    public var voice: SpeechVoice

    /// What a take is aligned with, beyond its sound.
    public struct Context: Sendable {
        /// `--script`: nil takes the copy in the takes folder of the script `entry` was recorded with.
        public var script: PrompterScript?
        /// `--voice`: nil takes the synthetic presenter's voice, else the script's language.
        public var voice: SpeechVoice?
        public var font: TextFont

        public init(script: PrompterScript?, voice: SpeechVoice?, font: TextFont) {
            (self.script, self.voice, self.font) = (script, voice, font)
        }
    }

    /// Aligns the take read at `path` (a take file or a descriptor's `/proc/self/fd/N`),
    /// named `name` in errors. `entry`: its takes.json record, nil for a file vrender did not
    /// record (then `context.script` is needed); `folder`: the takes folder, where a recorded
    /// script's copy is looked for.
    public static func align(path: String, name: String, entry: TakeEntry?, number: Int, folder: FolderHandle?,
                             context: Context) throws -> TakeAlignment {
        let script = try context.script ?? recordedScript(of: entry, name: name, number: number, in: folder)
        let voice = try context.voice ?? entry?.presenter.map { try SpeechVoice(named: $0.voice, option: "takes.json's presenter voice") }
            ?? SpeechVoice.guess(for: script.text)
        let info = try VRenderError.attributing(to: name, as: .input) { try Probe.probe(path) }
        guard let audio = info.audio else {
            throw VRenderError.input(name, "has no sound to align the script to")
        }
        let plan = entry.flatMap { entry in
            entry.prompter.map {
                ScriptPlan.prompted(script: script.text, record: $0, preroll: entry.preroll, duration: entry.duration,
                                    width: entry.width, height: entry.height, font: context.font)
            }
        } ?? ScriptPlan.unprompted(script: script.text)
        let alignment = try ScriptAligner.align(AlignmentTake(path: path, audioStream: audio.index, origin: info.video.startTime),
                                                script: plan, voice: voice)
        return TakeAlignment(alignment: alignment, words: plan.words.words.map(\.text),
                             scriptLines: plan.words.words.map { $0.paragraph + 1 }, voice: voice)
    }

    /// The text of each line never heard.
    public var unread: [String] {
        alignment.unread.map { words[$0.words].joined(separator: " ") }
    }

    /// The script take `number` was recorded with, when a file of the name its prompter record
    /// keeps lies in the takes folder itself. A name anywhere else is not followed: takes.json
    /// may come from anyone, and must not choose which of the user's files is read.
    private static func recordedScript(of entry: TakeEntry?, name: String, number: Int, in folder: FolderHandle?) throws -> PrompterScript {
        guard let recorded = entry?.prompter?.script else {
            throw VRenderError.option("--script", "take \(number) (\(name)) was recorded without the prompter: "
                                      + "give the script it reads with --script FILE")
        }
        let scriptName = String(recorded.split(separator: "/").last ?? "")
        guard let folder, !scriptName.isEmpty, scriptName != "..", folder.status(scriptName) != nil else {
            throw VRenderError.option("--script", "take \(number) was recorded with the prompter script '\(recorded)': "
                                      + "give it with --script FILE (or put a copy named \(scriptName.isEmpty ? "like it" : scriptName) "
                                      + "in the takes folder)")
        }
        let data = try folder.readFile(scriptName, limit: PrompterScript.maximumBytes)
        guard let text = String(validating: data, as: UTF8.self) else {
            throw VRenderError.input(folder.join(scriptName), "the prompter script is not UTF-8 text")
        }
        return PrompterScript(name: scriptName, text: PrompterScript.cleaned(text))
    }
}
