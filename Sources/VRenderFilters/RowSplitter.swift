import Dispatch

/// Splits a frame's rows into bands and runs a kernel on each, in parallel.
public enum RowSplitter {
    /// Below this many rows per band, threading costs more than it saves.
    static let minimumRowsPerBand = 32

    /// Calls `kernel` once per band of luma rows; bands start on even rows (so 4:2:0 chroma
    /// rows are never shared) and together cover `0..<height` exactly once.
    public static func run(height: Int, threads: Int, _ kernel: @Sendable (Range<Int>) -> Void) {
        let bands = bandRanges(height: height, threads: threads)
        if bands.count == 1 {
            kernel(bands[0])
            return
        }
        DispatchQueue.concurrentPerform(iterations: bands.count) { index in
            kernel(bands[index])
        }
    }

    /// The bands `run` uses, exposed for tests.
    public static func bandRanges(height: Int, threads: Int) -> [Range<Int>] {
        let maxBands = Swift.max(1, height / minimumRowsPerBand)
        let count = Swift.max(1, Swift.min(threads, maxBands))
        var bands: [Range<Int>] = []
        bands.reserveCapacity(count)
        var start = 0
        for index in 0..<count {
            var end = index == count - 1 ? height : (height * (index + 1) / count) & ~1
            end = Swift.max(end, start)
            if end > start { bands.append(start..<end) }
            start = end
        }
        return bands
    }
}
