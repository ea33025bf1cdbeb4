import VRenderCore

/// `mono`: the seed app's export filter ("Suavizar", Core Image's CIPhotoEffectMono):
/// monochrome with softened contrast, computed on Y'CbCr planes with no trip through RGB.
///
/// Math (8-bit limited range, all integer so every backend gives the same bytes):
///
///     x   = clamp(Y, 16, 235) - 16                  // 0...219
///     Y'  = 24 + (x * 247) >> 8 + (x * (219 - x)) >> 10
///     Cb' = Cr' = 128                               // neutral chroma: no colour at all
///
/// The linear term lifts the black point from 16 to 24 while keeping white at 235 (softer
/// shadows, the "soft" in Suavizar); the parabola brightens mid-tones by up to 11 codes and
/// vanishes at both ends, like a gamma of about 0.9. Y' is increasing in Y and stays in
/// 24...235, and every intermediate fits in 16 bits, so the kernel runs on 16-bit SIMD lanes.
public struct MonoFilter: VideoFilter {
    public init() {}

    public let descriptor = FilterDescriptor(
        name: "mono",
        summary: "monochrome with softened contrast (the seed's \"Suavizar\", CIPhotoEffectMono)")

    /// The tone curve for one sample: the scalar definition the SIMD kernel must match.
    @inline(__always)
    public static func curve(_ luma: UInt8) -> UInt8 {
        let x = UInt16(Swift.min(Swift.max(luma, 16), 235) - 16)
        return UInt8(24 + ((x * 247) >> 8) + ((x * (219 - x)) >> 10))
    }

    @inline(__always)
    static func curve(_ luma: SIMD16<UInt8>) -> SIMD16<UInt8> {
        let wide = SIMD16<UInt16>(truncatingIfNeeded: luma)
        let x = wide.clamped(lowerBound: .init(repeating: 16), upperBound: .init(repeating: 235)) &- 16
        let linear = (x &* 247) &>> 8
        let lift = (x &* (219 &- x)) &>> 10
        return SIMD16<UInt8>(truncatingIfNeeded: 24 &+ linear &+ lift)
    }

    public func apply(source: YUVImage, destination: YUVImage, lumaRows: Range<Int>) {
        let width = source.luma.width
        for y in lumaRows {
            Self.curveRow(from: source.luma.row(y), to: destination.luma.row(y), count: width)
        }
        let chromaRows = destination.chromaRow(forLumaRow: lumaRows.lowerBound)
            ..< destination.chromaRow(forLumaRow: lumaRows.upperBound)
        for y in chromaRows {
            destination.cb.row(y).update(repeating: 128, count: destination.cb.width)
            destination.cr.row(y).update(repeating: 128, count: destination.cr.width)
        }
    }

    /// One row: 16 samples per step, then the scalar curve for the tail.
    @inline(__always)
    static func curveRow(from source: UnsafeMutablePointer<UInt8>, to destination: UnsafeMutablePointer<UInt8>,
                         count: Int) {
        var x = 0
        let raw = UnsafeMutableRawPointer(destination)
        let input = UnsafeRawPointer(source)
        while x + 16 <= count {
            let v = input.loadUnaligned(fromByteOffset: x, as: SIMD16<UInt8>.self)
            raw.storeBytes(of: curve(v), toByteOffset: x, as: SIMD16<UInt8>.self)
            x += 16
        }
        while x < count {
            destination[x] = curve(source[x])
            x += 1
        }
    }
}
