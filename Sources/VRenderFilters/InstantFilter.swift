import VRenderCore

/// `instant`: a warm, slightly faded instant-camera print with shifted hues, in the spirit of
/// Core Image's CIPhotoEffectInstant.
///
/// As a `ColorProgram` (`fullStrength`), with `x = clamp(i, 16, 235) - 16` and `D = 219`:
///
///     matrix    [4096, 0, 0]   [0, 3468, −303]   [0, 303, 3468]
///                 // chroma × 0.85 and turned 5° in the Cb/Cr plane (3468 ≈ 4096·0.85·cos 5°,
///                 // 303 ≈ 4096·0.85·sin 5°): reds lean orange, greens cyan, blues magenta
///     g         = x + round(x·(D − x)·20 / (100·D))      // mid-tones up to +11 codes
///     luma[i]   = 16 + 12 + round(g · 201 / D)          // 16...235 → 28...229
///     cb[i]     = clamp(i − 6, 16, 240)                 // warm cast: toward yellow...
///     cr[i]     = clamp(i + 4, 16, 240)                 // ...and red
///
/// Curves are non-decreasing.
public typealias InstantFilter = ColorLookFilter<InstantLook>

/// The `instant` look's definition (see above); `InstantFilter` is the filter.
public enum InstantLook: ColorLookDefinition {
    public static let name = "instant"
    public static let summary = "instant-camera print: warm, slightly faded, shifted hues (CIPhotoEffectInstant)"
    /// The look at strength 100.
    public static let fullStrength = ColorProgram(
        matrix: [4096, 0, 0, 0, 3468, -303, 0, 303, 3468],
        lumaCurve: CurveMath.lumaCurve {
            CurveMath.levels(CurveMath.liftMidtones($0, percent: 20), black: 12, white: 213)
        },
        cbCurve: CurveMath.chromaCurve(shift: -6),
        crCurve: CurveMath.chromaCurve(shift: 4))
}
