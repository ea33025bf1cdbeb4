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
    /// In order; a word espeak-ng said nothing for (a dash alone) is not among them.
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
            if onsets.last?.index != index { onsets.append((index, event.sample)) }
        }
        let samples = speech.samples
        let loudest = samples.reduce(0) { Swift.max($0, abs(Int($1))) }
        let quiet = Int(Double(loudest) * SpokenPhrase.quiet)
        let spoken = onsets.enumerated().map { position, onset in
            var end = Swift.min(position + 1 < onsets.count ? onsets[position + 1].sample : samples.count, samples.count)
            while end > onset.sample, abs(Int(samples[end - 1])) <= quiet { end -= 1 }
            return SpokenPhrase.Word(index: onset.index, start: onset.sample, end: Swift.max(end, onset.sample))
        }
        return SpokenPhrase(speech: speech, words: spoken)
    }
}
