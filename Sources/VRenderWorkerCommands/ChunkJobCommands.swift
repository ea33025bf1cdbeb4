import ArgumentParser
import Foundation
import VRenderCore
import VRenderExport
import VRenderScale

// The steps of a chunked export that its jobs run: `vrender-worker render|sound|join` (what the
// local and Slurm engines start) and `vrender chunk render|sound|join` (by hand) are these same
// commands, parsed and run alike.

package struct ChunkRender: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render one chunk of a plan into its work folder and add it to the done-list.")

    @OptionGroup var job: ChunkJobArguments

    @Option(help: ArgumentHelp("The chunk to render (0-based).", valueName: "K"))
    var chunk: Int

    package init() {}

    package func run() throws {
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

package struct ChunkSound: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "sound",
        abstract: "Encode the export's sound (loudness applied) into its work folder, beside the chunks, for the join to copy.")

    @OptionGroup var job: ChunkJobArguments

    package init() {}

    package func run() throws {
        let reporting = job.reporting
        let worker = job.worker()
        let interruptSources = InterruptHandling.install { worker.cancel() }
        defer { withExtendedLifetime(interruptSources) {} }
        let record = try worker.renderSound()
        if reporting.json { return try JSONOutput.print(record) }
        print("sound: \(record.encoder), \(String(format: "%.1f MB", Double(record.bytes) / 1e6)) in \(String(format: "%.2f", record.seconds)) s on \(record.host)")
    }
}

package struct ChunkJoin: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "join",
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

    package init() {}

    package func validate() throws {
        try ExportOutput.validate(output: output)
    }

    package func run() throws {
        let printer = ProgressPrinter(style: reporting.resolvedStyle)
        let worker = ChunkWorker(folder: WorkFolder(path: directory), verbose: reporting.verbose) { printer.report($0) }
        let interruptSources = InterruptHandling.install { worker.cancel() }
        defer { withExtendedLifetime(interruptSources) {} }
        defer { printer.finish() }
        let summary = try worker.join(output: output, overwrite: overwrite)
        printer.finish()
        if reporting.json { return try JSONOutput.print(summary) }
        print(FileNames.display(ExportOutput.finalLine(summary)))
    }
}

/// What the jobs of a chunked export take (`render`, `sound`): the work folder, the processors
/// the job may use, and how it reports.
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
