/// Transcendental functions built only from IEEE-754 basic operations (+, −, ×, ÷, rounding),
/// which every conforming machine computes to the same bit. libm's `exp2`, `log2` and `cos`
/// are not required to be correctly rounded and do differ between C libraries and versions,
/// so the synthetic camera, which promises the same frames on any machine, never calls them.
///
/// None of these runs per pixel: zoom ramps and exposure call them once per frame and the scene
/// builds its cosine table once. They favour determinism and enough accuracy (about 1 ulp
/// near the reduced range, a few ulp after scaling) over speed.
enum DeterministicMath {
    static let ln2 = 0.693_147_180_559_945_3
    static let squareRootOfTwo = 1.414_213_562_373_095_1

    /// 2^x. Reduced to 2^n · e^(f·ln 2) with n = round(x) and |f| ≤ ½, so the series argument
    /// stays below 0.35 and 18 terms reach double precision. Exact for integer `x`
    /// (f = 0 gives exactly 1), which is what makes a 1x→4x ramp pass exactly through 2x.
    static func exp2(_ x: Double) -> Double {
        guard x.isFinite else { return x > 0 ? .infinity : (x.isNaN ? .nan : 0) }
        let clamped = Swift.min(Swift.max(x, -1000), 1000)
        let whole = clamped.rounded()
        let argument = (clamped - whole) * ln2
        // Horner form of Σ argumentⁱ / i!, innermost term first.
        var series = 1.0
        for index in stride(from: 18, through: 1, by: -1) {
            series = 1 + argument * series / Double(index)
        }
        return Double(sign: .plus, exponent: Int(whole), significand: series)
    }

    /// log₂(x) for x > 0. Splits x = m · 2^e exactly (the bits of the number), moves m into
    /// [√½, √2), and sums ln m = 2·atanh((m − 1)/(m + 1)); |s| ≤ 0.172 so 14 odd terms suffice.
    /// Exact for powers of two (m = 1 gives s = 0).
    static func log2(_ x: Double) -> Double {
        guard x > 0 else { return x == 0 ? -.infinity : .nan }
        guard x.isFinite else { return x }
        var exponent = Int(x.exponent)
        var mantissa = x.significand
        if mantissa > squareRootOfTwo {
            mantissa /= 2
            exponent += 1
        }
        let s = (mantissa - 1) / (mantissa + 1)
        let s2 = s * s
        var series = 0.0
        for term in stride(from: 27, through: 3, by: -2) {
            series = (series + 1 / Double(term)) * s2
        }
        let naturalLog = 2 * s * (1 + series)
        return Double(exponent) + naturalLog / ln2
    }

    /// cos(2π·turns). Reduced to |θ| ≤ π, then a Taylor series long enough for that range.
    static func cos(turns: Double) -> Double {
        let reduced = turns - turns.rounded()
        let theta = reduced * 6.283_185_307_179_586
        let theta2 = theta * theta
        var series = 1.0
        for index in stride(from: 40, through: 2, by: -2) {
            series = 1 - theta2 * series / Double(index * (index - 1))
        }
        return series
    }
}

