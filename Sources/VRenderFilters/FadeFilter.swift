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
public struct FadeFilter: ColorProgramFilter {
    /// The look at strength 100.
    public static let fullStrength = ColorProgram(
        matrix: [4096, 0, 0, 0, 2458, 0, 0, 0, 2458],
        lumaCurve: CurveMath.lumaCurve { CurveMath.levels($0, black: 28, white: 207) },
        cbCurve: CurveMath.chromaCurve(shift: 0),
        crCurve: CurveMath.chromaCurve(shift: 0))

    public let descriptor = FilterDescriptor(
        name: "fade", summary: "faded: less colour, lifted blacks, lower contrast (CIPhotoEffectFade)",
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
