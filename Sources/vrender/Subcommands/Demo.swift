import ArgumentParser
import Foundation
import VRenderCapture
import VRenderCore
import VRenderExport
import VRenderFilters
import VRenderMedia
import VRenderRecording

extension VRender {
    /// `vrender demo`: the whole job with no camera: synthetic takes → mono export.
    struct Demo: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Record three synthetic takes (lens jumps, a zoom ramp, the torch) and export them with mono.",
            discussion: "Writes DIR/takes/ (replacing the takes a previous demo left there) and DIR/export.mov.")

        @Option(help: ArgumentHelp("Folder for the demo's takes and export.", valueName: "dir"))
        var out = "vrender-demo"

        @Option(help: ArgumentHelp("Capture size WxH.", valueName: "WxH"))
        var size = "1280x720"

        @OptionGroup var backend: GPUOptions

        /// The demo's script: every feature of the synthetic camera in three seconds.
        static let script = """
            # vrender demo: lens jumps, a zoom ramp and the torch
            at 0s lens 0.5
            at 0s torch off
            at 0.75s lens 1
            at 1.5s lens 2
            at 1.6s zoom 4 ramp 2
            at 2.2s torch on
            at 3s stop
            """

        func validate() throws {
            if ValueSyntax.size(size) == nil { throw ValidationError("--size '\(size)' is not WxH with even sides") }
        }

        func run() throws {
            FFmpegLog.configure(verbose: false)
            let takesDirectory = out + "/takes"
            try FileManager.default.createDirectory(atPath: takesDirectory, withIntermediateDirectories: true)
            // The demo owns this folder: start from no takes so reruns give the same result.
            for name in (try? FileManager.default.contentsOfDirectory(atPath: takesDirectory)) ?? []
            where name.hasPrefix(TakesFolder.takeFilePrefix) || name == TakesManifest.fileName {
                unlink(takesDirectory + "/" + name)
            }
            let source = try SyntheticCamera(specification: "synthetic:seed=1",
                                             request: CaptureRequest(size: ValueSyntax.size(size)))
            let script = try ActionScript(text: Self.script, source: "demo script")
            let status = StatusPrinter(enabled: false)
            let recorder = Recorder(source: source, plan: RecordingPlan(outputDirectory: takesDirectory, takes: 3, script: script)) {
                status.handle($0)
            }
            _ = try recorder.run()

            let output = out + "/export.mov"
            let options = ExportOptions(inputs: try TakesFolder.takePaths(in: takesDirectory).paths, output: output,
                                        filter: try FilterRegistry.chain("mono"), overwrite: true, gpu: backend.gpu)
            let printer = ProgressPrinter(style: isatty(STDERR_FILENO) != 0 ? .bar : .none)
            let exporter = Exporter(options: options) { printer.report($0) }
            let summary = try exporter.run(try exporter.plan(try exporter.probe()))
            printer.finish()
            print(Concat.finalLine(summary))
            print("demo: takes in \(takesDirectory)/, the finished video is \(URL(fileURLWithPath: output).standardizedFileURL.path)")
        }
    }
}
