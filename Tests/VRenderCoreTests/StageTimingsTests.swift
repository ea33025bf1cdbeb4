import Foundation
import Testing
@testable import VRenderCore

/// The timing collector's arithmetic on known data: nearest-rank percentiles, occupancy,
/// per-stage summaries, the baseline ratio and the JSON keys README documents. No clock is
/// asserted on: recorded durations are given, and timed ones are only counted.
@Suite struct StageTimingsTests {
    @Test func nearestRankPercentilesOnKnownData() {
        // The rule's textbook example: 15, 20, 35, 40, 50.
        let five: [UInt64] = [15, 20, 35, 40, 50]
        #expect([5, 30, 40, 50, 100].map { Percentile.nearestRank($0, ofSorted: five) } == [15, 20, 20, 35, 50])
        let four: [UInt64] = [1, 2, 3, 4]
        #expect([50, 75, 95, 99, 100].map { Percentile.nearestRank($0, ofSorted: four) } == [2, 3, 4, 4, 4])
        let hundred = (1...100).map(UInt64.init)
        #expect([1, 50, 95, 99, 100].map { Percentile.nearestRank($0, ofSorted: hundred) } == [1, 50, 95, 99, 100])
        // 20 values: p95 is rank 19 exactly (no floating-point rounding up to 20).
        #expect(Percentile.rank(95, of: 20) == 19)
        #expect(Percentile.rank(99, of: 20) == 20)
        #expect(Percentile.nearestRank(50, ofSorted: [7]) == 7)
        #expect(Percentile.nearestRank(50, ofSorted: []) == 0)
    }

    @Test func histogramPercentilesCountRepeats() {
        // Values 0 ×3, 1 ×1, 2 ×6: sorted 0 0 0 1 2 2 2 2 2 2.
        let counts = [3, 1, 6]
        #expect(Percentile.nearestRank(30, counts: counts) == 0)
        #expect(Percentile.nearestRank(40, counts: counts) == 1)
        #expect(Percentile.nearestRank(41, counts: counts) == 2)
        #expect(Percentile.nearestRank(95, counts: [0, 0]) == 0)
    }

    @Test func stageSummaryFromKnownDurations() throws {
        let timings = StageTimings(kind: "test")
        let timer = timings.timer("encode")
        for milliseconds in 1...100 { timer.record(nanoseconds: UInt64(milliseconds) * 1_000_000) }
        timings.finish(framesIn: 100, framesOut: 100, mediaSeconds: 4)
        let stage = try #require(timings.report().stage("encode"))
        #expect(stage.frames == 100)
        #expect([stage.p50Ms, stage.p95Ms, stage.p99Ms, stage.maxMs] == [50, 95, 99, 100])
        #expect(stage.meanMs == 50.5)
        #expect(stage.totalMs == 5050)
        #expect(stage.otherMs == 0)
        #expect(stage.frameMs == (1...100).map(Double.init))
        #expect(stage.measures == .work)
    }

    @Test func samplesSurviveChunkBoundaries() {
        let timer = StageTimings(kind: "test").timer("demux")
        let values = (0..<UInt64(2 * SampleSeries.chunkSize + 7)).map { $0 * 3 }
        values.forEach(timer.record)
        #expect(timer.count == values.count)
        #expect(timer.nanoseconds == values)
    }

    @Test func framesAndOtherWorkAreCountedApart() {
        let timer = StageTimings(kind: "test").timer("decode")
        timer.begin()
        timer.pause()
        timer.begin()
        timer.frameDone()       // one frame: both pieces
        timer.frameDone()       // nothing timed since: a zero-length frame, still counted
        timer.begin()
        timer.otherDone()       // work outside frames: no sample
        _ = timer.measureFrame { 42 }
        #expect(timer.count == 3)
        #expect(timer.nanoseconds[1] == 0)
    }

    @Test func queueOccupancyCountsTheDepthEachPushFound() throws {
        let queue = BoundedQueue<Int>(capacity: 3, policy: .dropOldest)
        #expect(queue.occupancy == nil)
        queue.trackOccupancy()
        for value in 1...5 { queue.push(value) }   // found 0, 1, 2, then full twice
        _ = queue.pop()
        queue.push(6)                               // found 2
        let occupancy = try #require(queue.occupancy)
        #expect(occupancy.arrivals == [1, 1, 2, 2])
        #expect(occupancy.samples == 6)
        #expect(occupancy.mean == Double(0 + 1 + 2 * 2 + 3 * 2) / 6)
        #expect(occupancy.percentile(50) == 2)
        #expect(occupancy.percentile(95) == 3)
        #expect(occupancy.max == 3)
        #expect(occupancy.fullFraction == 2.0 / 6)
    }

