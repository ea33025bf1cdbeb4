import Foundation
import VRenderCore

/// `vrender bench`'s report on the terminal: the per-stage table (frames, p50/p95/p99/max in
/// milliseconds, the share of the run each stage was busy), then throughput, time, memory,
/// queue occupancy and drops, and the busiest stage.
enum TimingTable {
    static func text(_ report: TimingReport) -> String {
        var lines = stageTable(report.stages)
        lines.append("")
        lines.append(throughput(report))
        lines.append(String(format: "time: wall %.2f s, CPU %.2f s (user+system, %.2f cores busy on average); peak memory %.0f MiB",
                            report.wallSeconds, report.cpuSeconds,
                            report.wallSeconds > 0 ? report.cpuSeconds / report.wallSeconds : 0,
                            Double(report.peakMemoryBytes) / 1_048_576))
        if !report.queues.isEmpty {
            lines.append("")
            lines += queueTable(report.queues)
        }
        lines.append("drops: \(report.drops)")
        if let baseline = report.baseline, let stage = report.stage(baseline.stage), let reference = report.stage(baseline.baseline) {
            lines.append(String(format: "%@ vs %@: %.3f× its speed (%@ %.1f fps, %@ %.1f fps, same frames, same run)",
                                stage.name, reference.name, baseline.ratio, stage.name, fps(stage), reference.name, fps(reference)))
        }
        if let busiest = report.stages.filter({ $0.measures == .work }).max(by: { $0.busyFraction < $1.busyFraction }),
           busiest.frames > 0 {
            lines.append(String(format: "busiest stage: %@ (working %.0f%% of the run)", busiest.name, busiest.busyFraction * 100))
        }
        return lines.joined(separator: "\n")
    }

    private static func stageTable(_ stages: [StageReport]) -> [String] {
        let nameWidth = max(stages.map(\.name.count).max() ?? 0, "stage".count) + 2
        let header = pad("stage", nameWidth) + right("frames", 7) + ["p50", "p95", "p99", "max"].map { right("\($0) ms", 10) }.joined()
            + right("busy", 7)
        let rows = stages.map { stage in
            guard stage.frames > 0 else {
                return pad(stage.name, nameWidth) + right("0", 7) + String(repeating: right("-", 10), count: 4) + right("-", 7)
            }
            let times = [stage.p50Ms, stage.p95Ms, stage.p99Ms, stage.maxMs].map { right(milliseconds($0), 10) }.joined()
            let busy = stage.measures == .wait ? "wait" : String(format: "%.0f%%", stage.busyFraction * 100)
            return pad(stage.name, nameWidth) + right("\(stage.frames)", 7) + times + right(busy, 7)
        }
        return [header] + rows
    }

    private static func throughput(_ report: TimingReport) -> String {
        var line = String(format: "throughput: %d frames in, %d out, in %.2f s: %.1f fps", report.framesIn, report.framesOut,
                          report.wallSeconds, report.fps)
        if let factor = report.realTimeFactor, let media = report.mediaSeconds {
            line += String(format: ", %.2f× real time (%.2f s of video)", factor, media)
        }
        return line
    }

    private static func queueTable(_ queues: [QueueReport]) -> [String] {
        let nameWidth = max(queues.map(\.name.count).max() ?? 0, "queue".count) + 2
        let header = pad("queue", nameWidth) + right("capacity", 9) + right("mean", 8) + right("p95", 6) + right("max", 6)
            + right("full", 7)
        let rows = queues.map { queue in
            pad(queue.name, nameWidth) + right("\(queue.capacity)", 9) + right(String(format: "%.1f", queue.meanDepth), 8)
                + right("\(queue.p95Depth)", 6) + right("\(queue.maxDepth)", 6)
                + right(String(format: "%.0f%%", queue.fullFraction * 100), 7)
        }
        return [header] + rows
    }

    /// Two decimals, three below 1 ms, so a demuxer's 0.012 ms does not read as 0.01.
    private static func milliseconds(_ value: Double) -> String {
        String(format: value < 1 ? "%.3f" : "%.2f", value)
    }

    private static func fps(_ stage: StageReport) -> Double {
        stage.totalMs > 0 ? Double(stage.frames) / stage.totalMs * 1000 : 0
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.padding(toLength: max(width, text.count), withPad: " ", startingAt: 0)
    }

    private static func right(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }
}
