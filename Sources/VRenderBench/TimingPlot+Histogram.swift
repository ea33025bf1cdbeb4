import VRenderCore

extension TimingPlot {
    static let bins = 30

    /// What one of the stage's samples is: an audio stage's are audio packets (README
    /// "Measuring"), every other stage's frames.
    static func sampleUnit(of stage: StageReport) -> String {
        stage.name == "audio" || stage.name.hasPrefix("audio ") ? "packet" : "frame"
    }

    /// One stage's histogram in the grid cell at `origin`: `bins` bars from 0 to the stage's
    /// own range (frames above a clipped range counted in the last bar).
    static func drawHistogram(_ stage: StageReport, colour: String, at origin: (x: Double, y: Double),
                              into svg: inout SVGDocument) {
        let range = ValueRange([stage])
        let counts = binCounts(stage.frameMs, upTo: range.scale.top)
        let countScale = NiceScale(upTo: Double(counts.max() ?? 1), ticks: 4)
        let area = (left: origin.x + 52, top: origin.y + 30, width: cell.width - 75, height: cell.height - 78)
        let bottom = area.top + area.height
        func y(_ count: Double) -> Double { bottom - count / countScale.top * area.height }

        svg.open(group: "class=\"histogram\" data-stage=\"\(SVGDocument.escape(stage.name))\"")
        let unit = sampleUnit(of: stage)
        svg.text(origin.x, origin.y + 14, "\(stage.name): \(stage.frames) \(unit)s", size: 13, weight: "bold", fill: colour)
        for tick in countScale.values where tick == tick.rounded() {
            svg.line(area.left, y(tick), area.left + area.width, y(tick), stroke: "#eeeeee")
            svg.text(area.left - 5, y(tick) + 4, countScale.label(tick), size: 10, anchor: "end")
        }
        let barWidth = area.width / Double(bins)
        for (bin, count) in counts.enumerated() where count > 0 {
            svg.rect(area.left + Double(bin) * barWidth, y(Double(count)), max(barWidth - 1, 1), bottom - y(Double(count)),
                     fill: colour, opacity: 0.85)
        }
        svg.line(area.left, bottom, area.left + area.width, bottom, stroke: "#666")
        svg.line(area.left, area.top, area.left, bottom, stroke: "#666")
        for tick in range.scale.values {
            let x = area.left + tick / range.scale.top * area.width
            svg.line(x, bottom, x, bottom + 4, stroke: "#666")
            svg.text(x, bottom + 15, range.scale.label(tick), size: 10, anchor: "middle")
        }
        let axisTitle = "\(unit) time (ms)" + (range.clipped ? "; last bar: ≥ \(range.scale.label(range.scale.top))" : "")
        svg.text(area.left + area.width / 2, bottom + 31, axisTitle, size: 11, anchor: "middle")
        svg.text(origin.x + 10, area.top + area.height / 2, unit + "s", size: 11, anchor: "middle", rotated: true)
        svg.closeGroup()
    }

    /// How many values fall in each of `bins` equal bins over [0, top); values at or above
    /// `top` go into the last.
    static func binCounts(_ values: [Double], upTo top: Double) -> [Int] {
        var counts = Array(repeating: 0, count: bins)
        guard top > 0 else { return counts }
        for value in values {
            let bin = Int(value / top * Double(bins))
            counts[min(max(bin, 0), bins - 1)] += 1
        }
        return counts
    }
}
