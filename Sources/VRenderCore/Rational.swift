/// An exact fraction, used for frame rates and time bases (FFmpeg's AVRational, in Swift).
public struct Rational: Sendable, Hashable, Codable, CustomStringConvertible {
    public var numerator: Int
    public var denominator: Int

    public init(_ numerator: Int, _ denominator: Int) {
        precondition(denominator != 0, "a rational needs a non-zero denominator")
        self.numerator = numerator
        self.denominator = denominator
    }

    public var doubleValue: Double { Double(numerator) / Double(denominator) }
    public var inverted: Rational { Rational(denominator, numerator) }

    public func reduced() -> Rational {
        func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? abs(a) : gcd(b, a % b) }
        let g = Swift.max(gcd(numerator, denominator), 1)
        return Rational(numerator / g, denominator / g)
    }

    public var description: String {
        denominator == 1 ? "\(numerator)" : "\(numerator)/\(denominator)"
    }
}
