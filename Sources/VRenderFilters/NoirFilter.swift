import VRenderCore

/// `noir`: monochrome with strong contrast, in the spirit of Core Image's CIPhotoEffectNoir:
/// deep blacks, bright whites, mid-tones pulled apart by a full S-curve.
///
/// As a `ColorProgram` (`fullStrength`), with `x = clamp(i, 16, 235) - 16` and `D = 219`:
///
///     matrix    [4096, 0, 0]   [0, 0, 0]   [0, 0, 0]     // luma kept; chroma index always 128
///     luma[i]   = 16 + round(x² · (3D − 2x) / D²)       // cubic smoothstep: slope 1.5 at mid-grey,
///                                                       // 0 at black and white (crushed ends)
///     Cb', Cr'  identity curves                         // so chroma is exactly 128
///
/// The luma curve is non-decreasing, maps 16 → 16 and 235 → 235, and is symmetric about
/// mid-grey.
public typealias NoirFilter = ColorLookFilter<NoirLook>

/// The `noir` look's definition (see above); `NoirFilter` is the filter.
public enum NoirLook: ColorLookDefinition {
    public static let name = "noir"
    public static let summary = "monochrome with strong contrast: deep blacks, bright whites (CIPhotoEffectNoir)"
    /// The look at strength 100.
    public static let fullStrength = ColorProgram(
        matrix: [4096, 0, 0, 0, 0, 0, 0, 0, 0],
        lumaCurve: CurveMath.lumaCurve(CurveMath.smoothstep))
}
