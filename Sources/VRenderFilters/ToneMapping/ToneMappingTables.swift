#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `HDRToneMapper`'s curves sampled once, as `Float`, in one allocation.
///
/// Written only in `init` and read afterwards, which is why the threads of a conversion may
/// share them: `@unchecked Sendable` because raw pointers are not `Sendable` by themselves.
///
/// Two ways to index:
/// - `eotf` by the non-linear signal itself (uniform steps in a perceptual domain already),
///   interpolated linearly between the two entries around it: its three outputs go through
///   the primaries matrix, whose differences of large channels can leave a channel near 0,
///   where `L^(1/2.4)` is steep; a nearest entry's error (~1e-4 of the light) put such
///   gamut-edge pixels several codes off, the interpolated one's (~1e-8) does not;
/// - the others by `sqrt(x / range)`: their inputs are linear light, where uniform steps would
///   be far too coarse near black (the OETF's slope is infinite at 0); the square root spends
///   the entries where the eye and the curves need them, and costs one instruction.
/// The other lookups take the nearest entry: their errors scale all three channels alike or
/// come after the matrix. With these sizes the output stays within one 8-bit code
/// of the formulas evaluated in `Double`, and equals them for over 99 % of samples (the
/// tests check the kernel against the formulas).
final class ToneMappingTables: @unchecked Sendable {
    static let eotfCount = 16_384
    static let ootfCount = 4_096
    static let gainCount = 4_096
    static let oetfCount = 8_192

    private let storage: UnsafeMutablePointer<Float>
    /// Non-linear BT.2020 signal → linear light; `eotfCount + 1` entries, the last repeating
    /// the one before, so that interpolation at signal 1 reads inside the table. PQ: display light in units of HDR reference
    /// white. HLG: normalized scene light (0...1), before the OOTF.
    let eotf: UnsafePointer<Float>
    /// HLG only: `sqrt(Ys)` of scene luminance → the OOTF's factor `peak · Ys^(γ−1)`, in
    /// units of HDR reference white. Empty for PQ.
    let ootf: UnsafePointer<Float>
    /// `sqrt(m / gainRange)` for `m = max(R, G, B)` → `EETF(m) / m`.
    let gain: UnsafePointer<Float>
    /// `sqrt(L)` of relative SDR light → the SDR signal `L^(1/2.4)`.
    let oetf: UnsafePointer<Float>
    /// The largest `m` the gain table covers: the source peak in units of reference white.
    let gainRange: Float

    init(transfer: HDRTransfer) {
        let ootfCount = transfer == .hlg ? Self.ootfCount : 0
        let total = Self.eotfCount + 1 + ootfCount + Self.gainCount + Self.oetfCount
        storage = UnsafeMutablePointer<Float>.allocate(capacity: total)
        let eotf = storage
        let ootf = eotf + Self.eotfCount + 1
        let gain = ootf + ootfCount
        let oetf = gain + Self.gainCount

        let white = HDRToneMapper.hdrReferenceWhiteLuminance
        let peak = HDRToneMapper.sourcePeakLuminance
        for index in 0..<Self.eotfCount {
            let signal = Double(index) / Double(Self.eotfCount - 1)
            let light = transfer == .pq ? HDRColorMath.pqEOTF(signal) / white : HDRColorMath.hlgInverseOETF(signal)
            eotf[index] = Float(light)
        }
        eotf[Self.eotfCount] = eotf[Self.eotfCount - 1]
        let gammaMinusOne = HDRColorMath.hlgSystemGamma(peak: peak) - 1
        for index in 0..<ootfCount {
            let root = Double(index) / Double(ootfCount - 1)
            // Ys^(γ−1) is 0 at black however small γ−1 is; the factor multiplies light that is
            // itself ~Ys there, so the table's coarseness near 0 never reaches an output code.
            ootf[index] = Float(peak / white * pow(root * root, gammaMinusOne))
        }
        let range = peak / white
        gainRange = Float(range)
        gain[0] = 1  // EETF(m)/m → 1 as m → 0: the EETF is the identity below its knee.
        for index in 1..<Self.gainCount {
            let root = Double(index) / Double(Self.gainCount - 1)
            let m = root * root * range
            let mapped = HDRColorMath.bt2390EETF(m * white, sourcePeak: peak, targetPeak: white) / white
            gain[index] = Float(mapped / m)
        }
        for index in 0..<Self.oetfCount {
            let root = Double(index) / Double(Self.oetfCount - 1)
            oetf[index] = Float(HDRColorMath.bt1886InverseEOTF(root * root))
        }
        self.eotf = UnsafePointer(eotf)
        self.ootf = UnsafePointer(ootf)
        self.gain = UnsafePointer(gain)
        self.oetf = UnsafePointer(oetf)
    }

    deinit { storage.deallocate() }
}
