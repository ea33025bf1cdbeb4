import Foundation
import VRenderCore

/// Where a bench writes its report besides the terminal: `--json FILE` (the `TimingReport`) and
/// `--plot FILE.svg` (`TimingPlot`). Both are checked before the run, so a typo costs no
/// minutes of measuring, and written atomically (`AtomicFile`) after it.
package struct BenchFiles: Sendable {
    package var json: String?
    package var plot: String?

    package init(json: String? = nil, plot: String? = nil) {
        self.json = json
        self.plot = plot
    }

    /// Each file must be able to exist: its folder exists and it is not a folder itself.
    /// Throws `VRenderError.output` naming the file.
    func check() throws {
        for path in [json, plot].compactMap({ $0 }) {
            try AtomicFile(path: path).checkTarget()
        }
    }

    /// Writes the report as JSON and as a plot, where asked.
    func write(_ report: TimingReport) throws {
        if let json { try report.write(to: json) }
        if let plot {
            let svg = Array(TimingPlot.svg(report).utf8)
            try svg.withUnsafeBytes { try AtomicFile.write($0, to: plot) }
        }
    }
}
