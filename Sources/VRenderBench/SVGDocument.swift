import Foundation

/// A tiny SVG writer: elements appended as text, attribute values and text escaped for XML.
/// Enough for the bench's plots; the result is one self-contained file without scripts.
struct SVGDocument {
    let width: Double
    let height: Double
    private var body: [String] = []

    init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    mutating func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, stroke: String = "#999",
                       width strokeWidth: Double = 1, dashed: Bool = false) {
        body.append("<line x1=\"\(n(x1))\" y1=\"\(n(y1))\" x2=\"\(n(x2))\" y2=\"\(n(y2))\" stroke=\"\(stroke)\" "
                    + "stroke-width=\"\(n(strokeWidth))\"" + (dashed ? " stroke-dasharray=\"4 3\"" : "") + "/>")
    }

    mutating func rect(_ x: Double, _ y: Double, _ width: Double, _ height: Double, fill: String,
                       opacity: Double = 1, stroke: String? = nil) {
        body.append("<rect x=\"\(n(x))\" y=\"\(n(y))\" width=\"\(n(width))\" height=\"\(n(height))\" fill=\"\(fill)\""
                    + (opacity < 1 ? " fill-opacity=\"\(n(opacity))\"" : "")
                    + (stroke.map { " stroke=\"\($0)\"" } ?? "") + "/>")
    }

    /// `anchor`: start, middle or end. `rotated`: turned a quarter anticlockwise about (x, y)
    /// (a vertical axis title).
    mutating func text(_ x: Double, _ y: Double, _ content: String, size: Double = 12, anchor: String = "start",
                       weight: String = "normal", fill: String = "#222", rotated: Bool = false) {
        let turn = rotated ? " transform=\"rotate(-90 \(n(x)) \(n(y)))\"" : ""
        body.append("<text x=\"\(n(x))\" y=\"\(n(y))\" font-size=\"\(n(size))\" text-anchor=\"\(anchor)\" "
                    + "font-weight=\"\(weight)\" fill=\"\(fill)\"\(turn)>\(Self.escape(content))</text>")
    }

    /// A line through `points`; `attributes` are added as they are (already escaped).
    mutating func polyline(_ points: [(x: Double, y: Double)], stroke: String, width strokeWidth: Double = 1.2,
                           attributes: String = "") {
        let list = points.map { "\(n($0.x)),\(n($0.y))" }.joined(separator: " ")
        body.append("<polyline points=\"\(list)\" fill=\"none\" stroke=\"\(stroke)\" stroke-width=\"\(n(strokeWidth))\" "
                    + "stroke-linejoin=\"round\"\(attributes.isEmpty ? "" : " " + attributes)/>")
    }

    mutating func open(group attributes: String) { body.append("<g \(attributes)>") }
    mutating func closeGroup() { body.append("</g>") }

    /// The whole document: a white page, a title for viewers' tab or tooltip, the elements.
    func rendered(title: String) -> String {
        var lines = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(n(width))\" height=\"\(n(height))\" "
                + "viewBox=\"0 0 \(n(width)) \(n(height))\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">",
            "<title>\(Self.escape(title))</title>",
        ]
        lines.append("<rect x=\"0\" y=\"0\" width=\"\(n(width))\" height=\"\(n(height))\" fill=\"#ffffff\"/>")
        lines += body
        lines.append("</svg>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Text safe inside an element or a quoted attribute.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&apos;"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// A coordinate with at most one decimal: sub-pixel precision a viewer cannot see only
    /// makes the file longer.
    private func n(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(format: "%.1f", rounded)
    }
}

/// Axis ticks at round steps (1, 2 or 5 times a power of ten), about `count` of them.
struct NiceScale {
    let step: Double
    /// The axis end: the first tick at or above the data's maximum.
    let top: Double

    init(upTo maximum: Double, ticks count: Int = 5) {
        guard maximum > 0, maximum.isFinite else {
            step = 1
            top = 1
            return
        }
        let raw = maximum / Double(count)
        let magnitude = pow(10, (log10(raw)).rounded(.down))
        step = [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= raw * (1 - 1e-9) } ?? 10 * magnitude
        top = (maximum / step - 1e-9).rounded(.up) * step
    }

    var values: [Double] {
        stride(from: 0, through: top + step / 2, by: step).map { $0 }
    }

    /// A tick's label with as many decimals as the step needs.
    func label(_ value: Double) -> String {
        let decimals = Swift.max(0, Int(-(log10(step)).rounded(.down)))
        return String(format: "%.\(decimals)f", value)
    }
}
