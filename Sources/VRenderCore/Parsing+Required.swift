/// A value that does not read as its syntax, worded to follow the option that was given it:
/// `'13x7' is not WxH with even, positive sides (e.g. 1280x720)`. The one home of these words,
/// so every option of a syntax refuses a value the same way.
public struct ValueSyntaxError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The value as it was typed.
    public var value: String
    /// What it should have been: "WxH with even, positive sides (e.g. 1280x720)".
    public var expected: String

    public init(value: String, expected: String) {
        self.value = value
        self.expected = expected
    }

    public var description: String { "'\(value)' is not \(expected)" }
}

extension ValueSyntax {
    /// `size(_:)`, or why not.
    package static func requireSize(_ text: String) throws(ValueSyntaxError) -> (width: Int, height: Int) {
        guard let size = size(text) else {
            throw ValueSyntaxError(value: text, expected: "WxH with even, positive sides (e.g. 1280x720)")
        }
        return size
    }

    /// `frameRate(_:)`, or why not.
    package static func requireFrameRate(_ text: String) throws(ValueSyntaxError) -> Rational {
        guard let rate = frameRate(text) else {
            throw ValueSyntaxError(value: text, expected: "a frame rate between 0 and 1000 (e.g. 30, 29.97, 30000/1001)")
        }
        return rate
    }

    /// `seconds(_:)`, or why not; `positive`: 0 is refused too (a length, not an instant).
    package static func requireSeconds(_ text: String, positive: Bool = false) throws(ValueSyntaxError) -> Double {
        guard let seconds = seconds(text), !positive || seconds > 0 else {
            throw ValueSyntaxError(value: text, expected: (positive ? "a positive time" : "a time") + " (e.g. \(timeExamples))")
        }
        return seconds
    }
}
