import VRenderCore

/// An ordered list of filters applied one after another (`--filter "a,b"`).
///
/// The result is always that of running each filter over the whole frame in turn. Colour
/// filters (`ColorProgramFilter`) compute every block from the same block of their input, so
/// consecutive ones are fused: each thread runs all of them over a few rows at a time while
/// those rows are still in its cache, instead of streaming the whole frame once per filter;
/// a run of looks is one pass (`FusedColorRun`: one composed luma table, the chroma steps in
/// turn).
public struct FilterChain: Sendable {
    public let filters: [any VideoFilter]
    /// True when the chain leaves every pixel as it is (only `none` and colour filters whose
    /// program is the identity, such as `strength=0`): the pipeline can then skip it.
    public let isIdentity: Bool
    private let passes: [Pass]

    /// One walk over the frame: a run of fused colour filters (with its one-pass form when
    /// there is one), or any other filter alone.
    private enum Pass: Sendable {
        case blockwise([any VideoFilter], FusedColorRun?)
        case whole(any VideoFilter)
    }

    /// Rows each fused step covers: even (4:2:0 blocks stay whole), and small enough that a
    /// 4K row band of all three planes stays in a core's L2 cache between filters.
    static let fusedRows = 16

    public init(_ filters: [any VideoFilter]) {
        self.init(filters, instructions: .detected)
    }

    /// `instructions`: the row kernels a run of looks may be fused for (tests run both).
    init(_ filters: [any VideoFilter], instructions: RowInstructions) {
        self.filters = filters
        let active = filters.filter { !Self.leavesPixels($0) }
        isIdentity = active.isEmpty
        var passes: [Pass] = []
        for filter in active {
            if filter is any ColorProgramFilter {
                if case .blockwise(let run, _)? = passes.last {
                    passes[passes.count - 1] = .blockwise(run + [filter], nil)
                } else {
                    passes.append(.blockwise([filter], nil))
                }
            } else {
                passes.append(.whole(filter))
            }
        }
        self.passes = passes.map { pass in
            guard case .blockwise(let run, _) = pass else { return pass }
            let programs = run.compactMap { ($0 as? any ColorProgramFilter)?.program }
            return .blockwise(run, FusedColorRun(programs, instructions: instructions))
        }
    }

    private static func leavesPixels(_ filter: any VideoFilter) -> Bool {
        if filter is IdentityFilter { return true }
        return (filter as? any ColorProgramFilter)?.program == .identity
    }

    public var names: [String] { filters.map(\.descriptor.name) }

    /// The chain as `--filter` accepts it, with every option that differs from its default:
    /// `"mono=strength=60,noir"`. Parsing it gives the same chain.
    public var specification: String {
        filters.map { filter in
            let settings = filter.descriptor.options.compactMap { option -> String? in
                guard let value = filter.optionValues[option.name], value != option.defaultValue else { return nil }
                return "\(option.name)=\(value)"
            }
            return settings.isEmpty ? filter.descriptor.name
                : filter.descriptor.name + "=" + settings.joined(separator: ":")
        }.joined(separator: ",")
    }

    /// Runs the chain over the whole frame. The first pass reads `source`, every later one
    /// works in place on `destination` (which may be `source`). Rows are split into `threads`
    /// bands (`RowBands.yuv420`: bands start on even rows).
    public func run(source: YUVImage, destination: YUVImage, threads: Int) {
        precondition(source.width == destination.width && source.height == destination.height,
                     "source and destination sizes differ")
        guard !passes.isEmpty else {
            if source.luma.base != destination.luma.base {
                PlaneCopy.copy(source, to: destination)
            }
            return
        }
        for (index, pass) in passes.enumerated() {
            let input = index == 0 ? source : destination
            RowBands.yuv420.run(rows: destination.height, threads: threads) { band in
                switch pass {
                case .whole(let filter):
                    filter.apply(source: input, destination: destination, lumaRows: band)
                case .blockwise(let run, _) where run.count == 1:
                    run[0].apply(source: input, destination: destination, lumaRows: band)
                case .blockwise(_, let fused?) where input.chroma.isVectorized:
                    fused.apply(source: input, destination: destination, lumaRows: band)
                case .blockwise(let run, _):
                    // Band starts are even and steps are even, so no 4:2:0 block is split.
                    var start = band.lowerBound
                    while start < band.upperBound {
                        let rows = start..<Swift.min(start + Self.fusedRows, band.upperBound)
                        for (position, filter) in run.enumerated() {
                            filter.apply(source: position == 0 ? input : destination, destination: destination,
                                         lumaRows: rows)
                        }
                        start = rows.upperBound
                    }
                }
            }
        }
    }
}
