import VRenderCore
import VRenderMedia
import VRenderPrompter
import VRenderSpeech

/// Aligns a script to a take's sound without a trained model: each line of the script is
/// synthesized with espeak-ng and found in the take by dynamic time warping on spectral
/// features (`SubsequenceMatch`), in a window of the sound where it can be: after the line
/// before it, and, when the prompter's scroll is known, around the moment the line reached the
/// reader. Its words' times follow the warping path. Linear in the take's length: each line
/// is matched in a window of a few seconds.
public enum ScriptAligner {
    /// A line matched at a higher mean cost than this was not read (the take says something
    /// else there, or nothing).
    static let unreadCost = 20.0
    /// A line said in less than `shortLine` seconds (a word or two) matches any speech more
    /// loosely: it must match closer. (Measured on 30 s takes: such lines read matched at 8 to
    /// 14, a one-word line the take never reached at 19, in the speech a take's end cut off.)
    static let shortLine = 0.8
    static let shortUnreadCost = 16.0
    /// A cost at or below this is a reading as close as a synthetic voice gets (confidence 1).
    static let goodCost = 10.0
    /// Seconds before a line is due that it may be read (the reader glances ahead), and after
    /// it that it may still come (the reader is behind).
    static let early = 1.0
    static let late = 6.0

    /// A line whose words take less than this share of their synthesized length in the take
    /// was not read: matched with the line after it, it shrank to nothing before that one.
    static let shortestReading = 0.25

    /// Aligns `script` (its words: `ScriptWords(script.text)`) to `take`, in `voice`.
    /// Throws what reading the take's sound or speaking throws.
    public static func align(_ take: AlignmentTake, script: ScriptPlan, voice: SpeechVoice) throws -> ScriptAlignment {
        let sound = TakeSound(take)
        var cursor = 0
        var lines: [ScriptAlignment.Line] = []
        var words: [ScriptAlignment.Word] = []
        var retakes: [Retake] = []
        // Two lines' speech at a time, whatever the script's length.
        var upcoming = try script.lines.first.map { try speak($0, of: script, voice: voice) }
        for (index, line) in script.lines.enumerated() {
            guard let phrase = upcoming else { break }
            let context = index + 1 < script.lines.count ? try speak(script.lines[index + 1], of: script, voice: voice) : nil
            upcoming = context
            let (reading, found) = try read(line, phrase, followedBy: context, in: sound, after: cursor, script: script, voice: voice)
            guard let reading else {
                lines.append(ScriptAlignment.Line(words: line.words, start: nil, end: nil, cost: found?.cost ?? .infinity,
                                                  contrast: found?.contrast ?? 1))
                continue
            }
            let previousEnd = words.last?.end ?? 0
            let fitted = try SoundEdges.fitted(reading.found.words(of: reading.phrase, from: line.words.lowerBound), in: sound,
                                               after: previousEnd)
            let placed = try uncut(fitted, of: reading.phrase, in: sound)
            lines.append(ScriptAlignment.Line(words: line.words, start: placed.first?.start, end: placed.last?.end,
                                              cost: reading.found.cost, contrast: reading.found.contrast))
            if let first = placed.first, let retake = try RetakeFinder.find(line: lines.count - 1, words: line.words, phrase: reading.phrase,
                                                                          readingStart: first.start, after: previousEnd, in: sound) {
                retakes.append(retake)
            }
            words += placed
            cursor = SpeechFeatures.frame(at: placed.last?.end ?? 0)
            // What lies a second behind the cursor is looked at no more (retakes and edges look
            // back to the last word's end, and a little before).
            sound.forget(before: cursor - SpeechFeatures.frame(at: 1))
        }
        return ScriptAlignment(words: words, lines: lines, retakes: retakes)
    }

