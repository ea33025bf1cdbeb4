import Foundation
import VRenderCore

/// Where a bench writes its report besides the terminal: `--json FILE` (the `TimingReport`) and
/// `--plot FILE.svg` (`TimingPlot`). Both are checked before the run, so a typo costs no
/// minutes of measuring, and written atomically (`AtomicFile`) after it.
public struct BenchFiles: Sendable {
    public var json: String?
    public var plot: String?

    public init(json: String? = nil, plot: String? = nil) {
        self.json = json
        self.plot = plot
    }

    /// Each file must be able to exist: its folder exists and it is not a folder itself.
    /// Throws `VRenderError.output` naming the file.
    func check() throws {
        for path in [json, plot].compactMap({ $0 }) {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                throw VRenderError.output(path, "is a directory")
            }
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw VRenderError.output(path, "directory \(folder) does not exist")
            }
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