    @Test func reportListsStagesQueuesAndTotalsInOrder() throws {
        let timings = StageTimings(kind: "concat")
        let queue = BoundedQueue<Int>(capacity: 4)
        timings.watch(queue, as: "decoded")
        queue.push(1)
        let demux = timings.timer("demux")
        let wait = timings.timer("ring wait", measures: .wait)
        demux.record(nanoseconds: 2_000_000)
        wait.record(nanoseconds: 5_000_000_000)
        timings.addDrops(2)
        timings.addDrops(1)
        timings.setting("filter", "mono")
        timings.finish(framesIn: 1, framesOut: 1, mediaSeconds: 0.5)
        let report = timings.report()
        #expect(report.kind == "concat")
        #expect(report.stages.map(\.name) == ["demux", "ring wait"])
        #expect(report.queues == [QueueReport(name: "decoded", queue.occupancy!)])
        #expect(report.drops == 3)
        #expect(report.settings == ["filter": "mono"])
        #expect(report.stage("ring wait")?.busyFraction == 0, "a wait is nobody's work")
        #expect(timings.frames(of: "demux") == 1)
        #expect(timings.frames(of: "missing") == 0)
        #expect(report.realTimeFactor.map { abs($0 - 0.5 / report.wallSeconds) < 1e-9 } == true)
    }

    @Test func baselineRatioComparesFramesPerSecond() throws {
        let timings = StageTimings(kind: "filter")
        let filter = timings.timer("filter")
        let copy = timings.timer("memcpy")
        timings.compare("filter", with: "memcpy")
        for _ in 0..<10 {
            filter.record(nanoseconds: 4_000_000)
            copy.record(nanoseconds: 1_000_000)
        }
        let baseline = try #require(timings.report().baseline)
        #expect(baseline == BaselineRatio(stage: "filter", baseline: "memcpy", ratio: 0.25))
    }

    @Test func jsonHasTheDocumentedKeysAndDecodes() throws {
        let timings = StageTimings(kind: "concat")
        timings.timer("encode").record(nanoseconds: 1_500)
        let queue = BoundedQueue<Int>(capacity: 2)
        timings.watch(queue, as: "to mux")
        queue.push(0)
        timings.finish(framesIn: 1, framesOut: 1, mediaSeconds: 1)
        let report = timings.report()
        let data = try report.jsonData()
        #expect(try JSONDecoder().decode(TimingReport.self, from: data) == report)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(Set(object.keys) == ["kind", "settings", "wallSeconds", "cpuSeconds", "peakMemoryBytes", "framesIn",
                                     "framesOut", "mediaSeconds", "drops", "stages", "queues", "fps", "realTimeFactor"])
        let stage = try #require((object["stages"] as? [[String: Any]])?.first)
        #expect(Set(stage.keys) == ["name", "measures", "frames", "p50Ms", "p95Ms", "p99Ms", "maxMs", "meanMs", "totalMs",
                                    "otherMs", "busyFraction", "frameMs"])
        #expect(stage["frameMs"] as? [Double] == [0.002], "1.5 µs, kept to the microsecond")
        let queueKeys = try #require((object["queues"] as? [[String: Any]])?.first?.keys)
        #expect(Set(queueKeys) == ["name", "capacity", "samples", "meanDepth", "p95Depth", "maxDepth", "fullFraction"])
    }

    @Test func peakMemoryIsReadFromProcStatus() {
        let status = "Name:\tvrender\nVmPeak:\t  900000 kB\nVmHWM:\t   123456 kB\nVmRSS:\t  100 kB\n"
        #expect(ProcessUsage.peakResident(inStatus: status) == 123_456 * 1024)
        #expect(ProcessUsage.peakResident(inStatus: "VmRSS: 1 kB") == nil)
        #expect(ProcessUsage.now().peakResidentBytes > 0)
    }
}
