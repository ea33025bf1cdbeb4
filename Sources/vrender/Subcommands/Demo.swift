import ArgumentParser
import Foundation
import VRenderCore
import VRenderDemo
import VRenderExport
import VRenderWorkerCommands

extension VRender {
    /// `vrender demo`: the whole job with no camera: synthetic takes → mono export.
    struct Demo: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Record three synthetic takes (lens jumps, a zoom ramp, the torch, a prompter script) and export them with mono.",
            discussion: "Writes DIR/takes/ (replacing the takes a previous demo left there), DIR/export.mov, and DIR/export-prompter.mov with the prompter burned in.")

        @Option(help: ArgumentHelp("Folder for the demo's takes and export.", valueName: "dir"))
        var out = "vrender-demo"

        @Option(help: ArgumentHelp("Capture size WxH (default 1280x720).", valueName: "WxH"), transform: SizeArgument.parse)
        var size = SizeArgument(1280, 720)

        @OptionGroup var backend: GPUOptions

        func run() throws {
            let demo = DemoJob(directory: out, size: size.value, gpu: backend.gpu)
            let status = StatusPrinter(statusLine: false)
            let printer = ProgressPrinter(style: isatty(STDERR_FILENO) != 0 ? .bar : .none)
            defer { printer.finish() }   // on failure too: the error starts on a line of its own
            let summary = try demo.run(recording: { status.handle($0) }, progress: { printer.report($0) })
            printer.finish()
            print(ExportOutput.finalLine(summary))
            print("demo: takes in \(demo.takesDirectory)/, the finished video is \(FileNames.absolute(demo.outputPath))")
            print("demo: with the prompter burned in: \(FileNames.absolute(demo.prompterOutputPath))")
        }
    }
}
