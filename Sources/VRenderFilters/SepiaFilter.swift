import VRenderCore

/// `sepia`: monochrome toned brown, like an old print (Core Image's CISepiaTone, as a look):
/// every pixel gets the same brown cast, and the tone range is slightly compressed (paper
/// black and white are never quite 16 and 235).
///
/// As a `ColorProgram` (`fullStrength`), with `x = clamp(i, 16, 235) - 16` and `D = 219`:
///
///     matrix    [4096, 0, 0]   [0, 0, 0]   [0, 0, 0]    // luma kept; chroma index always 128
///     luma[i]   = 16 + 8 + round(x · 205 / D)         // 16...235 → 24...229
///     cb[i]     = clamp(i − 16, 16, 240)              // so Cb' = 112 (toward yellow)
///     cr[i]     = clamp(i + 12, 16, 240)              // so Cr' = 140 (toward red)
///
/// Mid-grey (Y 126) comes out near RGB (148, 126, 97), white near (255, 244, 216) in BT.601.
/// The tint lives in the curves, not in a constant, so at partial strength the chroma matrix
/// (a partial desaturation) and a partial shift combine: `strength=50` gives
/// `Cb' = 128 + u/2 − 8`. The luma curve is non-decreasing.
public typealias SepiaFilter = ColorLookFilter<SepiaLook>

/// The `sepia` look's definition (see above); `SepiaFilter` is the filter.
public enum SepiaLook: ColorLookDefinition {
    public static let name = "sepia"
    public static let summary = "monochrome toned brown, like an old print (CISepiaTone)"
    /// The look at strength 100.
    public static let fullStrength = ColorProgram(
        matrix: [4096, 0, 0, 0, 0, 0, 0, 0, 0],
        lumaCurve: CurveMath.lumaCurve { CurveMath.levels($0, black: 8, white: 213) },
        cbCurve: CurveMath.chromaCurve(shift: -16),
        crCurve: CurveMath.chromaCurve(shift: 12))
}
