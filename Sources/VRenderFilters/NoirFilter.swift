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
public struct NoirFilter: ColorProgramFilter {
    /// The look at strength 100.
    public static let fullStrength = ColorProgram(
        matrix: [4096, 0, 0, 0, 0, 0, 0, 0, 0],
        lumaCurve: CurveMath.lumaCurve(CurveMath.smoothstep))

    public let descriptor = FilterDescriptor(
        name: "noir", summary: "monochrome with strong contrast: deep blacks, bright whites (CIPhotoEffectNoir)",
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
