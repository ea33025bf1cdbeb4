import VRenderCore

/// One integer option of a filter (`--filter mono=strength=60`), for validation and listings.
public struct FilterOption: Sendable, Hashable {
    public var name: String
    /// One line for listings, with the unit.
    public var summary: String
    public var range: ClosedRange<Int>
    public var defaultValue: Int

    public init(name: String, summary: String, range: ClosedRange<Int>, defaultValue: Int) {
        precondition(range.contains(defaultValue), "option '\(name)': default outside its range")
        self.name = name
        self.summary = summary
        self.range = range
        self.defaultValue = defaultValue
    }
}

/// What a filter is, for `vrender filters`, `--help` and validation.
public struct FilterDescriptor: Sendable, Hashable {
    public var name: String
    /// One line for listings.
    public var summary: String
    /// Options accepted after the name (`name=option=value`), in listing order.
    public var options: [FilterOption]
    /// Pixel layouts the kernel accepts (all planar 8-bit limited range).
    public var pixelFormats: [String]

    public init(name: String, summary: String, options: [FilterOption] = [],
                pixelFormats: [String] = ["yuv420p", "yuv422p", "yuv444p"]) {
        self.name = name
        self.summary = summary
        self.options = options
        self.pixelFormats = pixelFormats
    }

    public func option(named name: String) -> FilterOption? {
        options.first { $0.name == name }
    }
}

/// A video filter: a descriptor plus a kernel over a band of rows, so a frame can be split
/// across threads (as libavfilter's slice threading does). Kernels read `source` and write
/// `destination`; the two may be the same image (in place).
public protocol VideoFilter: Sendable {
    var descriptor: FilterDescriptor { get }

    /// The value of every option in `descriptor.options`, by name.
    var optionValues: [String: Int] { get }

    /// Filters luma rows `lumaRows` and the chroma rows that belong to them
    /// (`ChromaGeometry.chromaRows(covering:)`). Bands never overlap, so calls may run concurrently.
    func apply(source: YUVImage, destination: YUVImage, lumaRows: Range<Int>)

    /// This filter with the options named in `values` set (names and ranges already checked
    /// against `descriptor.options` by the caller); options not named keep their values.
    func configured(with values: [String: Int]) -> any VideoFilter
}

extension VideoFilter {
    /// A filter without options.
    public var optionValues: [String: Int] { [:] }

    /// A filter without options is always the same filter.
    public func configured(with values: [String: Int]) -> any VideoFilter { self }
}

/// `none`: leaves the picture as it is. Its program is the identity, so a GPU backend that
/// takes programs can treat it like any colour filter.
public struct IdentityFilter: ColorProgramFilter {
    public init() {}
    public let descriptor = FilterDescriptor(name: "none", summary: "no filter: the picture as recorded")
    public var program: ColorProgram { .identity }

    public func apply(source: YUVImage, destination: YUVImage, lumaRows: Range<Int>) {
        guard source.luma.base != destination.luma.base else { return }
        PlaneCopy.copy(source, to: destination, lumaRows: lumaRows)
    }
}

enum PlaneCopy {
    static func copy(_ source: YUVImage, to destination: YUVImage) {
        copy(source, to: destination, lumaRows: 0..<source.height)
    }

    static func copy(_ source: YUVImage, to destination: YUVImage, lumaRows: Range<Int>) {
        copyRows(source.luma, destination.luma, lumaRows)
        let chroma = source.chroma.chromaRows(covering: lumaRows)
        copyRows(source.cb, destination.cb, chroma)
        copyRows(source.cr, destination.cr, chroma)
    }

    private static func copyRows(_ source: PlaneView, _ destination: PlaneView, _ rows: Range<Int>) {
        for y in rows {
            destination.row(y).update(from: source.row(y), count: source.width)
        }
    }
}
