import Testing
import VRenderCore
@testable import VRenderExport

/// One take's audio as the audio stage meets it: decoded frames of `frameSamples` samples at
/// `sourceRate`, the first starting `start` seconds after the take's first picture (nil: no
/// timestamp), converted to 48 kHz by a resampler that holds back `resamplerDelay` samples
/// until it is flushed at the take's end.
private struct TakeAudio: Sendable {
    var start: Double? = 0
    var seconds: Double
    var sourceRate = 48_000
    var frameSamples = 1024
    var resamplerDelay = 0
}

/// What became of one take's share of the track.
private struct Outcome: Equatable, CustomStringConvertible {
    var silenceBefore = 0
    var dropped = 0
    var kept = 0
    var padding = 0

    var total: Int { silenceBefore + kept + padding }
    var description: String { "silence \(silenceBefore), dropped \(dropped), kept \(kept), padding \(padding)" }
}

/// Runs `aligner` over take `index` as `AudioStage` does, with an ideal converter.
private func align(_ audio: TakeAudio?, take index: Int, with aligner: inout AudioAligner) -> Outcome {
    var outcome = Outcome()
    aligner.beginTake(index)
    if let audio {
        let sourceTotal = Int((audio.seconds * Double(audio.sourceRate)).rounded())
        var consumed = 0, delivered = 0
        while consumed < sourceTotal {
            consumed = min(consumed + audio.frameSamples, sourceTotal)
            let converted = max(0, consumed * aligner.sampleRate / audio.sourceRate - audio.resamplerDelay)
            let count = converted - delivered
            delivered = converted
            let cut = aligner.cut(frameStartingAt: audio.start)
            let dropped = min(cut.dropFirst, count), kept = max(0, min(count - dropped, cut.limit))
            aligner.record(dropped: dropped, kept: kept)
            outcome.silenceBefore += cut.silenceBefore
            outcome.dropped += dropped
            outcome.kept += kept
        }
        let flushed = min(sourceTotal * aligner.sampleRate / audio.sourceRate - delivered, aligner.room)
        aligner.record(dropped: 0, kept: flushed)
        outcome.kept += flushed
    }
    outcome.padding = aligner.endTake()
    return outcome
}

@Suite struct AudioAlignerTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        fileprivate let audio: TakeAudio?
        let frameRate: Rational
        let expected: (silenceBefore: Int, dropped: Int, kept: Int, padding: Int)
        var testDescription: String { name }
    }

    /// One take of 1 s of video (30 frames) and its audio.
    static let rows: [Row] = [
        Row(name: "audio as long as its video", audio: TakeAudio(seconds: 1),
            frameRate: Rational(30, 1), expected: (0, 0, 48_000, 0)),
        Row(name: "shorter audio is padded with silence", audio: TakeAudio(seconds: 0.5),
            frameRate: Rational(30, 1), expected: (0, 0, 24_000, 24_000)),
        Row(name: "longer audio is cut at the last picture", audio: TakeAudio(seconds: 1.5),
            frameRate: Rational(30, 1), expected: (0, 0, 48_000, 0)),
        Row(name: "late audio follows silence", audio: TakeAudio(start: 0.25, seconds: 1),
            frameRate: Rational(30, 1), expected: (12_000, 0, 36_000, 0)),
        Row(name: "early audio loses what precedes the first picture", audio: TakeAudio(start: -0.25, seconds: 1),
            frameRate: Rational(30, 1), expected: (0, 12_000, 36_000, 12_000)),
        Row(name: "audio starting after the last picture is all silence", audio: TakeAudio(start: 2, seconds: 1),
            frameRate: Rational(30, 1), expected: (48_000, 0, 0, 0)),
        Row(name: "a frame without a timestamp is taken as on time", audio: TakeAudio(start: nil, seconds: 1),
            frameRate: Rational(30, 1), expected: (0, 0, 48_000, 0)),
        Row(name: "44.1 kHz audio is counted after conversion", audio: TakeAudio(seconds: 1, sourceRate: 44_100),
            frameRate: Rational(30, 1), expected: (0, 0, 48_000, 0)),
        Row(name: "late 44.1 kHz audio", audio: TakeAudio(start: 0.1, seconds: 1, sourceRate: 44_100, frameSamples: 1152),
            frameRate: Rational(30, 1), expected: (4_800, 0, 43_200, 0)),
        Row(name: "the resampler's delay comes out in the flush", audio: TakeAudio(seconds: 1, resamplerDelay: 32),
            frameRate: Rational(30, 1), expected: (0, 0, 48_000, 0)),
        Row(name: "the take spans its video frames, not its audio (30 frames at 29.97 fps)", audio: TakeAudio(seconds: 1),
            frameRate: Rational(30000, 1001), expected: (0, 0, 48_000, 48)),
        Row(name: "a take without audio is silence", audio: nil,
            frameRate: Rational(30, 1), expected: (0, 0, 0, 48_000)),
    ]

    @Test(arguments: AudioAlignerTests.rows)
    func oneTake(_ row: Row) {
        let timeline = Timeline(durations: [30 / row.frameRate.doubleValue], frameRate: row.frameRate)
        var aligner = AudioAligner(timeline: timeline)
        let outcome = align(row.audio, take: 0, with: &aligner)
        let expected = Outcome(silenceBefore: row.expected.silenceBefore, dropped: row.expected.dropped,
                               kept: row.expected.kept, padding: row.expected.padding)
        #expect(outcome == expected)
        #expect(outcome.total == timeline.takes[0].sampleCount)
    }

    /// Two output tracks over three takes whose audio differs track by track: each track fills
    /// every take to the sample, so both stay on the video's joins.
    @Test func everyTrackFillsEveryTakeExactly() {
        let timeline = Timeline(durations: [1.0, 0.5, 2.0], frameRate: Rational(30000, 1001))
        let tracks: [[TakeAudio?]] = [
            [TakeAudio(seconds: 1.0), TakeAudio(start: 0.2, seconds: 0.5), nil],
            [TakeAudio(seconds: 1.3, sourceRate: 44_100), TakeAudio(start: -0.1, seconds: 0.7, resamplerDelay: 16),
             TakeAudio(seconds: 1.2, sourceRate: 22_050, frameSamples: 512)],
        ]
        for takes in tracks {
            var aligner = AudioAligner(timeline: timeline)
            let totals = takes.enumerated().map { align($1, take: $0, with: &aligner).total }
            #expect(totals == timeline.takes.map(\.sampleCount))
            #expect(totals.reduce(0, +) == timeline.totalSamples)
        }
    }
}
