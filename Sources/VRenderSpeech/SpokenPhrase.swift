/// Words spoken as one phrase, and where each one's sound begins and ends in it: what the
/// synthetic presenter says and what captions are aligned against.
public struct SpokenPhrase: Sendable, Equatable {
    public struct Word: Sendable, Equatable {
        /// Which of the words given (their index).
        public var index: Int
        /// The sample its first word event is at, and the sample after its last one louder
        /// than `quiet` of the phrase's peak before the next word begins.
        public var start: Int
        public var end: Int
    }

    /// A word's sound has ended after its last sample above this share of the phrase's
    /// loudest (−40 dB: below that is breath and the synthesizer's decay).
    public static let quiet = 0.01

    public var speech: SynthesizedSpeech
    /// Every word given, in order. One espeak-ng gave no event of its own (an "a" it ran into
    /// the word before, a dash) has a share of the word before's sound, by length.
    public var words: [Word]
}

extension SpeechSynthesizer {
    /// Speaks `words` joined by single spaces. Several word events inside one word ("3.5",
    /// read as three words) count as one.
    public static func speak(words: [String], voice: SpeechVoice,
                             wordsPerMinute rate: Int = normalWordsPerMinute) throws -> SpokenPhrase {
        var offsets: [Int] = []   // each word's first scalar in the phrase
        var offset = 0
        for word in words {
            offsets.append(offset)
            offset += word.unicodeScalars.count + 1
        }
        let speech = try speak(words.joined(separator: " "), voice: voice, wordsPerMinute: rate)
        var onsets: [(index: Int, sample: Int)] = []
        for event in speech.words {
            let index = (offsets.lastIndex { $0 <= event.characterOffset } ?? 0)
            if onsets.last.map({ $0.index < index }) ?? true { onsets.append((index, event.sample)) }
        }
        let samples = speech.samples
        let loudest = samples.reduce(0) { Swift.max($0, abs(Int($1))) }
        let quiet = Int(Double(loudest) * SpokenPhrase.quiet)
        func soundEnd(from start: Int, before limit: Int) -> Int {
            var end = Swift.min(limit, samples.count)
            while end > start, abs(Int(samples[end - 1])) <= quiet { end -= 1 }
            return Swift.max(end, start)
        }
        var spoken: [SpokenPhrase.Word] = []
        for (position, onset) in onsets.enumerated() {
            // Words espeak-ng gave no event of their own ("a" run into "at", a dash) share the
            // span of the word before them, by their length.
            let next = position + 1 < onsets.count ? onsets[position + 1] : (index: words.count, sample: samples.count)
            let end = soundEnd(from: onset.sample, before: next.sample)
            let group = onset.index..<Swift.max(onset.index + 1, next.index)
            let weights = group.map { Double(words[$0].unicodeScalars.count + 1) }
            let total = weights.reduce(0, +)
            var start = Double(onset.sample)
            for (offset, index) in group.enumerated() {
                let share = (Double(end - onset.sample) * weights[offset] / total)
                let wordEnd = offset == group.count - 1 ? end : Int((start + share).rounded())
                spoken.append(SpokenPhrase.Word(index: index, start: Int(start.rounded()), end: wordEnd))
                start += share
            }
        }
        // Words before the first event (none usually) start and end where it does.
        if let first = onsets.first, first.index > 0 {
            spoken.insert(contentsOf: (0..<first.index).map { SpokenPhrase.Word(index: $0, start: first.sample, end: first.sample) },
                          at: 0)
        }
        return SpokenPhrase(speech: speech, words: spoken)
    }
}
