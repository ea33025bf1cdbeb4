import Testing
import VRenderCore
@testable import VRenderExport

/// Issue 21, item 5: sound after damage keeps its time. Within a take, a frame whose timestamp
/// leaves a hole after the audio before it is preceded by silence, an overlap is cut, and the
/// normal jitter of timestamps (rounding to a container's clock, 44.1 kHz frames) is laid end
/// to end as before. Each take still fills exactly its share of the track.
@Suite struct AudioAlignerGapTests {
    /// One 2 s take at 30 fps, 48 kHz output.
    let timeline = Timeline(durations: [2.0], frameRate: Rational(30, 1))

    struct Totals: Equatable {
        var silence = 0, dropped = 0, kept = 0, padding = 0
        var total: Int { silence + kept + padding }
    }

    /// Feeds frames of `samples` samples at `rate` whose start times are `starts` (seconds
    /// after the take's first picture), with an ideal converter to 48 kHz; returns where each
    /// frame's first kept sample landed and the totals.
    func run(starts: [Double], samples: Int = 1024, rate: Int = 48_000) -> (landed: [Int], totals: Totals) {
        var aligner = AudioAligner(timeline: timeline)
        aligner.beginTake(0)
        var totals = Totals()
        var landed: [Int] = []
        let converted = samples * 48_000 / rate
        for start in starts {
            let cut = aligner.cut(frameStartingAt: start, lasting: Double(samples) / Double(rate))
            totals.silence += cut.silenceBefore
            let dropped = min(cut.dropFirst, converted), kept = max(0, min(converted - dropped, cut.limit))
            landed.append(totals.silence + totals.kept)
            aligner.record(dropped: dropped, kept: kept)
            totals.dropped += dropped
            totals.kept += kept
        }
        totals.padding = aligner.endTake()
        return (landed, totals)
    }

    func evenStarts(count: Int, samples: Int = 1024, rate: Int = 48_000, from first: Double = 0) -> [Double] {
        (0..<count).map { first + Double($0 * samples) / Double(rate) }
    }

    @Test func aHoleInTheTimestampsBecomesSilence() {
        // 20 frames, then 0.2 s of lost frames, then 20 more at their own times.
        let before = evenStarts(count: 20)
        let after = evenStarts(count: 20, from: before.last! + 1024.0 / 48_000 + 0.2)
        let result = run(starts: before + after)
        #expect(result.totals.silence == 9_600)
        #expect(result.landed[20] == 20 * 1024 + 9_600, "the frame after the hole starts at its own time")
        #expect(result.totals.total == timeline.takes[0].sampleCount)
    }

    @Test func anOverlapIsCut() {
        // Frame 20 claims to start 0.1 s before frame 19 ended: its first 4800 samples go.
        let before = evenStarts(count: 20)
        let after = evenStarts(count: 20, from: before.last! + 1024.0 / 48_000 - 0.1)
        let result = run(starts: before + after)
        #expect(result.totals.silence == 0)
        // Cut down to the tolerance: the last few ms of overlap are laid end to end.
        let tolerance = Int(AudioAligner.tolerance * 48_000)
        #expect(result.totals.dropped <= 4_800 && result.totals.dropped >= 4_800 - tolerance, "\(result.totals.dropped)")
        #expect(result.totals.total == timeline.takes[0].sampleCount)
    }

    @Test func jitterWithinTheToleranceIsLaidEndToEnd() {
        // ±5 ms of noise on every timestamp (Matroska rounds to 1 ms), and 44.1 kHz frames on a 90 kHz clock.
        let noisy = evenStarts(count: 80).enumerated().map { $1 + ($0 == 0 ? 0 : $0 % 2 == 0 ? 0.005 : -0.005) }
        let noisyResult = run(starts: noisy)
        #expect(noisyResult.totals.silence == 0 && noisyResult.totals.dropped == 0)
        let transport = evenStarts(count: 80, rate: 44_100).map { ($0 * 90_000).rounded() / 90_000 }
        let transportResult = run(starts: transport, rate: 44_100)
        #expect(transportResult.totals.silence == 0 && transportResult.totals.dropped == 0)
    }

    @Test func earlyFirstFrameStillLosesWhatPrecedesThePicture() {
        // AAC priming: the first frame starts 1024 samples early and the rest follow on.
        let result = run(starts: evenStarts(count: 40, from: -1024.0 / 48_000))
        #expect(result.totals.dropped == 1024)
        #expect(result.totals.silence == 0)
        #expect(result.totals.total == timeline.takes[0].sampleCount)
    }

    /// Issue 36: a take trimmed at its in point is read with audio from before it, and the hole
    /// a take of vrender's has after its AAC priming packet (3200 samples here) may lie in that
    /// early audio. It is cut with the rest, not heard as 67 ms of silence at the in point.
    @Test func aHoleBeforeTheFirstPictureIsCutWithTheEarlyAudio() {
        let first = -0.5
        let rest = evenStarts(count: 60, from: first + (1024.0 + 3200) / 48_000)
        let result = run(starts: [first] + rest)
        #expect(result.totals.silence == 0)
        #expect(result.totals.dropped == 24_000 - 3200, "the early audio less the hole in it")
        #expect(result.totals.total == timeline.takes[0].sampleCount)
    }

    @Test func aHoleAcrossTheFirstPictureIsSilenceOnlyAfterIt() {
        // The first frame starts 2400 samples early; a 4800-sample hole follows it, ending
        // 3424 samples after the first picture, where the next frame lands.
        let first = -0.05
        let rest = evenStarts(count: 60, from: first + (1024.0 + 4800) / 48_000)
        let result = run(starts: [first] + rest)
        #expect(result.totals.dropped == 1024)
        #expect(result.totals.silence == 3424)
        #expect(result.landed[1] == 3424)
        #expect(result.totals.total == timeline.takes[0].sampleCount)
    }
}
