import Foundation
import Testing
import VRenderCore
@testable import VRenderBench

/// The SVG plot on reports made from known durations: well-formed XML, one line and one
/// histogram per stage that has frames, names escaped, outliers announced.
@Suite struct TimingPlotTests {
    /// A report with stages "a&b" (10 frames, 1–10 ms), "<skipped>" (no frames) and "encode"
    /// (10 frames, 20 ms, one `outlier` ms).
    func report(outlier: UInt64 = 25) -> TimingReport {
        let timings = StageTimings(kind: "concat")
        let first = timings.timer("a&b")
        _ = timings.timer("<skipped>")
        let encode = timings.timer("encode")
        for frame in 1...10 {
            first.record(nanoseconds: UInt64(frame) * 1_000_000)
            encode.record(nanoseconds: (frame == 5 ? outlier : 20) * 1_000_000)
        }
        timings.finish(framesIn: 10, framesOut: 10, mediaSeconds: 1)
        return timings.report()
    }

    @Test func oneSeriesAndOneHistogramPerStageWithFrames() throws {
        let svg = TimingPlot.svg(report())
        let inspection = try #require(SVGInspection.parse(Data(svg.utf8)), "the plot is not well-formed XML")
        #expect(inspection.seriesStages == ["encode", "a&b"], "slowest drawn first, under the others")
        #expect(inspection.histogramStages == ["a&b", "encode"])
        #expect(inspection.texts.contains("<skipped>"), "a stage without frames is listed in the legend")
        #expect(inspection.texts.contains("no frames"))
        #expect(inspection.texts.contains("frame index"))
        #expect(inspection.texts.contains("frame time (ms)"))
        #expect(!svg.contains("<script"))
    }

    @Test("an audio stage's histogram counts packets, not frames")
    func audioStagesCountPackets() throws {
        let timings = StageTimings(kind: "concat")
        let encode = timings.timer("encode"), audio = timings.timer("audio 2")
        for sample in 1...12 {
            encode.record(nanoseconds: UInt64(sample) * 1_000_000)
            audio.record(nanoseconds: 500_000)
        }
        timings.finish(framesIn: 12, framesOut: 12, mediaSeconds: 1)
        let inspection = try #require(SVGInspection.parse(Data(TimingPlot.svg(timings.report()).utf8)))
        #expect(inspection.texts.contains("audio 2: 12 packets") && inspection.texts.contains("packet time (ms)"))
        #expect(inspection.texts.contains("encode: 12 frames") && !inspection.texts.contains("audio 2: 12 frames"))
    }

    @Test func outliersAreClippedAndSaidToBe() throws {
        // p99 of 10 values is the maximum: make the outlier the only value far above p99 by
        // giving a long series.
        let timings = StageTimings(kind: "filter")
        let filter = timings.timer("filter")
        for frame in 0..<200 { filter.record(nanoseconds: frame == 0 ? 400_000_000 : 4_000_000) }
        let svg = TimingPlot.svg(timings.report())
        let inspection = try #require(SVGInspection.parse(Data(svg.utf8)))
        #expect(inspection.texts.contains { $0.hasPrefix("frames slower than 6 ms are drawn on the top edge") })
        #expect(inspection.texts.contains { $0.contains("last bar: ≥ 6") })
        #expect(!TimingPlot.svg(report()).contains("top edge"), "no outlier, no clipping")
    }

    @Test func histogramBinsCountEveryValue() {
        let counts = TimingPlot.binCounts([0, 0.3, 1, 9.99, 10, 50], upTo: 10)
        #expect(counts.count == TimingPlot.bins)
        #expect(counts.reduce(0, +) == 6)
        #expect(counts[0] == 2, "0 and 0.3: bins are 1/3 ms wide")
        #expect(counts[3] == 1)
        #expect(counts[TimingPlot.bins - 1] == 3, "9.99, and 10 and 50 at or above the top")
    }

    @Test func niceScalesEndOnRoundTicks() {
        #expect(NiceScale(upTo: 7.07).step == 2)
        #expect(NiceScale(upTo: 7.07).top == 8)
        #expect(abs(NiceScale(upTo: 0.022).top - 0.025) < 1e-12)
        #expect(NiceScale(upTo: 100).values == [0, 20, 40, 60, 80, 100])
        #expect(NiceScale(upTo: 0.022).label(0.01) == "0.010")
        #expect(NiceScale(upTo: 0).top == 1)
    }
}