    /// Where `line` (said as `phrase`) is read in the take from frame `cursor` on, and the
    /// speech it was found as (its beginning, where the take's end cut it off); nil when it
    /// was not read. Also the best match found, read or not.
    private static func read(_ line: ScriptPlan.Line, _ phrase: SpokenPhrase, followedBy context: SpokenPhrase?, in sound: TakeSound,
                             after cursor: Int, script: ScriptPlan, voice: SpeechVoice) throws
        -> (reading: (found: Found, phrase: SpokenPhrase)?, best: Found?) {
        // Each line is looked for followed by the next: a line never read then shrinks to
        // nothing before the next one instead of matching whatever speech is near.
        var found = try find(phrase, followedBy: context, line: line, in: sound, after: cursor)
        // Near the take's end the next line may not be in it at all (or not all of it): then
        // the line alone. The next line comes when it is due, and not before this one is said.
        let contextEnd = Swift.max(line.nextDue ?? 0, SpeechFeatures.time(ofFrame: cursor) + phrase.speech.duration)
            + (context?.speech.duration ?? 0)
        if context != nil, try sound.ends(before: SpeechFeatures.frame(at: contextEnd)), found.map({ !isReading($0, of: phrase) }) ?? true {
            found = try find(phrase, followedBy: nil, line: line, in: sound, after: cursor)
        }
        let reading = found.flatMap { isReading($0, of: phrase) ? (found: $0, phrase: phrase) : nil }
        // A line the take's end cut off matches whole only with its unsaid words squeezed into
        // the last frames, and the said ones with them: its beginning matches better.
        if let reading, try uncut(reading.found.words(of: phrase, from: 0), of: phrase, in: sound).count == phrase.words.count {
            return (reading, found)
        }
        let cut = try cutOffReading(of: line, phrase, in: sound, after: cursor, script: script, voice: voice)
        return (cut ?? reading, found)
    }

    /// `placed` less the words the take's end cut off: a line the take stopped in the middle of
    /// matches whole, its unsaid words squeezed into the last frames. Those ending near the
    /// take's end in less than half the time espeak-ng takes to say them were not said.
    static func uncut(_ placed: [ScriptAlignment.Word], of phrase: SpokenPhrase, in sound: TakeSound) throws -> [ScriptAlignment.Word] {
        guard let takeEnd = try sound.end(before: (placed.last?.end ?? 0) + lastFrames + 0.1) else { return placed }
        var kept = placed
        while let last = kept.last, kept.count > 1, last.end >= takeEnd - lastFrames {
            let word = phrase.words[kept.count - 1]
            let said = Double(word.end - word.start) / Double(SynthesizedSpeech.sampleRate)
            guard last.end - last.start < said / 2 else { break }
            kept.removeLast()
        }
        return kept
    }

    /// The first words of a line the take's end cut off, and their speech: the longest of the
    /// line's beginnings (of those the take had time for, said up to a fifth faster than
    /// espeak-ng says them) that the take's last seconds read. Nil when none of them reads.
    private static func cutOffReading(of line: ScriptPlan.Line, _ phrase: SpokenPhrase, in sound: TakeSound, after cursor: Int,
                                      script: ScriptPlan, voice: SpeechVoice) throws -> (found: Found, phrase: SpokenPhrase)? {
        let begins = Swift.max(SpeechFeatures.time(ofFrame: cursor), (line.due ?? 0) - early)
        // A take that goes on for longer than the line and the window after it did not cut it.
        guard let takeEnd = try sound.end(before: begins + phrase.speech.duration + late) else { return nil }
        let left = (takeEnd - begins) * 1.2
        let rate = Double(SynthesizedSpeech.sampleRate)
        let begun = Swift.min(line.words.count - 1, phrase.words.filter { Double($0.start) / rate < left }.count)
        for count in stride(from: begun, through: 1, by: -1) {
            let words = script.words.words[line.words.lowerBound..<line.words.lowerBound + count].map(\.text)
            let prefix = try SpeechSynthesizer.speak(words: words, voice: voice)
            let found = try find(prefix, followedBy: nil, line: line, in: sound, after: cursor)
            if let found, isReading(found, of: prefix) {
                return (found, prefix)
            }
        }
        return nil
    }

    /// How near the take's end the words squeezed into its last frames end (measured on 30 s
    /// takes: up to 0.24 s before it).
    static let lastFrames = 0.3

