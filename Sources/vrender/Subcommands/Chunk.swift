import ArgumentParser
import Foundation
import VRenderCore
import VRenderExport
import VRenderScale
import VRenderWorkerCommands

extension VRender {
    /// `vrender chunk`: the steps of a chunked export, as its jobs run them; usable by hand.
    struct Chunk: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The steps of a chunked export (what 'concat --engine' runs): plan, render, sound, join, status.",
            discussion: """
                A work folder holds plan.json, the rendered chunks, a done-list and the logs; on a \
                cluster it must be on a file system every node mounts at the same path. 'concat \
                --engine local|slurm' runs these steps for you (docs/scale-out.md).
                """,
            // render, sound and join are vrender-worker's commands too (VRenderWorkerCommands).
            subcommands: [Plan.self, ChunkRender.self, ChunkSound.self, ChunkJoin.self, Status.self])

        struct Plan: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Plan a chunked export into a work folder (nothing is rendered).")

            @Option(name: [.short, .customLong("output")], help: ArgumentHelp("The export's output file.", valueName: "file"))
            var output: String

            @Option(name: .customLong("work-dir"), help: ArgumentHelp("Where the plan goes (default: <output>.chunks): a new or empty folder, holding neither the output nor an input.", valueName: "dir"))
            var workDir: String?

            @OptionGroup var size: ChunkSizeArguments

            @OptionGroup var export: ExportArguments

            @Flag(help: "Replace the output file if it exists (when the join writes it).")
            var overwrite = false

            @OptionGroup var backend: GPUOptions

            func validate() throws {
                try ExportOutput.validate(output: output)
                try export.refuseDeliveryWhenChunked("'chunk plan'")
            }

            func run() throws {
                var options = try export.options(gpu: backend.gpu)
                options.output = output
                options.overwrite = overwrite
                let sizing = size.sizing ?? .seconds(30)   // the plan is for a cluster, most likely
                let request = ChunkedExportRequest(options: options, engine: .local, sizing: sizing, workDir: workDir)
                let made = try ChunkedExport(request: request) { Warnings.print($0.description) }.makePlan()
                print("\(made.folder.planPath): \(made.plan.chunks.count) chunk(s), \(made.plan.totalFrames) frames, a keyframe every \(made.plan.keyframeInterval) frame(s)")
            }
        }

        struct Status: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Show which chunks of a plan are rendered, which are missing, and their logs.")

            @Argument(help: ArgumentHelp("The work folder (with plan.json).", valueName: "dir"))
            var directory: String

            @Flag(help: "Print the status as JSON.")
            var json = false

            func run() throws {
                let status = try ChunkStatus(folder: WorkFolder(path: directory))
                if json { return try JSONOutput.print(status) }
                status.lines.map(FileNames.display).forEach { print($0) }
            }
        }
    }
}
