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
/// 24...235.
///
/// As a `ColorProgram` (`fullStrength`): matrix rows `[4096, 0, 0]`, `[0, 0, 0]`, `[0, 0, 0]`
/// (luma kept, chroma index always 128), luma curve `curve(i)` for every index, identity
/// chroma curves. Golden files and tests depend on these exact bytes: do not change them.
public typealias MonoFilter = ColorLookFilter<MonoLook>

/// The `mono` look's definition (see above); `MonoFilter` is the filter.
public enum MonoLook: ColorLookDefinition {
    public static let name = "mono"
    public static let summary = "monochrome with softened contrast (the seed's \"Suavizar\", CIPhotoEffectMono)"
    /// The look at strength 100.
    public static let fullStrength = ColorProgram(
        matrix: [4096, 0, 0, 0, 0, 0, 0, 0, 0],
        lumaCurve: (0...255).map { curve(UInt8($0)) })

    /// The tone curve for one sample, as documented above.
    @inline(__always)
    public static func curve(_ luma: UInt8) -> UInt8 {
        let x = UInt16(Swift.min(Swift.max(luma, 16), 235) - 16)
        return UInt8(24 + ((x * 247) >> 8) + ((x * (219 - x)) >> 10))
    }
}

extension ColorLookFilter where Look == MonoLook {
    /// The mono tone curve for one sample (`MonoLook.curve`).
    public static func curve(_ luma: UInt8) -> UInt8 { MonoLook.curve(luma) }
}
