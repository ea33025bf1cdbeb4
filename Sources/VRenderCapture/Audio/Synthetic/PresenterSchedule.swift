import VRenderCore
import VRenderPrompter
import VRenderSpeech

/// What the synthetic presenter says during one take, and when: a pure function of the take's
/// start, the prompter's layout and scroll at that start, the script's `flub`/`skip` actions
/// and the voice, made line by line as far as it is asked for.
///
/// A line is started when the scroll brings it to the reading line (`PrompterReading`), but not
/// before the line before it has ended and a breath (`lineGap`) has passed, nor in the first
/// `reaction` seconds of the take. It is spoken at the rate that ends it a breath before the
/// next line is due (175 words per minute or faster, up to 380: past that the presenter falls
/// behind, as people do). Words are the script's (`ScriptWords`), each line spoken as its words
/// joined by spaces, so each word event of the synthesizer names one script word.
struct PresenterSchedule {
    static let reaction = 0.3
    static let lineGap = 0.15
    static let flubPause = 0.6
    static let fastestRate = 380
    /// Loudest sample of a line: the synthetic microphone's voice stays under −12 dBFS, so a
    /// clapper click (−1 dBFS) is the only thing over half scale.
    static let peak: Float = 0.25

    /// One stretch of speech: samples at the synthesizer's rate from `start` (scene seconds).
    struct Utterance {
        var start: Double
        var samples: [Float]
        var end: Double { start + Double(samples.count) / Double(SynthesizedSpeech.sampleRate) }
    }

    let takeStart: Double
    private let text: PrompterText
    private let words: ScriptWords
    private let voice: SpeechVoice
    private var reading: PrompterReading
    private var upcoming: PrompterReading.Due?
    /// `flub`/`skip` actions not yet applied, times from the take's start, in time order.
    private var actions: ArraySlice<(time: Double, action: ActionScript.PresenterAction)>
    /// Made so far, in time order (those that ended before the audio reached them are dropped).
    private(set) var utterances: [Utterance] = []
    /// Words spoken so far (scene times), and the ones skipped.
    private(set) var spoken: [PresenterTakeRecord.Word] = []
    private(set) var skipped: [Int] = []
    /// When the last line made ends (scene seconds).
    private var lastEnd: Double

    init(takeStart: Double, text: PrompterText, reading: PrompterReading, words: ScriptWords, voice: SpeechVoice,
         actions: [(time: Double, action: ActionScript.PresenterAction)]) {
        self.takeStart = takeStart
        self.text = text
        self.words = words
        self.voice = voice
        self.reading = reading
        self.actions = ArraySlice(actions.sorted { $0.time < $1.time })
        lastEnd = takeStart + Self.reaction - Self.lineGap
        upcoming = self.reading.next()
    }

    /// Makes every line that starts before scene time `time`.
    mutating func extend(through time: Double) throws {
        while let due = upcoming {
            let start = Swift.max(due.time, lastEnd + Self.lineGap)
            guard start < time else { return }
            upcoming = reading.next()
            let lineWords = words.words(onLine: due.line, of: text)
            guard !lineWords.isEmpty else { continue }
            switch takeAction(startingAt: start) {
            case .skip?:
                skipped += Array(lineWords)
            case .flub?:
                let broken = lineWords.prefix(Swift.max(1, (lineWords.count + 1) / 2))
                let partEnd = record(try speak(broken, rate: SpeechSynthesizer.normalWordsPerMinute), words: broken, at: start,
                                     flubbed: true)
                try speakFitted(lineWords, at: partEnd + Self.flubPause)
            case nil:
                try speakFitted(lineWords, at: start)
            }
        }
    }

    /// Drops the samples of what ended before scene time `time` (the words stay).
    mutating func forget(before time: Double) {
        guard utterances.first.map({ $0.end < time }) == true else { return }
        utterances.removeAll { $0.end < time }
    }

    /// The next action when it is due by `start`, consumed.
    private mutating func takeAction(startingAt start: Double) -> ActionScript.PresenterAction? {
        guard let first = actions.first, takeStart + first.time <= start else { return nil }
        actions = actions.dropFirst()
        return first.action
    }

    /// Speaks `range` from `start` at the rate that ends it a breath before the next line is
    /// due (or at the normal rate when that is not sooner).
    private mutating func speakFitted(_ range: Range<Int>, at start: Double) throws {
        var phrase = try speak(range, rate: SpeechSynthesizer.normalWordsPerMinute)
        if let next = upcoming {
            let room = next.time - Self.lineGap - start
            if room > 0, phrase.speech.duration > room {
                let normal = Double(SpeechSynthesizer.normalWordsPerMinute)
                phrase = try speak(range, rate: Swift.min(Self.fastestRate, Int((normal * phrase.speech.duration / room).rounded(.up))))
            }
        }
        record(phrase, words: range, at: start, flubbed: false)
    }

    private func speak(_ range: Range<Int>, rate: Int) throws -> SpokenPhrase {
        try SpeechSynthesizer.speak(words: words.words[range].map(\.text), voice: voice, wordsPerMinute: rate)
    }

    /// Keeps `phrase` as an utterance from `start` (at `peak`) and its words' times; returns
    /// when it ends.
    @discardableResult
    private mutating func record(_ phrase: SpokenPhrase, words range: Range<Int>, at start: Double, flubbed: Bool) -> Double {
        let loudest = phrase.speech.samples.reduce(0) { Swift.max($0, abs(Int($1))) }
        let gain = loudest > 0 ? Self.peak / Float(loudest) : 0
        let utterance = Utterance(start: start, samples: phrase.speech.samples.map { Float($0) * gain })
        utterances.append(utterance)
        lastEnd = utterance.end
        let rate = Double(SynthesizedSpeech.sampleRate)
        spoken += phrase.words.map { word in
            let index = range.lowerBound + word.index
            return PresenterTakeRecord.Word(word: index, text: words.words[index].text, start: start + Double(word.start) / rate,
                                            end: start + Double(word.end) / rate, flubbed: flubbed)
        }
        return utterance.end
    }
}
