import ArgumentParser
import Foundation
import VRenderExport
import VRenderScale

extension ChunkedExportRequest.Engine: ExpressibleByArgument {}

/// `concat --engine local|slurm` and its options: the export rendered as chunks (docs/scale-out.md).
/// Without `--engine` an export runs in this one process, as always.
struct EngineArguments: ParsableArguments {
    @Option(help: "Render the export as chunks: local (child processes on this machine) or slurm (a Slurm job array and a join job).")
    var engine: ChunkedExportRequest.Engine?

    @OptionGroup var size: ChunkSizeArguments

    @Option(help: ArgumentHelp("Local engine: chunks rendered at once (default: one per two processors, at least two).", valueName: "N"))
    var workers: Int?

    @Option(name: .customLong("work-dir"),
            help: ArgumentHelp("Where the plan, chunks, done-list and logs go (default: <output>.chunks): a new or empty folder, or a vrender work folder, holding neither the output nor an input; emptied of what vrender put there after success. On Slurm, a folder every node mounts at the same path.", valueName: "dir"))
    var workDir: String?

    @Flag(help: "Continue the plan in the work folder: render only the chunks not in its done-list.")
    var resume = false

    @Option(name: .customLong("max-tries"),
            help: ArgumentHelp("Attempts per chunk before the export fails.", valueName: "N"))
    var maxTries = 2

    // Unconditional: its value is sbatch's own options ("--partition=render"), which start with
    // dashes and are no number (`NegativeValues` attaches only those).
    @Option(name: .customLong("slurm-args"), parsing: .unconditional,
            help: ArgumentHelp("Arguments for every sbatch, e.g. \"--partition=render --account=video --time=30:00\".", valueName: "args"))
    var slurmArgs: String?

    func validate() throws {
        guard let engine else {
            let given = [size.sizing != nil, workers != nil, workDir != nil, resume, maxTries != 2, slurmArgs != nil]
            if given.contains(true) {
                throw ValidationError("--chunks, --chunk-seconds, --workers, --work-dir, --resume, --max-tries and --slurm-args need --engine local or --engine slurm")
            }
            return
        }
        if let workers, workers < 1 { throw ValidationError("--workers must be 1 or more, got \(workers)") }
        if maxTries < 1 { throw ValidationError("--max-tries must be 1 or more, got \(maxTries)") }
        if workers != nil && engine != .local { throw ValidationError("--workers is for --engine local; Slurm decides where chunks run") }
        if slurmArgs != nil && engine != .slurm { throw ValidationError("--slurm-args is for --engine slurm") }
    }

    /// The request for `options`, or nil without `--engine`.
    func request(options: ExportOptions) -> ChunkedExportRequest? {
        guard let engine else { return nil }
        return ChunkedExportRequest(options: options, engine: engine, sizing: size.sizing, workers: workers, workDir: workDir,
                                    resume: resume, maxTries: maxTries,
                                    slurmArguments: slurmArgs.map { $0.split(separator: " ").map(String.init) } ?? [])
    }
}

/// `--chunks N` or `--chunk-seconds S`: how a chunked export is cut (`concat --engine`, `chunk plan`).
struct ChunkSizeArguments: ParsableArguments {
    @Option(help: ArgumentHelp("Cut the export into N chunks (whole GOPs). Default: twice the workers with --engine local, else 30 s chunks.", valueName: "N"))
    var chunks: Int?

    @Option(name: .customLong("chunk-seconds"),
            help: ArgumentHelp("Cut the export into chunks of about S seconds (whole GOPs) instead.", valueName: "S"))
    var chunkSeconds: Double?

    func validate() throws {
        if chunks != nil && chunkSeconds != nil { throw ValidationError("give --chunks or --chunk-seconds, not both") }
        if let chunks, chunks < 1 { throw ValidationError("--chunks must be 1 or more, got \(chunks)") }
        if let chunkSeconds, !(chunkSeconds > 0 && chunkSeconds.isFinite) {
            throw ValidationError("--chunk-seconds must be a positive number of seconds, got \(chunkSeconds)")
        }
    }

    /// nil when neither was given (the engine's default).
    var sizing: ChunkSizing? {
        if let chunks { return .count(chunks) }
        return chunkSeconds.map { .seconds($0) }
    }
}
