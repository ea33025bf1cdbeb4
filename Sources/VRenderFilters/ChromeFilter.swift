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
public struct ChromeFilter: ColorProgramFilter {
    /// The look at strength 100.
    public static let fullStrength = ColorProgram(
        matrix: [4096, 0, 0, 0, 5120, 0, 0, 0, 5120],
        lumaCurve: CurveMath.lumaCurve { CurveMath.sCurve($0, percent: 50) },
        cbCurve: CurveMath.chromaCurve(shift: 0),
        crCurve: CurveMath.chromaCurve(shift: 0))

    public let descriptor = FilterDescriptor(
        name: "chrome", summary: "vivid: more saturation and contrast (CIPhotoEffectChrome)",
        options: [.strength])
    let settings: LookSettings

    public init(strength: Int = FilterOption.strength.defaultValue) {
        settings = LookSettings(full: Self.fullStrength, strength: strength)
    }

    public var strength: Int { settings.strength }
    public var program: ColorProgram { settings.program }
    public var optionValues: [String: Int] { settings.optionValues }

    public func apply(source: YUVImage, destination: YUVImage, lumaRows: Range<Int>) {
        settings.kernel.apply(source: source, destination: destination, lumaRows: lumaRows)
    }

    public func configured(with values: [String: Int]) -> any VideoFilter {
        Self(strength: settings.strength(from: values))
    }
}
