import VRenderCore

/// `tonal`: monochrome that keeps the whole tonal range, in the spirit of Core Image's
/// CIPhotoEffectTonal: black stays black and white stays white, but mid-tones flatten so that
/// detail in shadows and highlights stays readable (the opposite of `noir`).
///
/// As a `ColorProgram` (`fullStrength`), with `x = clamp(i, 16, 235) - 16` and `D = 219`:
///
///     matrix    [4096, 0, 0]   [0, 0, 0]   [0, 0, 0]       // luma kept; chroma index always 128
///     luma[i]   = 16 + x + round(x·(D − x)·(D − 2x) / (2·D²))
///                 // t + t(1−t)(1−2t)/2: slope 0.75 at mid-grey, 1.5 at the ends; shadows up to
///                 // +11 codes, highlights down as much
///     Cb', Cr'  identity curves                           // so chroma is exactly 128
///
/// The luma curve is non-decreasing and maps 16 → 16 and 235 → 235.
public typealias TonalFilter = ColorLookFilter<TonalLook>

/// The `tonal` look's definition (see above); `TonalFilter` is the filter.
public enum TonalLook: ColorLookDefinition {
    public static let name = "tonal"
    public static let summary = "monochrome keeping the full tonal range, flatter mid-tones (CIPhotoEffectTonal)"
    /// The look at strength 100.
    public static let fullStrength = ColorProgram(
        matrix: [4096, 0, 0, 0, 0, 0, 0, 0, 0],
        lumaCurve: CurveMath.lumaCurve { CurveMath.flatten($0, percent: 50) })
}
