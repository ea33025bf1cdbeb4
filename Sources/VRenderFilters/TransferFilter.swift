import VRenderCore

/// `transfer`: warm vintage colour with contrast, in the spirit of Core Image's
/// CIPhotoEffectTransfer (an old dye-transfer print).
///
/// As a `ColorProgram` (`fullStrength`), with `x = clamp(i, 16, 235) - 16` and `D = 219`:
///
///     matrix    [4096, 0, 0]   [0, 4506, 0]   [0, 0, 4506]       // saturation × 1.1
///     s         = x + round((x²·(3D − 2x) − x·D²) · 70 / (100·D²))  // S-curve, slope 1.35
///     luma[i]   = 16 + 6 + round(s · 213 / D)                   // black lifted to 22, white kept
///     cb[i]     = clamp(i − 10, 16, 240)                        // strong warm cast
///     cr[i]     = clamp(i + 6, 16, 240)
///
/// Curves are non-decreasing.
public typealias TransferFilter = ColorLookFilter<TransferLook>

/// The `transfer` look's definition (see above); `TransferFilter` is the filter.
public enum TransferLook: ColorLookDefinition {
    public static let name = "transfer"
    public static let summary = "warm vintage colour with contrast (CIPhotoEffectTransfer)"
    /// The look at strength 100.
    public static let fullStrength = ColorProgram(
        matrix: [4096, 0, 0, 0, 4506, 0, 0, 0, 4506],
        lumaCurve: CurveMath.lumaCurve {
            CurveMath.levels(CurveMath.sCurve($0, percent: 70), black: 6, white: 219)
        },
        cbCurve: CurveMath.chromaCurve(shift: -10),
        crCurve: CurveMath.chromaCurve(shift: 6))
}
