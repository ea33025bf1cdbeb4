import Foundation
import Testing
import VRenderMedia
import VRenderTestSupport
@testable import VRenderAlignment

/// The take's features as the aligner reads them: the same as the whole take's, read a
/// second at a time, in memory that does not grow with the take.
@Suite struct TakeSoundTests {
    @Test func streamedFeaturesAreTheWholeTakesAndTheirMemoryIsBounded() throws {
        let path = TestMedia.scratchDirectory() + "/tone.m4a"
        // 120 s of a warbling tone with a click every second: longer than what is let go of at once.
        let made = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-f", "lavfi", "-i",
                                                     "aevalsrc='0.3*sin(2*PI*(300+100*sin(3*t))*t)+0.9*lt(mod(t\\,1)\\,0.005)':s=22050:d=120",
                                                     "-c:a", "aac", path])
        try #require(made.status == 0, "\(made.standardError)")
        let extractor = try FeatureExtractor()
        try MonoSound.read(path: path, stream: 0, from: 0, rate: SpeechFeatures.rate, block: 4_096) { extractor.append($0) }
        extractor.finish()
        var whole = extractor.features
        whole.removeClicks(in: 0..<whole.frameCount)

        let sound = TakeSound(AlignmentTake(path: path, audioStream: 0, origin: 0))
        var most = 0
        for start in stride(from: 0, to: whole.frameCount, by: 250) {
            let window = try sound.clamped(start..<start + 800)
            #expect(Array(sound.values(window)) == Array(whole.values[window.lowerBound * SpeechFeatures.count..<window.upperBound * SpeechFeatures.count]),
                    "frames \(window)")
            #expect(Array(sound.loudness(window)) == Array(whole.loudness[window]))
            most = max(most, sound.heldFrames)
            sound.forget(before: start - 100)
        }
        #expect(sound.ended && sound.loadedEnd == whole.frameCount)
        #expect(try sound.end(before: 125) == SpeechFeatures.time(ofFrame: whole.frameCount))
        #expect(try sound.end(before: 115) == nil)
        // What is held: the window and the step to the next, what lies behind it until it is
        // let go of, and the rest of the piece that reached past it.
        #expect(most <= 800 + 250 + 100 + TakeSound.forgetAtLeast + TakeSound.pieceFrames, "\(most) frames held")
        #expect(whole.frameCount > 2 * most)
    }
}
