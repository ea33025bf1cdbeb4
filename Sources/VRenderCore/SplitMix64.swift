/// SplitMix64 (Steele, Lea and Flood): a tiny, well-mixed random generator whose whole state is
/// one integer, so a seed fully determines its output on every platform. The synthetic camera's
/// scenes and the tests' random pictures and programs come from it (Swift's
/// `SystemRandomNumberGenerator` is neither seedable nor reproducible).
package struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A whole number in `range`, from the top bits (modulo bias is irrelevant at these sizes).
    /// Unlike `Int.random(in:using:)`, its algorithm is fixed here, so scenes never change.
    package mutating func next(in range: ClosedRange<Int>) -> Int {
        let span = UInt64(range.upperBound - range.lowerBound + 1)
        return range.lowerBound + Int((next() >> 11) % span)
    }

    /// A fraction in [0, 1) with 53 random bits: an exact binary fraction, the same everywhere.
    package mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1p-53
    }
}
