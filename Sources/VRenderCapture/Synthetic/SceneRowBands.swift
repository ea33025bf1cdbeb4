import Dispatch

/// Splits a picture's rows into bands rendered in parallel. The synthetic camera computes every
/// pixel from the scene alone (never from a neighbour band's output), so the frames are the same
/// bytes at any thread count; the split only decides who computes what.
///
/// VRenderCapture does not depend on VRenderFilters, whose `RowSplitter` does the same for
/// filters; this is the capture side's own copy of the idea.
enum SceneRowBands {
    /// Below this many rows a band costs more in dispatch than it saves.
    static let minimumRowsPerBand = 16

    /// Bands of luma rows covering `0..<height` once, each starting on an even row so a 4:2:0
    /// chroma row is never shared by two bands.
    static func split(height: Int, threads: Int) -> [Range<Int>] {
        let count = Swift.max(1, Swift.min(threads, height / minimumRowsPerBand))
        var bands: [Range<Int>] = []
        var start = 0
        for index in 0..<count {
            let end = index == count - 1 ? height : Swift.max(start, (height * (index + 1) / count) & ~1)
            if end > start { bands.append(start..<end) }
            start = end
        }
        return bands
    }

    /// Runs `body(bandIndex, rows)` for every band, in parallel when there is more than one.
    static func run(_ bands: [Range<Int>], _ body: @Sendable (Int, Range<Int>) -> Void) {
        if bands.count == 1 {
            body(0, bands[0])
            return
        }
        DispatchQueue.concurrentPerform(iterations: bands.count) { index in
            body(index, bands[index])
        }
    }

    /// Processors online (sysconf), the default parallelism; at most 8, beyond which a frame's
    /// bands get too thin to pay for their dispatch.
    static var processorCount: Int {
        Swift.max(1, Swift.min(8, Int(sysconfProcessors())))
    }
}

#if canImport(Glibc)
import Glibc
private func sysconfProcessors() -> Int { sysconf(Int32(_SC_NPROCESSORS_ONLN)) }
#elseif canImport(Darwin)
import Darwin
private func sysconfProcessors() -> Int { sysconf(_SC_NPROCESSORS_ONLN) }
#else
private func sysconfProcessors() -> Int { 1 }
#endif
