import ArgumentParser
import Foundation
import VRenderCore
import VRenderExport
import VRenderScale

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
            subcommands: [Plan.self, Render.self, Sound.self, Join.self, Status.self])

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
                try ExportArguments.validate(output: output)
            }

            func run() throws {
                var options = try export.options(gpu: backend.gpu)
                options.output = output
                options.overwrite = overwrite
                let sizing = size.sizing ?? .seconds(30)   // the plan is for a cluster, most likely
                let request = ChunkedExportRequest(options: options, engine: .local, sizing: sizing, workDir: workDir,
                                                   executable: EngineArguments.executable)
                let made = try ChunkedExport(request: request) { Warnings.print($0.description) }.makePlan()
                print("\(made.folder.planPath): \(made.plan.chunks.count) chunk(s), \(made.plan.totalFrames) frames, a keyframe every \(made.plan.keyframeInterval) frame(s)")
            }
        }

        struct Render: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Render one chunk of a plan into its work folder and add it to the done-list.")

            @OptionGroup var job: ChunkJobArguments

            @Option(help: ArgumentHelp("The chunk to render (0-based).", valueName: "K"))
            var chunk: Int

            func run() throws {
                let reporting = job.reporting
                let printer = ProgressPrinter(style: reporting.resolvedStyle)
                let worker = job.worker { printer.report($0) }
                let interruptSources = InterruptHandling.install { worker.cancel() }
                defer { withExtendedLifetime(interruptSources) {} }
                defer { printer.finish() }
                let record = try worker.render(chunk: chunk)
                printer.finish()
                if reporting.json { return try JSONOutput.print(record) }
                print("chunk \(record.index): \(record.frames) frames, \(String(format: "%.1f MB", Double(record.bytes) / 1e6)) in \(String(format: "%.2f", record.seconds)) s on \(record.host)")
            }
        }

        struct Sound: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Encode the export's sound (loudness applied) into its work folder, beside the chunks, for the join to copy.")

            @OptionGroup var job: ChunkJobArguments

            func run() throws {
                let reporting = job.reporting
                let worker = job.worker()
                let interruptSources = InterruptHandling.install { worker.cancel() }
                defer { withExtendedLifetime(interruptSources) {} }
                let record = try worker.renderSound()
                if reporting.json { return try JSONOutput.print(record) }
                print("sound: \(record.encoder), \(String(format: "%.1f MB", Double(record.bytes) / 1e6)) in \(String(format: "%.2f", record.seconds)) s on \(record.host)")
            }
        }

        struct Join: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Join every rendered chunk of a plan and its sound into its output (packets copied).",
                discussion: """
                    -o names the output, which must be the plan's: the join never writes where a \
                    plan file alone says. An existing output is replaced only with --overwrite here.
                    """)

            @Argument(help: ArgumentHelp("The work folder (with plan.json).", valueName: "dir"))
            var directory: String

            @Option(name: [.short, .customLong("output")],
                    help: ArgumentHelp("The output file: the one the plan is for, outside the work folder.", valueName: "file"))
            var output: String

            @Flag(help: "Replace the output file if it exists.")
            var overwrite = false

            @OptionGroup var reporting: ProgressOptions

            func validate() throws {
                try ExportArguments.validate(output: output)
            }

            func run() throws {
                let printer = ProgressPrinter(style: reporting.resolvedStyle)
                let worker = ChunkWorker(folder: WorkFolder(path: directory), verbose: reporting.verbose) { printer.report($0) }
                let interruptSources = InterruptHandling.install { worker.cancel() }
                defer { withExtendedLifetime(interruptSources) {} }
                defer { printer.finish() }
                let summary = try worker.join(output: output, overwrite: overwrite)
                printer.finish()
                if reporting.json { return try JSONOutput.print(summary) }
                print(FileNames.display(Concat.finalLine(summary)))
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

/// What the jobs of a chunked export take (`chunk render`, `chunk sound`): the work folder, the
/// processors the job may use, and how it reports.
struct ChunkJobArguments: ParsableArguments {
    @Argument(help: ArgumentHelp("The work folder (with plan.json).", valueName: "dir"))
    var directory: String

    @Option(help: ArgumentHelp("Processors the job may use: its filters, tone mapping and codecs share them (default: the machine's; Slurm jobs pass SLURM_CPUS_PER_TASK).", valueName: "N"))
    var threads: Int?

    @OptionGroup var reporting: ProgressOptions

    func validate() throws {
        if let threads, threads < 1 { throw ValidationError("--threads must be 1 or more, got \(threads)") }
    }

    /// The worker for the folder, with the job's share of processors.
    func worker(progress: @escaping @Sendable (ExportProgress) -> Void = { _ in }) -> ChunkWorker {
        ChunkWorker(folder: WorkFolder(path: directory), processors: threads, verbose: reporting.verbose, progress: progress)
    }
}
