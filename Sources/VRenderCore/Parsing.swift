/// Parsers for the value syntaxes every command shares: durations (`4s`, `1500ms`, `2.5`),
/// sizes (`1280x720`) and frame rates (`30`, `29.97`, `30000/1001`).
package enum ValueSyntax {
    /// A number as people type it, the shortest text that parses back to it: `10`, not
    /// `10.0`; `40.5`; `inf`. What notices and reports quote values with.
    package static func text(_ value: Double) -> String {
        value.isFinite && value == value.rounded() && Swift.abs(value) < 1e15 ? String(Int(value)) : "\(value)"
    }

    /// The one syntax for a time or a length, everywhere vrender reads one (options, trims,
    /// scripts, transitions, concat lists): a bare number of seconds (`0.5`), one with a unit
    /// (`0.5s`, `500ms`, `2m`, `1h`), or a clock (`1:02.5`, `1:00:02`, as FFmpeg writes one).
    /// Nil for anything else, negative times included.
    package static func seconds(_ text: String) -> Double? {
        text.contains(":") ? clock(text) : unitSeconds(text)
    }

    /// The example the refusals quote.
    package static let timeExamples = "0.5, 0.5s, 500ms, 1:02.5"

    private static func unitSeconds(_ text: String) -> Double? {
        let trimmed = text.trimmingWhitespace().lowercased()
        let units: [(suffix: String, scale: Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
        var number = trimmed
        var scale = 1.0
        for unit in units where trimmed.hasSuffix(unit.suffix) {
            number = String(trimmed.dropLast(unit.suffix.count))
            scale = unit.scale
            break
        }
        // Finite after scaling too: "1e306h" is a finite number of hours but no number of seconds.
        guard let value = Double(number), value >= 0, (value * scale).isFinite else { return nil }
        return value * scale
    }

    /// `[HH:]MM:SS[.m...]`.
    private static func clock(_ text: String) -> Double? {
        let parts = text.trimmingWhitespace().split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 3, let last = Double(parts[parts.count - 1]), last >= 0, last < 60 else { return nil }
        var total = last
        for (scale, part) in zip([60.0, 3600.0], parts.dropLast().reversed()) {
            guard let whole = Int(part), whole >= 0 else { return nil }
            total += Double(whole) * scale
        }
        return total.isFinite ? total : nil
    }

    /// Parses `WxH` with both sides positive and even (4:2:0 video needs even sizes).
    package static func size(_ text: String) -> (width: Int, height: Int)? {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]),
              w > 0, h > 0, w % 2 == 0, h % 2 == 0, w <= 16384, h <= 16384 else { return nil }
        return (w, h)
    }

    /// Parses a frame rate as an integer, a decimal or a fraction; nil unless 0 < rate <= 1000.
    package static func frameRate(_ text: String) -> Rational? {
        let trimmed = text.trimmingWhitespace()
        if let slash = trimmed.firstIndex(of: "/") {
            guard let n = Int(trimmed[..<slash]), let d = Int(trimmed[trimmed.index(after: slash)...]),
                  n > 0, d > 0 else { return nil }
            let rate = Rational(n, d)
            return rate.doubleValue <= 1000 ? rate : nil
        }
        if let n = Int(trimmed), n > 0, n <= 1000 { return Rational(n, 1) }
        if let value = Double(trimmed), value > 0, value <= 1000 {
            // 29.97 and friends: keep three decimals exactly.
            return Rational(Int((value * 1000).rounded()), 1000).reduced()
        }
        return nil
    }
}

extension String {
    public func trimmingWhitespace() -> String {
        var view = Substring(self)
        while let first = view.first, first.isWhitespace { view = view.dropFirst() }
        while let last = view.last, last.isWhitespace { view = view.dropLast() }
        return String(view)
    }
}
