/// Exact integer building blocks for the looks' curves and matrices.
///
/// Curves are tables that the CPU kernels and the Vulkan shader read, and golden files hash
/// their results, so a table must be the same on every machine and compiler: everything here
/// is integer arithmetic (no `pow`, `exp` or floating point), with rounding spelled out.
///
/// Luma curves work on `x = clamp(i, 16, 235) - 16`, the position of index `i` in the legal
/// range (`0...D`, `D = 219`), and return a position in the same range: out-of-range inputs
/// (super-black, super-white) are treated as black and white, and outputs stay legal.
///
/// In the looks' documentation `round(a / b)` means `roundDiv`: nearest, halves upward.
enum CurveMath {
    /// Width of the legal luma range: 16...235 holds `D + 1` codes.
    static let span = 219

    /// `⌊a / b⌋` for `b > 0`, also for negative `a` (Swift's `/` truncates toward zero).
    static func floorDiv(_ a: Int, _ b: Int) -> Int {
        precondition(b > 0, "floorDiv needs a positive divisor")
        let q = a / b
        return (a % b != 0 && a < 0) ? q - 1 : q
    }

    /// `a / b` rounded to nearest, halves upward: `⌊(2a + b) / 2b⌋`.
    static func roundDiv(_ a: Int, _ b: Int) -> Int {
        floorDiv(2 * a + b, 2 * b)
    }

    /// A luma curve: entry `i` is `16 + clamp(f(x), 0, D)` with `x = clamp(i, 16, 235) - 16`.
    static func lumaCurve(_ f: (Int) -> Int) -> [UInt8] {
        (0...255).map { index in
            let x = Swift.min(Swift.max(index, 16), 235) - 16
            return UInt8(16 + Swift.min(Swift.max(f(x), 0), span))
        }
    }

    /// A chroma curve that adds `shift` and keeps the result in the legal range 16...240:
    /// a constant colour cast (with `shift` 0 it only clips illegal chroma).
    static func chromaCurve(shift: Int) -> [UInt8] {
        (0...255).map { UInt8(Swift.min(Swift.max($0 + shift, 16), 240)) }
    }

    // MARK: - Tone shapes on x in 0...D (each increasing in x, so curves built from them are)

    /// The cubic smoothstep `D·(3t² − 2t³)`, `t = x / D`, rounded: slope 1.5 at mid-grey and 0
    /// at black and white, the classic S-curve.
    static func smoothstep(_ x: Int) -> Int {
        roundDiv(x * x * (3 * span - 2 * x), span * span)
    }

    /// `x` moved `percent`/100 of the way toward `smoothstep(x)`: contrast with slope
    /// `1 + percent/200` at mid-grey. Increasing for `percent` in 0...100 (the slope
    /// `1 − p + 6p·t(1 − t)` never goes below 0).
    static func sCurve(_ x: Int, percent: Int) -> Int {
        let d2 = span * span
        return x + roundDiv((x * x * (3 * span - 2 * x) - x * d2) * percent, 100 * d2)
    }

    /// The inverse of an S-curve: `t + p·t(1 − t)(1 − 2t)`, `p = percent/100`, scaled to
    /// 0...D. Shadows open up, highlights come down, mid-tones flatten to slope `1 − p/2`;
    /// black and white stay. Increasing for `percent` in 0...200.
    static func flatten(_ x: Int, percent: Int) -> Int {
        x + roundDiv(x * (span - x) * (span - 2 * x) * percent, 100 * span * span)
    }

    /// Brightens mid-tones by the parabola `p·t(1 − t)` (`p = percent/100`), like a gamma
    /// below 1, leaving black and white in place. Increasing for `percent` in 0...100.
    static func liftMidtones(_ x: Int, percent: Int) -> Int {
        x + roundDiv(x * (span - x) * percent, 100 * span)
    }

    /// Maps 0...D linearly onto `black...white` (both positions in 0...D): lifted blacks,
    /// lowered whites, less contrast.
    static func levels(_ x: Int, black: Int, white: Int) -> Int {
        black + roundDiv(x * (white - black), span)
    }
}
