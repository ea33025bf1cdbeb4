import Foundation
import VRenderCore

/// `--plot FILE.svg`: a self-contained SVG (no script, no external file) of a `TimingReport`:
///
/// - frame time (ms) over frame index, one line per stage, with a legend giving each stage's
///   p50/p95/max;
/// - below it, one histogram of frame times per stage (frames per bin over ms), each on its own
///   scale (a demuxer's microseconds and an encoder's milliseconds cannot share one).
///
/// A few very slow frames (a first frame's set-up, say) would squash every line to the floor;
/// when the slowest frame is more than three times the slowest p99, the axes end at 1.5 × that
/// p99 and the frames above are drawn on the top edge (the line chart) or counted in the last
/// bin (histograms), which the plot says. Stages that timed no frame are listed, not drawn.
package enum TimingPlot {
    static let palette = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                          "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"]

    static let pageWidth = 1000.0
    /// The line chart's plot area.
    static let chart = (left: 70.0, top: 78.0, width: 720.0, height: 300.0)
    static let histogramTop = 450.0
    static let cell = (width: 320.0, height: 190.0, columns: 3)

    package static func svg(_ report: TimingReport) -> String {
        let drawn = report.stages.filter { $0.frames > 0 }
        let rows = (drawn.count + cell.columns - 1) / cell.columns
        var svg = SVGDocument(width: pageWidth, height: histogramTop + Double(max(rows, 1)) * cell.height + 20)
        drawHeading(report, into: &svg)
        let range = ValueRange(drawn)
        drawLineChart(report, range: range, into: &svg)
        svg.text(20, histogramTop - 22, "Distribution of frame times per stage", size: 15, weight: "bold")
        for (index, stage) in drawn.enumerated() {
            let colour = colour(of: stage, in: report)
            let origin = (x: 20 + Double(index % cell.columns) * cell.width,
                          y: histogramTop + Double(index / cell.columns) * cell.height)
            drawHistogram(stage, colour: colour, at: origin, into: &svg)
        }
        return svg.rendered(title: "vrender bench \(report.kind): frame times per stage")
    }

    /// Each stage keeps its colour whatever is drawn: its position among all stages.
    static func colour(of stage: StageReport, in report: TimingReport) -> String {
        let index = report.stages.firstIndex { $0.name == stage.name } ?? 0
        return palette[index % palette.count]
    }

    private static func drawHeading(_ report: TimingReport, into svg: inout SVGDocument) {
        svg.text(20, 28, "vrender bench \(report.kind): frame time per stage", size: 18, weight: "bold")
        var facts = String(format: "%d frames in %.2f s (%.1f fps", report.framesOut, report.wallSeconds, report.fps)
        if let factor = report.realTimeFactor { facts += String(format: ", %.2f× real time", factor) }
        facts += String(format: "), CPU %.1f s, peak memory %.0f MiB", report.cpuSeconds,
                        Double(report.peakMemoryBytes) / 1_048_576)
        let settings = ["filter", "videoCodec", "size", "filterBackend"].compactMap { key in
            report.settings[key].map { "\(key) \($0)" }
        }
        svg.text(20, 50, ([facts] + settings).joined(separator: "; "), size: 12, fill: "#444")
    }

    private static func drawLineChart(_ report: TimingReport, range: ValueRange, into svg: inout SVGDocument) {
        let drawn = report.stages.filter { $0.frames > 0 }
        let frames = max(drawn.map(\.frames).max() ?? 1, 2)
        let xScale = NiceScale(upTo: Double(frames - 1))
        let bottom = chart.top + chart.height
        func x(_ index: Double) -> Double { chart.left + index / xScale.top * chart.width }
        func y(_ ms: Double) -> Double { bottom - min(ms, range.scale.top) / range.scale.top * chart.height }

        for tick in range.scale.values {
            svg.line(chart.left, y(tick), chart.left + chart.width, y(tick), stroke: "#e3e3e3")
            svg.text(chart.left - 6, y(tick) + 4, range.scale.label(tick), size: 11, anchor: "end")
        }
        for tick in xScale.values {
            svg.line(x(tick), bottom, x(tick), bottom + 5, stroke: "#666")
            svg.text(x(tick), bottom + 18, xScale.label(tick), size: 11, anchor: "middle")
        }
        svg.line(chart.left, chart.top, chart.left, bottom, stroke: "#666")
        svg.line(chart.left, bottom, chart.left + chart.width, bottom, stroke: "#666")
        let counted = drawn.contains { $0.name.hasPrefix("audio") } ? " (audio: packet index)" : ""
        svg.text(chart.left + chart.width / 2, bottom + 36, "frame index" + counted, size: 12, anchor: "middle")
        svg.text(20, chart.top + chart.height / 2, "frame time (ms)", size: 12, anchor: "middle", rotated: true)
        if range.clipped {
            svg.text(chart.left + chart.width, chart.top - 8,
                     "frames slower than \(range.scale.label(range.scale.top)) ms are drawn on the top edge",
                     size: 11, anchor: "end", fill: "#a33")
        }
        // Slowest first, so the fast stages' lines lie on top instead of under the slow ones.
        for stage in drawn.sorted(by: { $0.p50Ms > $1.p50Ms }) {
            let points = stage.frameMs.enumerated().map { (x: x(Double($0.offset)), y: y($0.element)) }
            svg.polyline(points, stroke: colour(of: stage, in: report), width: frames > 300 ? 0.8 : 1.2,
                         attributes: "class=\"series\" data-stage=\"\(SVGDocument.escape(stage.name))\"")
        }
        drawLegend(report, into: &svg)
    }

    /// One entry per stage: its colour, name and p50/p95/max, or why it has no line.
    private static func drawLegend(_ report: TimingReport, into svg: inout SVGDocument) {
        let left = chart.left + chart.width + 20
        svg.text(left, chart.top + 2, "stage: p50 / p95 / max ms", size: 11, fill: "#444")
        for (index, stage) in report.stages.enumerated() {
            let top = chart.top + 14 + Double(index) * 34
            svg.rect(left, top + 2, 14, 4, fill: colour(of: stage, in: report))
            svg.text(left + 20, top + 8, stage.name + (stage.measures == .wait ? " (a wait)" : ""), size: 12, weight: "bold")
            let detail = stage.frames == 0 ? "no frames"
                : [stage.p50Ms, stage.p95Ms, stage.maxMs].map(milliseconds).joined(separator: " / ")
            svg.text(left + 20, top + 23, detail, size: 11, fill: "#444")
        }
    }
}

extension TimingPlot {
    /// Two decimals, three below 1 ms (as the terminal table).
    static func milliseconds(_ value: Double) -> String {
        String(format: value < 1 ? "%.3f" : "%.2f", value)
    }
}

/// The frame-time axis every panel shares: up to the slowest frame, or to 1.5 × the slowest
/// p99 when a few outliers would squash everything else (`clipped`).
struct ValueRange {
    let scale: NiceScale
    let clipped: Bool

    init(_ stages: [StageReport]) {
        let slowest = stages.map(\.maxMs).max() ?? 1
        let p99 = stages.map(\.p99Ms).max() ?? 1
        clipped = p99 > 0 && slowest > 3 * p99
        scale = NiceScale(upTo: clipped ? 1.5 * p99 : slowest)
    }
}
