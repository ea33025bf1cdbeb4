import VRenderSpeech

/// A line the presenter began, broke off and read again from its start: the broken reading
/// (its first words), and what `--cut-retakes` removes so that only the finished reading is
/// heard.
public struct Retake: Sendable, Equatable, Codable {
    /// The line's index in `ScriptAlignment.lines`.
    public var line: Int
    /// The script's words the broken reading said.
    public var words: Range<Int>
    /// Where the broken reading was said (seconds from the take's first picture).
    public var start: Double
    public var end: Double
    /// What is cut: from the broken reading's start to a breath before the finished one.
    public var cut: Range<Double>
}

/// Finds broken readings: speech in the quiet before a line's reading that matches the line's
/// first words (the line's own synthesized reading, cut after them) found by the same
/// warping as the alignment. Anything else said there (a cough, an aside) matches no prefix
/// and stays.
enum RetakeFinder {
    /// The shortest stretch before a reading worth looking in (a breath is shorter).
    static let shortestGap = 0.4
    /// A prefix matched at a higher cost than this is not the line's words. Stricter than a
    /// line's (`ScriptAligner.unreadCost`): a prefix is short, so more speech would match it loosely.
    static let matchCost = 16.0
    /// Quiet kept before the finished reading, so the cut sounds like a breath.
    static let breath = 0.15
    /// Taken before the broken reading's first matched frame: a word's onset is softer than the
    /// frames that match it.
    static let margin = 0.1

    /// The broken reading of `line` (said as `phrase`, found finished at `readingStart`) in the
    /// take's sound after `after` seconds, or nil.
    static func find(line index: Int, words: Range<Int>, phrase: SpokenPhrase, readingStart: Double, after: Double,
                     in sound: TakeSound) throws -> Retake? {
        // (A line's reading may be placed to overlap the line before's: then there is no gap.)
        guard readingStart - after - 0.1 >= shortestGap, !phrase.words.isEmpty else { return nil }
        let gap = (after + 0.05)..<(readingStart - 0.05)
        // A reading placed at the sound's very end may leave a gap past its last frame.
        let window = try sound.clamped(SpeechFeatures.frame(at: gap.lowerBound)..<SpeechFeatures.frame(at: gap.upperBound))
        guard window.count > 10 else { return nil }
        let rate = Double(SynthesizedSpeech.sampleRate)
        // The longest prefix that is said there: a longer one is more surely the line's.
        for count in stride(from: phrase.words.count, through: 1, by: -1) {
            let end = phrase.words[count - 1].end
            let seconds = Double(end - phrase.words[0].start) / rate
            guard seconds >= 0.15, seconds <= (gap.upperBound - gap.lowerBound) * 1.5 else { continue }
            let samples = phrase.speech.samples[phrase.words[0].start..<end].map { Float($0) / 32_768 }
            let reference = try FeatureExtractor.features(of: samples)
            guard reference.frameCount > 2 else { continue }
            let match = SubsequenceMatch.find(reference, in: sound.values(window))
            let start = SpeechFeatures.time(ofFrame: window.lowerBound + match.start)
            let stop = SpeechFeatures.time(ofFrame: window.lowerBound + match.end)
            guard Double(match.cost) <= matchCost, stop - start >= seconds * 0.4 else { continue }
            let cutEnd = Swift.max(stop, readingStart - breath)
            return Retake(line: index, words: words.lowerBound..<words.lowerBound + count, start: start, end: stop,
                          cut: Swift.max(after + 0.02, start - margin)..<cutEnd)
        }
        return nil
    }
}
