import VRenderCore

/// What happens when the script's last line has scrolled into place (the seed's `pauseAtEnd`).
public enum PrompterEnding: String, Sendable, Codable, CaseIterable {
    /// Stop there; the next take stays at the end.
    case pause
    /// Jump back to the first line and keep scrolling.
    case loop
}

/// The teleprompter's settings, in the seed app's units: points and points per second.
///
/// Values outside the seed's ranges are clamped, never refused: `clamped` says what it did,
/// naming the option, so the caller can print it as a notice.
public struct PrompterSettings: Sendable, Equatable, Codable {
    /// Scroll speed, points per second (the seed's `minSpeed`…`maxSpeed`).
    public static let speedRange = 8.0...60.0
    /// Font size, points, semibold (the seed's `minFontSize`…`maxFontSize`).
    public static let fontSizeRange = 18.0...36.0
    /// Extra points between lines (the seed's paragraph `lineSpacing`).
    public static let lineSpacing = 4.0
    /// The seed's scroll timer: the offset moves in steps of `speed / tickRate`.
    public static let tickRate = 60.0
    /// A key press changes the speed by this much (points per second)…
    public static let speedStep = 4.0
    /// …and the font size by this much (points).
    public static let fontSizeStep = 2.0

    public var speed: Double
    public var fontSize: Double
    public var ending: PrompterEnding

    /// Settings as given: callers that take them from users go through `clamped`.
    public init(speed: Double = 24, fontSize: Double = 28, ending: PrompterEnding = .pause) {
        self.speed = speed
        self.fontSize = fontSize
        self.ending = ending
    }

    /// The settings with speed and font size inside the seed's ranges, and one notice per value
    /// that was moved ("--prompter-speed 80 is above 60 points per second: 60 is used").
    public static func clamped(speed: Double, fontSize: Double, ending: PrompterEnding,
                               speedOption: String = "--prompter-speed",
                               fontOption: String = "--prompter-font") -> (settings: PrompterSettings, notices: [String]) {
        var notices: [String] = []
        let speed = clamp(speed, to: speedRange, option: speedOption, unit: "points per second", notices: &notices)
        let size = clamp(fontSize, to: fontSizeRange, option: fontOption, unit: "points", notices: &notices)
        return (PrompterSettings(speed: speed, fontSize: size, ending: ending), notices)
    }

    /// `value` moved into `range`, with a notice when it had to move (or was not a number).
    static func clamp(_ value: Double, to range: ClosedRange<Double>, option: String, unit: String,
                      notices: inout [String]) -> Double {
        guard value.isFinite else {
            let middle = (range.lowerBound + range.upperBound) / 2
            notices.append("\(option) \(value) is not a number: \(ValueSyntax.text(middle)) is used")
            return middle
        }
        if value < range.lowerBound {
            notices.append("\(option) \(ValueSyntax.text(value)) is below \(ValueSyntax.text(range.lowerBound)) \(unit): \(ValueSyntax.text(range.lowerBound)) is used")
            return range.lowerBound
        }
        if value > range.upperBound {
            notices.append("\(option) \(ValueSyntax.text(value)) is above \(ValueSyntax.text(range.upperBound)) \(unit): \(ValueSyntax.text(range.upperBound)) is used")
            return range.upperBound
        }
        return value
    }
}
