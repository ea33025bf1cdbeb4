import VRenderCore

/// A filter whose whole effect is one `ColorProgram`: the CPU kernel and the Vulkan shader
/// both run `program`, so the GPU backend takes it from here and needs nothing else.
///
/// Conformers promise that `apply` gives exactly `program.referenceApply`'s bytes. Every output
/// block then depends only on the same block of the input, which is what lets `FilterChain`
/// fuse consecutive colour filters row band by row band.
public protocol ColorProgramFilter: VideoFilter {
    /// The colour math at the filter's current options (strength included).
    var program: ColorProgram { get }
}

extension FilterOption {
    /// `strength`, the one option of every colour look: how much of the look, in percent.
    public static let strength = FilterOption(
        name: "strength", summary: "how much of the look, in percent (0 leaves the picture as it is)",
        range: 0...100, defaultValue: 100)
}

extension ColorProgram {
    /// This program at `strength` percent, blended toward the identity entry by entry:
    ///
    ///     blend(full, id) = id + ⌊((full − id) · strength + 50) / 100⌋
    ///
    /// for each matrix coefficient (`id` = 4096 on the diagonal, 0 elsewhere) and for each curve
    /// entry (`id` = the entry's index). Strength 100 gives this program, 0 the identity; a curve
    /// entry stays between its index and its full value, so monotonic curves stay monotonic and
    /// in range. The floor makes the rounding the same for positive and negative differences.
    public func atStrength(_ strength: Int) -> ColorProgram {
        precondition(FilterOption.strength.range.contains(strength), "strength \(strength) outside 0...100")
        if strength == 100 { return self }
        func blend(_ full: Int, _ identity: Int) -> Int {
            identity + CurveMath.floorDiv((full - identity) * strength + 50, 100)
        }
        let identityMatrix = ColorProgram.identity.matrix
        let matrix = zip(self.matrix, identityMatrix).map { Int32(blend(Int($0), Int($1))) }
        func curve(_ full: [UInt8]) -> [UInt8] {
            full.enumerated().map { UInt8(blend(Int($0.element), $0.offset)) }
        }
        return ColorProgram(matrix: matrix, lumaCurve: curve(lumaCurve), cbCurve: curve(cbCurve),
                            crCurve: curve(crCurve))
    }
}

/// What every look stores: its strength, the program at that strength and the CPU kernel
/// prepared from it (tables built once, when the filter is made, never per frame).
struct LookSettings: Sendable {
    let strength: Int
    let program: ColorProgram
    let kernel: ColorKernel

    init(full: ColorProgram, strength: Int) {
        self.strength = strength
        program = full.atStrength(strength)
        kernel = ColorKernel(program)
    }

    var optionValues: [String: Int] { [FilterOption.strength.name: strength] }

    /// The strength to use for `configured(with:)`: the value given, else the current one.
    func strength(from values: [String: Int]) -> Int {
        values[FilterOption.strength.name] ?? strength
    }
}

/// What makes a colour look: its name, one line for listings and its program at strength 100.
/// Each look's file defines one, with the math in its doc comment.
public protocol ColorLookDefinition: Sendable {
    static var name: String { get }
    static var summary: String { get }
    /// The look at strength 100.
    static var fullStrength: ColorProgram { get }
}

/// A colour look as a filter: the definition's program at a `strength`, run by a CPU kernel
/// prepared once (tables built when the filter is made, never per frame).
public struct ColorLookFilter<Look: ColorLookDefinition>: ColorProgramFilter {
    public let descriptor = FilterDescriptor(name: Look.name, summary: Look.summary, options: [.strength])
    let settings: LookSettings

    public init(strength: Int = FilterOption.strength.defaultValue) {
        settings = LookSettings(full: Look.fullStrength, strength: strength)
    }

    /// The look at strength 100.
    public static var fullStrength: ColorProgram { Look.fullStrength }

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
