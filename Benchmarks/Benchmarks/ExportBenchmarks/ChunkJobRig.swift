// One chunk of a chunked export rendered per iteration, as `vrender chunk render` does on a
// worker: the plan is made once (setup), then every iteration renders chunk 1 from it and
// records how many takes the worker probed (`GateMetric.takesProbed`): the plan carries the
// takes' probes, so a worker's start-up reads none, whatever the export's size.

import Benchmark
import BenchmarkSupport
import Foundation
import VRenderExport
import VRenderScale

// @unchecked Sendable: one benchmark uses it, and its setup, iterations and teardown run in turn.
final class ChunkJobRig: @unchecked Sendable {
    private var folder: WorkFolder?

    func setUp() throws {
        let work = try ExportInputs.scratch("chunk-job.chunks")
        try? FileManager.default.removeItem(atPath: work)   // this rig's own folder, from an earlier run
        var options = ExportOptions(inputs: [try ExportInputs.take(1), try ExportInputs.take(2)],
                                    output: try ExportInputs.scratch("chunk-job.mkv"), overwrite: true)
        options.codec = .encode(.ffv1)   // a keyframe every frame: two chunks of 30 frames
        options.size = (320, 180)
        let request = ChunkedExportRequest(options: options, engine: .local, sizing: .count(2), workDir: work,
                                           executable: "")
        folder = try ChunkedExport(request: request, report: { _ in }).makePlan().folder
    }

    func tearDown() {
        if let folder { try? FileManager.default.removeItem(atPath: folder.path) }
        folder = nil
    }

    @inline(never)
    func renderChunk(_ benchmark: Benchmark) throws {
        guard let folder else { return }
        let record = try ChunkWorker(folder: folder).render(chunk: 1)
        benchmark.stopMeasurement()
        benchmark.measurement(GateMetric.takesProbed, record.probes ?? Int.max)
    }
}
