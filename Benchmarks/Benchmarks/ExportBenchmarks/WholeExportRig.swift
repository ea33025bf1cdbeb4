// Whole exports through the public `Exporter` API, one export per iteration: what `vrender
// concat` does, every stage in its own thread. After each export (outside the measurement) the
// output's video frames are counted against the inputs' (`GateMetric.framesLost`) and the
// frames the export reported damaged are recorded (`GateMetric.damagedFrames`).

import Benchmark
import BenchmarkSupport
import Foundation
import VRenderExport
import VRenderFilters

/// One export configuration and the frame count its inputs hold.
// @unchecked Sendable: one benchmark uses it, and its setup, iterations and teardown run in turn.
final class WholeExportRig: @unchecked Sendable {
    private let outputName: String
    private let configure: (inout ExportOptions) -> Void
    private var options: ExportOptions?
    private var framesIn = 0

    /// `configure` sets what differs from a plain `vrender concat take1 take2 -o OUTPUT`.
    init(outputName: String, configure: @escaping (inout ExportOptions) -> Void) {
        self.outputName = outputName
        self.configure = configure
    }

    func setUp() throws {
        let takes = [try ExportInputs.take(1), try ExportInputs.take(2)]
        framesIn = try takes.map(ExportInputs.videoFrameCount).reduce(0, +)
        var options = ExportOptions(inputs: takes, output: try ExportInputs.scratch(outputName), overwrite: true)
        configure(&options)
        self.options = options
    }

    func tearDown() {
        if let options { try? FileManager.default.removeItem(atPath: options.output) }
        options = nil
    }

    @inline(never)
    func exportOnce(_ benchmark: Benchmark) throws {
        guard let options else { return }
        let summary = try Exporter(options: options).export()
        benchmark.stopMeasurement()
        let framesOut = try ExportInputs.videoFrameCount(options.output)
        benchmark.measurement(GateMetric.framesLost, abs(framesOut - framesIn))
        benchmark.measurement(GateMetric.damagedFrames, summary.damagedFrames.values.reduce(0, +))
    }
}
