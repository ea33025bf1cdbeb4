#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The reference formulas of the HDR → SDR conversion, in `Double`, one function per standard.
///
/// `HDRToneMapper` never calls these per pixel: it samples them into tables once, in `init`.
/// Keeping the definitions apart from the tables lets the tests check the tables (and the
/// kernel) against the formulas written out plainly.
enum HDRColorMath {
    // MARK: - SMPTE ST 2084 (PQ)

    private static let pqM1 = 2610.0 / 16384
    private static let pqM2 = 2523.0 / 4096 * 128
    private static let pqC1 = 3424.0 / 4096
    private static let pqC2 = 2413.0 / 4096 * 32
    private static let pqC3 = 2392.0 / 4096 * 32
    /// PQ is absolute: signal 1.0 is this luminance.
    static let pqPeak = 10_000.0

    /// PQ EOTF: non-linear signal in 0...1 to display luminance in cd/m².
    static func pqEOTF(_ signal: Double) -> Double {
        let e = pow(min(max(signal, 0), 1), 1 / pqM2)
        return pqPeak * pow(max(e - pqC1, 0) / (pqC2 - pqC3 * e), 1 / pqM1)
    }

    /// PQ inverse EOTF: luminance in cd/m² to the non-linear signal in 0...1.
    static func pqInverseEOTF(_ luminance: Double) -> Double {
        let y = pow(min(max(luminance / pqPeak, 0), 1), pqM1)
        return pow((pqC1 + pqC2 * y) / (1 + pqC3 * y), pqM2)
    }

    // MARK: - ARIB STD-B67 / BT.2100 (HLG)

    private static let hlgA = 0.17883277
    private static let hlgB = 1 - 4 * hlgA
    private static let hlgC = 0.5 - hlgA * log(4 * hlgA)

    /// HLG inverse OETF: non-linear signal in 0...1 to normalized scene light in 0...1.
    static func hlgInverseOETF(_ signal: Double) -> Double {
        let e = min(max(signal, 0), 1)
        return e <= 0.5 ? e * e / 3 : (exp((e - hlgC) / hlgA) + hlgB) / 12
    }

    /// BT.2100's HLG system gamma for a display of peak `luminance` cd/m²: 1.2 at 1000.
    static func hlgSystemGamma(peak luminance: Double) -> Double {
        1.2 + 0.42 * log10(luminance / 1000)
    }

    // MARK: - BT.2390 EETF

    /// BT.2390's EETF with black at 0 on both sides: a display luminance mastered for a
    /// `sourcePeak` display, in cd/m², to one for a `targetPeak` display. It works in the PQ
    /// domain: identity up to a knee, then a Hermite spline that lands on the target peak with
    /// slope 0 at the source peak; above the source peak it stays at the target peak.
    static func bt2390EETF(_ luminance: Double, sourcePeak: Double, targetPeak: Double) -> Double {
        let sourceMax = pqInverseEOTF(sourcePeak)
        let maxLum = pqInverseEOTF(targetPeak) / sourceMax
        let knee = 1.5 * maxLum - 0.5
        let e1 = min(pqInverseEOTF(luminance) / sourceMax, 1)
        guard e1 > knee else { return luminance }
        let t = (e1 - knee) / (1 - knee)
        let t2 = t * t, t3 = t2 * t
        let e2 = (2 * t3 - 3 * t2 + 1) * knee + (t3 - 2 * t2 + t) * (1 - knee) + (-2 * t3 + 3 * t2) * maxLum
        return pqEOTF(e2 * sourceMax)
    }

    // MARK: - BT.1886

    /// The inverse of BT.1886's EOTF for a display with black at 0: relative luminance in
    /// 0...1 to the SDR signal in 0...1 (`L^(1/2.4)`).
    static func bt1886InverseEOTF(_ luminance: Double) -> Double {
        pow(min(max(luminance, 0), 1), 1 / 2.4)
    }

    // MARK: - Primaries

    /// A 3×3 matrix, row-major.
    typealias Matrix = [Double]

    /// Linear BT.2020 RGB to linear BT.709 RGB, derived from the primaries' and D65's
    /// chromaticities (BT.2020 table 3, BT.709 item 1.3) rather than typed in rounded: the rows
    /// then sum to 1 to within rounding, so neutrals stay neutral.
    static let bt2020ToBT709: Matrix = multiply(
        invert(rgbToXYZ(red: (0.640, 0.330), green: (0.300, 0.600), blue: (0.150, 0.060))),
        rgbToXYZ(red: (0.708, 0.292), green: (0.170, 0.797), blue: (0.131, 0.046)))

    /// RGB → XYZ for primaries at the given xy chromaticities and a D65 white of Y = 1.
    static func rgbToXYZ(red: (Double, Double), green: (Double, Double), blue: (Double, Double)) -> Matrix {
        func xyz(_ p: (Double, Double)) -> [Double] { [p.0 / p.1, 1, (1 - p.0 - p.1) / p.1] }
        let r = xyz(red), g = xyz(green), b = xyz(blue)
        let primaries: Matrix = [r[0], g[0], b[0], r[1], g[1], b[1], r[2], g[2], b[2]]
        // Scale each primary so that R = G = B = 1 gives the white point.
        let white = xyz((0.3127, 0.3290))
        let inverse = invert(primaries)
        let scale = (0..<3).map { row in (0..<3).reduce(0.0) { $0 + inverse[row * 3 + $1] * white[$1] } }
        return (0..<9).map { primaries[$0] * scale[$0 % 3] }
    }

    static func multiply(_ a: Matrix, _ b: Matrix) -> Matrix {
        (0..<9).map { index in
            let row = index / 3, column = index % 3
            return (0..<3).reduce(0.0) { $0 + a[row * 3 + $1] * b[$1 * 3 + column] }
        }
    }

    static func invert(_ m: Matrix) -> Matrix {
        let cofactors: Matrix = [
            m[4] * m[8] - m[5] * m[7], m[2] * m[7] - m[1] * m[8], m[1] * m[5] - m[2] * m[4],
            m[5] * m[6] - m[3] * m[8], m[0] * m[8] - m[2] * m[6], m[2] * m[3] - m[0] * m[5],
            m[3] * m[7] - m[4] * m[6], m[1] * m[6] - m[0] * m[7], m[0] * m[4] - m[1] * m[3],
        ]
        let determinant = m[0] * cofactors[0] + m[1] * cofactors[3] + m[2] * cofactors[6]
        return cofactors.map { $0 / determinant }
    }
}