    /// Whether `found` is a reading of `phrase`: close enough, and not shrunk to nothing.
    private static func isReading(_ found: Found, of phrase: SpokenPhrase) -> Bool {
        let placed = found.words(of: phrase, from: 0)
        let length = (placed.last?.end ?? 0) - (placed.first?.start ?? 0)
        let said = Double((phrase.words.last?.end ?? 0) - (phrase.words.first?.start ?? 0)) / Double(SynthesizedSpeech.sampleRate)
        return found.cost <= (said < shortLine ? shortUnreadCost : unreadCost) && length >= shortestReading * said
    }

    /// A line's words as espeak-ng says them at the normal rate.
    private static func speak(_ line: ScriptPlan.Line, of script: ScriptPlan, voice: SpeechVoice) throws -> SpokenPhrase {
        try SpeechSynthesizer.speak(words: script.words.words[line.words].map(\.text), voice: voice)
    }

    /// Where `phrase` (then `context`, the next line, when there is one) is said in the take,
    /// from frame `cursor` on: nil when the window left is too short.
    private static func find(_ phrase: SpokenPhrase, followedBy context: SpokenPhrase?, line: ScriptPlan.Line,
                             in sound: TakeSound, after cursor: Int) throws -> Found? {
        let breath = [Int16](repeating: 0, count: SynthesizedSpeech.sampleRate / 5)
        let samples = phrase.speech.samples + (context.map { breath + $0.speech.samples } ?? [])
        let reference = try FeatureExtractor.features(of: samples.map { Float($0) / 32_768 })
        let contextFrames = context.map { SpeechFeatures.frame(at: $0.speech.duration + 0.2) } ?? 0
        let window = try sound.clamped(Self.window(for: line, cursor: cursor, referenceFrames: reference.frameCount - contextFrames,
                                                   extra: contextFrames * 2))
        guard reference.frameCount > 0, window.count > reference.frameCount / 3 else { return nil }
        let match = SubsequenceMatch.find(reference, in: sound.values(window))
        return Found(match: match, window: window)
    }

    /// A match and the window it was found in.
    private struct Found {
        var match: SubsequenceMatch
        var window: Range<Int>
        var cost: Double { Double(match.cost) }
        var contrast: Double { Double(match.contrast) }
        var confidence: Double { Swift.min(1, Swift.max(0, (unreadCost - cost) / (unreadCost - goodCost))) }

        /// `phrase`'s words where the match puts them, numbered from `first`.
        func words(of phrase: SpokenPhrase, from first: Int) -> [ScriptAlignment.Word] {
            phrase.words.map { word in
                ScriptAlignment.Word(word: first + word.index, start: time(word.start), end: time(word.end), confidence: confidence)
            }
        }

        /// The take's time of reference sample `sample`: its frame, through the match's path.
        func time(_ sample: Int) -> Double {
            let frame = Swift.min(match.frames.count - 1, SpeechFeatures.frame(at: Double(sample) / Double(SynthesizedSpeech.sampleRate)))
            return SpeechFeatures.time(ofFrame: window.lowerBound + match.frames[frame])
        }
    }

    /// The take's frames a line is looked for in.
    static func window(for line: ScriptPlan.Line, cursor: Int, referenceFrames: Int, extra: Int) -> Range<Int> {
        let slack = referenceFrames * 2 + extra + SpeechFeatures.frame(at: 3)
        var start = cursor
        var end = cursor + slack
        if let due = line.due {
            start = Swift.max(cursor, SpeechFeatures.frame(at: due - early))
            end = Swift.max(start + slack, SpeechFeatures.frame(at: (line.nextDue ?? due) + late) + extra)
        }
        return start..<Swift.max(start, end)
    }
}

/// The take `ScriptAligner` reads.
public struct AlignmentTake: Sendable {
    public var path: String
    /// Its audio stream's index in the file.
    public var audioStream: Int
    /// Its first picture's time on the file's clock (what the alignment's times count from).
    public var origin: Double

    public init(path: String, audioStream: Int, origin: Double) {
        self.path = path
        self.audioStream = audioStream
        self.origin = origin
    }
}
