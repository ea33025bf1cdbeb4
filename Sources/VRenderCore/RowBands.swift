import Dispatch

/// The one splitter of a picture's rows into bands run in parallel (filters, the synthetic
/// camera, picture metrics). Every caller computes a row from its inputs alone, never from a
/// neighbour band's output, so the split decides only who computes what: the result is the
/// same bytes at any thread count.
public struct RowBands: Sendable, Equatable {
    /// Below this many rows a band costs more in dispatch than it saves.
    public let minimumRows: Int
    /// Every band but the first starts on a multiple of this (2 for 4:2:0: two bands never
    /// share a chroma row).
    public let alignment: Int

    public init(minimumRows: Int, alignment: Int = 1) {
        precondition(minimumRows > 0 && alignment > 0, "row bands of at least \(minimumRows) rows, aligned to \(alignment)")
        self.minimumRows = minimumRows
        self.alignment = alignment
    }

    /// Bands of a 4:2:0 picture's luma rows: starting on chroma block boundaries, 32 rows at least.
    public static let yuv420 = RowBands(minimumRows: 32, alignment: ChromaGeometry.yuv420.blockHeight)

    /// Up to `threads` bands covering `0..<rows` exactly once, in order, none empty and none
    /// under `minimumRows` unless there is only one; none at all when `rows` is 0.
    public func split(rows: Int, threads: Int) -> [Range<Int>] {
        let count = Swift.max(1, Swift.min(threads, rows / minimumRows))
        var bands: [Range<Int>] = []
        bands.reserveCapacity(count)
        var start = 0
        for index in 0..<count {
            let end = index == count - 1 ? rows : Swift.max(start, rows * (index + 1) / count / alignment * alignment)
            if end > start { bands.append(start..<end) }
            start = end
        }
        return bands
    }

    /// Runs `body` once per band of `split(rows:threads:)`, in parallel when there are several.
    public func run(rows: Int, threads: Int, _ body: @Sendable (Range<Int>) -> Void) {
        Self.run(split(rows: rows, threads: threads)) { _, rows in body(rows) }
    }

    /// Runs `body(index, rows)` for every band, in parallel when there is more than one (the
    /// index picks per-band scratch memory).
    public static func run(_ bands: [Range<Int>], _ body: @Sendable (Int, Range<Int>) -> Void) {
        if bands.count == 1 {
            body(0, bands[0])
        } else if bands.count > 1 {
            DispatchQueue.concurrentPerform(iterations: bands.count) { index in body(index, bands[index]) }
        }
    }
}
