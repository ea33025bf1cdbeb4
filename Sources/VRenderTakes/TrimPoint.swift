import VRenderCore

/// An in or out point as people write one: a time (`1.5`, `1.5s`, `1500ms`, `1:02.5`) or a frame
/// number (`45f`: the take's 46th picture, counted at its frame rate from 0), or `end` (out only).
public enum TrimPoint: Sendable, Equatable {
    case seconds(Double)
    case frame(Int)
    case end

    /// Parses one; nil when it is none of the above.
    public init?(_ text: String) {
        let trimmed = text.trimmingWhitespace().lowercased()
        if trimmed == "end" {
            self = .end
        } else if trimmed.hasSuffix("f"), let frame = Int(trimmed.dropLast()), frame >= 0 {
            self = .frame(frame)
        } else if let seconds = ValueSyntax.seconds(trimmed) {
            self = .seconds(seconds)
        } else {
            return nil
        }
    }

    /// Seconds from the take's first picture at `frameRate`; nil for `end`.
    public func seconds(frameRate: Rational) -> Double? {
        switch self {
        case .seconds(let seconds): seconds
        case .frame(let frame): Double(frame) / frameRate.doubleValue
        case .end: nil
        }
    }
}
