import VRenderCore

/// What a filter is, for `vrender filters`, `--help` and validation.
public struct FilterDescriptor: Sendable, Hashable {
    public var name: String
    /// One line for listings.
    public var summary: String
    /// Pixel layouts the kernel accepts (all planar 8-bit limited range).
    public var pixelFormats: [String]

    public init(name: String, summary: String, pixelFormats: [String] = ["yuv420p", "yuv422p", "yuv444p"]) {
        self.name = name
        self.summary = summary
        self.pixelFormats = pixelFormats
    }
}

/// A video filter: a descriptor plus a kernel over a band of rows, so a frame can be split
/// across threads (as libavfilter's slice threading does). Kernels read `source` and write
/// `destination`; the two may be the same image (in place).
public protocol VideoFilter: Sendable {
    var descriptor: FilterDescriptor { get }

    /// Filters luma rows `lumaRows` and the chroma rows that belong to them
    /// (`YUVImage.chromaRow(forLumaRow:)`). Bands never overlap, so calls may run concurrently.
    func apply(source: YUVImage, destination: YUVImage, lumaRows: Range<Int>)
}

/// An ordered list of filters applied one after another (`--filter "a,b"`).
public struct FilterChain: Sendable {
    public let filters: [any VideoFilter]

    public init(_ filters: [any VideoFilter]) {
        self.filters = filters
    }

    /// True when the chain leaves every pixel as it is: the pipeline can then skip it.
    public var isIdentity: Bool { filters.allSatisfy { $0 is IdentityFilter } }

    public var names: [String] { filters.map(\.descriptor.name) }

    /// Runs the chain over the whole frame. The first filter reads `source`, every later one
    /// works in place on `destination`. Rows are split into `threads` bands.
    public func run(source: YUVImage, destination: YUVImage, threads: Int) {
        precondition(source.width == destination.width && source.height == destination.height,
                     "source and destination sizes differ")
        let active = filters.filter { !($0 is IdentityFilter) }
        guard !active.isEmpty else {
            if source.luma.base != destination.luma.base {
                PlaneCopy.copy(source, to: destination)
            }
            return
        }
        for (index, filter) in active.enumerated() {
            let input = index == 0 ? source : destination
            RowSplitter.run(height: destination.height, threads: threads) { rows in
                filter.apply(source: input, destination: destination, lumaRows: rows)
            }
        }
    }
}

/// `none`: leaves the picture as it is.
public struct IdentityFilter: VideoFilter {
    public init() {}
    public let descriptor = FilterDescriptor(name: "none", summary: "no filter: the picture as recorded")

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
        let chroma = source.chromaRow(forLumaRow: lumaRows.lowerBound)..<source.chromaRow(forLumaRow: lumaRows.upperBound)
        copyRows(source.cb, destination.cb, chroma)
        copyRows(source.cr, destination.cr, chroma)
    }

    private static func copyRows(_ source: PlaneView, _ destination: PlaneView, _ rows: Range<Int>) {
        for y in rows {
            destination.row(y).update(from: source.row(y), count: source.width)
        }
    }
}
