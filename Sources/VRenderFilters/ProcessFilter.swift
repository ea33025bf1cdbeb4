import VRenderCore

/// `process`: a cross-processed look with cool shadows, warm highlights and contrast, in the
/// spirit of Core Image's CIPhotoEffectProcess.
///
/// As a `ColorProgram` (`fullStrength`), with `x = clamp(i, 16, 235) - 16`, `D = 219` and
/// `ybar` the block's rounded mean luma (so the tint follows the local brightness):
///
///     matrix    [4096, 0, 0]   [−328, 4506, 0]   [164, 0, 4506]
///                 // saturation × 1.1; Cb' falls by 0.08 and Cr' rises by 0.04 per luma code
///     luma[i]   = 16 + x + round((x²·(3D − 2x) − x·D²) · 60 / (100·D²))   // S-curve, slope 1.3
///     cb[i]     = clamp(i + 9, 16, 240)
///     cr[i]     = clamp(i − 4, 16, 240)
///
/// Together: shadows (ybar 16) get Cb +9, Cr −4 (blue-cyan), highlights (ybar 235) Cb −9,
/// Cr +5 (yellow-orange), mid-grey almost nothing. Curves are non-decreasing.
public typealias ProcessFilter = ColorLookFilter<ProcessLook>

/// The `process` look's definition (see above); `ProcessFilter` is the filter.
public enum ProcessLook: ColorLookDefinition {
    public static let name = "process"
    public static let summary = "cross-processed: cool shadows, warm highlights, contrast (CIPhotoEffectProcess)"
    /// The look at strength 100.
    public static let fullStrength = ColorProgram(
        matrix: [4096, 0, 0, -328, 4506, 0, 164, 0, 4506],
        lumaCurve: CurveMath.lumaCurve { CurveMath.sCurve($0, percent: 60) },
        cbCurve: CurveMath.chromaCurve(shift: 9),
        crCurve: CurveMath.chromaCurve(shift: -4))
}
