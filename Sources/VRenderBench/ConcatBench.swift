import Foundation
import VRenderCore
import VRenderExport
import VRenderFilters

/// `vrender bench concat`: the real export (`Exporter`, every stage on its own thread as in
/// `vrender concat`) with stage timings on. Without an output of the user's, it writes a
/// temporary file and removes it afterwards.
///
/// `cancel()` may be called from any thread (Ctrl-C); `run` from one.
package final class ConcatBench: Sendable {
    /// What one run gives: the timings and the export's own summary.
    package struct Result: Sendable {
        package var report: TimingReport
        package var summary: ExportSummary
        /// True when the output was a temporary file, now removed.
        package var outputRemoved: Bool
    }

    private let exporter: Exporter
    private let timings = StageTimings(kind: "concat")
    private let removesOutput: Bool
    private let files: BenchFiles

    /// `output`: where the export goes; nil writes a temporary file and removes it afterwards
    /// (`options.output` is then ignored).
    package init(options: ExportOptions, output: String?, files: BenchFiles) {
        var options = options
        if let output {
            options.output = output
            options.outputIsDefault = false
        } else {
            options.output = NSTemporaryDirectory() + "vrender-bench-\(UUID().uuidString).mov"
            options.outputIsDefault = true  // the planner may pick another container, as for export.mov
            options.overwrite = false
        }
        options.timingsOutput = nil  // the report goes to `files`
        removesOutput = output == nil
        self.files = files
        exporter = Exporter(options: options, timings: timings)
    }

    /// Stops a running export: its stages return, its temporary file is removed, `run` throws
    /// `VRenderError.cancelled`.
    package func cancel() { exporter.cancel() }

    /// Exports, then writes the report where `files` asks. `onPlan` sees the plan first.
    package func run(onPlan: (ExportPlan) -> Void = { _ in }) throws -> Result {
        try files.check()
        let summary = try exporter.export(onPlan: onPlan)
        if removesOutput {
            try? FileManager.default.removeItem(atPath: summary.output)
            timings.setting("output", "a temporary file, removed")
        }
        // The filters' and the tone mapper's kernels (VRENDER_CPU), so reports from machines
        // or runs with different ones are not compared as if alike.
        timings.setting("rowKernels", RowInstructions.detected.rawValue)
        let report = timings.report()
        try files.write(report)
        return Result(report: report, summary: summary, outputRemoved: removesOutput)
    }
}
