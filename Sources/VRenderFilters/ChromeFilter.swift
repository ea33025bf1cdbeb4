import VRenderCore

/// `chrome`: exaggerated colour and contrast, in the spirit of Core Image's
/// CIPhotoEffectChrome (a slide-film look).
///
/// As a `ColorProgram` (`fullStrength`), with `x = clamp(i, 16, 235) - 16` and `D = 219`:
///
///     matrix    [4096, 0, 0]   [0, 5120, 0]   [0, 0, 5120]     // saturation × 1.25
///     luma[i]   = 16 + x + round((x²·(3D − 2x) − x·D²) / (2·D²))
///                 // halfway from identity to smoothstep: slope 1.25 at mid-grey
///     cb[i] = cr[i] = clamp(i, 16, 240)                       // keeps boosted chroma legal
///
/// Curves are non-decreasing; black and white stay at 16 and 235.
public typealias ChromeFilter = ColorLookFilter<ChromeLook>

/// The `chrome` look's definition (see above); `ChromeFilter` is the filter.
public enum ChromeLook: ColorLookDefinition {
    public static let name = "chrome"
    public static let summary = "vivid: more saturation and contrast (CIPhotoEffectChrome)"
    /// The look at strength 100.
    public static let fullStrength = ColorProgram(
        matrix: [4096, 0, 0, 0, 5120, 0, 0, 0, 5120],
        lumaCurve: CurveMath.lumaCurve { CurveMath.sCurve($0, percent: 50) },
        cbCurve: CurveMath.chromaCurve(shift: 0),
        crCurve: CurveMath.chromaCurve(shift: 0))
}
