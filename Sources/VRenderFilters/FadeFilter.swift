import VRenderCore

/// `fade`: washed-out colour with lifted blacks, in the spirit of Core Image's
/// CIPhotoEffectFade (a print left in the sun).
///
/// As a `ColorProgram` (`fullStrength`), with `x = clamp(i, 16, 235) - 16` and `D = 219`:
///
///     matrix    [4096, 0, 0]   [0, 2458, 0]   [0, 0, 2458]     // saturation × 0.6
///     luma[i]   = 16 + 28 + round(x · 179 / D)                // 16...235 → 44...223
///     cb[i] = cr[i] = clamp(i, 16, 240)
///
/// Lower contrast (slope 0.82), black lifted by 28 codes, white lowered by 12. Curves are
/// non-decreasing.
public typealias FadeFilter = ColorLookFilter<FadeLook>

/// The `fade` look's definition (see above); `FadeFilter` is the filter.
public enum FadeLook: ColorLookDefinition {
    public static let name = "fade"
    public static let summary = "faded: less colour, lifted blacks, lower contrast (CIPhotoEffectFade)"
    /// The look at strength 100.
    public static let fullStrength = ColorProgram(
        matrix: [4096, 0, 0, 0, 2458, 0, 0, 0, 2458],
        lumaCurve: CurveMath.lumaCurve { CurveMath.levels($0, black: 28, white: 207) },
        cbCurve: CurveMath.chromaCurve(shift: 0),
        crCurve: CurveMath.chromaCurve(shift: 0))
}
