import Testing
import VRenderSpeech
@testable import VRenderAlignment

/// The matcher alone: a phrase spoken faster, placed in silence, found by its slower reading.
@Suite struct SubsequenceMatchTests {
    @Test func aFasterReadingIsFoundWordByWord() throws {
        let words = "Today we will look at three things, how a camera delivers frames".split(separator: " ").map(String.init)
        let fast = try SpeechSynthesizer.speak(words: words, voice: .english, wordsPerMinute: 260)
        let reference = try SpeechSynthesizer.speak(words: words, voice: .english)
        let rate = Double(SynthesizedSpeech.sampleRate)
        let lead = Int(1.5 * rate)
        var take = [Float](repeating: 0, count: lead) + fast.speech.samples.map { Float($0) / 32_768 * 0.5 }
        take += [Float](repeating: 0, count: Int(rate))
        let takeFeatures = try FeatureExtractor.features(of: take)
        let referenceFeatures = try FeatureExtractor.features(of: reference.speech.samples.map { Float($0) / 32_768 })
        let match = SubsequenceMatch.find(referenceFeatures, in: takeFeatures.values[...])
        var errors: [Double] = []
        for (truth, word) in zip(fast.words, reference.words) {
            let frame = SpeechFeatures.frame(at: Double(word.start) / rate)
            let found = SpeechFeatures.time(ofFrame: match.frames[Swift.min(frame, match.frames.count - 1)])
            errors.append(found - (Double(lead + truth.start) / rate))
        }
        #expect(errors.allSatisfy { abs($0) < 0.07 }, "\(errors)")
        #expect(match.contrast < 0.7)
    }
}

/// `RetakeFinder` on the edges a long take reaches: a reading placed over the end of the one
/// before it, or a gap past the sound's last frame, finds nothing (and never traps).
@Suite struct RetakeFinderEdgeTests {
    @Test func overlappingOrOutOfRangeGapsFindNothing() throws {
        let phrase = try SpeechSynthesizer.speak(words: ["keep", "the", "lips", "in", "step."], voice: .english)
        let sound = try FeatureExtractor.features(of: phrase.speech.samples.map { Float($0) / 32_768 })
        let end = SpeechFeatures.time(ofFrame: sound.frameCount)
        #expect(try RetakeFinder.find(line: 0, words: 0..<5, phrase: phrase, readingStart: 1.0, after: 1.2, in: TakeSound(loaded: sound)) == nil)
        #expect(try RetakeFinder.find(line: 0, words: 0..<5, phrase: phrase, readingStart: end + 3, after: end + 1, in: TakeSound(loaded: sound)) == nil)
    }
}
