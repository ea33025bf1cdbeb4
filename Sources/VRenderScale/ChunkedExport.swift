import Foundation
import Synchronization
import VRenderCore
import VRenderExport
import VRenderMedia

/// `vrender concat --engine local|slurm`: what to run and how.
public struct ChunkedExportRequest: Sendable {
    public enum Engine: String, Sendable, CaseIterable {
        /// Chunk workers as child processes of this one.
        case local
        /// A Slurm job array, one task per chunk, and a join job that waits for all of them.
        case slurm
    }

    public var options: ExportOptions
    public var engine: Engine
    /// nil: twice as many chunks as local workers (slow chunks even out), or 30 s chunks on Slurm.
    public var sizing: ChunkSizing?
    /// Local workers at once; nil: one per two of the export's processors (`options.threads`),
    /// at least two (measured: on two processors two workers beat one by 15-20%; README
    /// "Scale-out").
    public var workers: Int?
    /// nil: `<output>.chunks` beside the output.
    public var workDir: String?
    public var resume: Bool
    public var maxTries: Int
    /// `--slurm-args "…"`: passed to every `sbatch` (partition, account, time limit).
    public var slurmArguments: [String]
    /// The chunk worker that local workers and Slurm jobs run (`WorkerExecutable`): by default
    /// the `vrender-worker` beside this program; a Slurm job runs it at the same path on its node.
    public var executable: String
    /// Seconds between looks at Slurm's queue.
    public var pollSeconds: Double = 1

    public init(options: ExportOptions, engine: Engine, sizing: ChunkSizing? = nil, workers: Int? = nil,
                workDir: String? = nil, resume: Bool = false, maxTries: Int = 2, slurmArguments: [String] = [],
                executable: String = WorkerExecutable.besideThisProgram) {
        self.options = options
        self.engine = engine
        self.sizing = sizing
        self.workers = workers
        self.workDir = workDir
        self.resume = resume
        self.maxTries = maxTries
        self.slurmArguments = slurmArguments
        self.executable = executable
    }

    var resolvedWorkers: Int { workers ?? max(2, options.threads.processors / 2) }

    var resolvedSizing: ChunkSizing {
        sizing ?? (engine == .local ? .count(2 * resolvedWorkers) : .seconds(30))
    }
}

/// A chunked export: plan (or resume) in the work folder, render the missing chunks with the
/// engine, join them, remove the work folder. A failed or interrupted run keeps the folder,
/// whose done-list `--resume` continues from.
///
/// `cancel()` may be called from any thread (Ctrl-C): local workers are stopped, Slurm jobs
/// cancelled (`scancel`), and `run` throws `VRenderError.cancelled`.
public final class ChunkedExport: Sendable {
    public let request: ChunkedExportRequest
    private let report: @Sendable (ChunkedExportEvent) -> Void
    private let stop = EngineStop()
    /// Stops the work running in this process (the local engine's join, or a copy export), so
    /// that Ctrl-C reaches it too.
    private let stopHere = Mutex<(@Sendable () -> Void)?>(nil)

    public init(request: ChunkedExportRequest, report: @escaping @Sendable (ChunkedExportEvent) -> Void) {
        self.request = request
        self.report = report
    }

    public func cancel() {
        stop.stop()
        stopHere.withLock { $0 }?()
    }

    /// `vrender chunk plan`: only the plan, in the work folder (nothing is rendered).
    public func makePlan(onPlan: (ExportPlan) -> Void = { _ in }) throws -> (plan: ChunkPlan, folder: WorkFolder) {
        let export = try prepare(onPlan: onPlan).export
        guard export.mode == .transcode else { throw Self.notEncoding(export) }
        let folder = workFolder
        return (try planOrResume(export, in: folder), folder)
    }

    /// The whole export; `onPlan` sees the export's plan first (to show it, as `concat` does).
    public func run(onPlan: (ExportPlan) -> Void = { _ in }) throws -> ExportSummary {
        let start = MonotonicClock.now()
        if request.engine == .slurm { try SlurmClient().checkAvailable() }
        let (exporter, export) = try prepare(onPlan: onPlan)
        guard export.mode == .transcode else {
            report(.notice("this export copies the takes' video (\(export.reason)): nothing to encode, so it runs here in one process"))
            runsHere { exporter.cancel() }
            return try exporter.run(export)
        }
        try WorkerExecutable.check(request.executable)
        let folder = workFolder
        let hadPlan = folder.hasPlan
        let plan = try planOrResume(export, in: folder)
        var summary: ExportSummary
        do {
            summary = try render(plan, in: folder, probed: export.takes)
        } catch {
            // A first run that failed before any chunk was tried (sbatch refused the job, say)
            // leaves nothing to resume: no folder that would ask for --resume next time.
            // Only what vrender put there goes (WorkFolder.remove).
            if !hadPlan && !folder.hasStartedWork() { folder.remove() }
            throw error
        }
        summary.addDamage(of: plan.jobs.compactMap { try? folder.storedRecord(of: $0, plan: plan) })
        folder.remove()
        summary.wallSeconds = MonotonicClock.seconds(since: start)
        summary.mode = "transcode, \(plan.chunks.count) chunk(s), \(request.engine.rawValue)"
        summary.output = request.options.output
        summary.notices = export.notices
        return summary
    }

    /// The missing chunks rendered by the engine, then joined; the join's summary. `probed`:
    /// the takes as this process probed them for the plan (the local join checks the plan's
    /// against them instead of probing again).
    private func render(_ plan: ChunkPlan, in folder: WorkFolder, probed: [MediaInfo]) throws -> ExportSummary {
        // Jobs a killed run left go first: a chunk they finish after this is rendered again.
        if request.engine == .slurm { try slurmEngine(folder: folder, plan: plan, report: report).cancelLeftovers() }
        let done = try folder.doneChunks(plan)
        let missing = plan.jobs.filter { !done.contains($0) }
        let chunksDone = done.subtracting(plan.soundJob.map { [$0] } ?? []).count
        report(.planned(folder: folder.path, chunks: plan.chunks.count, frames: plan.totalFrames,
                        keyframeInterval: plan.keyframeInterval, done: chunksDone, resumed: request.resume && !done.isEmpty))
        // The bar runs while chunks render, and ends before the join's line.
        let report = self.report
        let watcher = ChunkProgressWatcher(folder: folder, plan: plan) { report(.progress($0)) }
        watcher.start()
        defer { watcher.stop() }
        let soundJob = plan.soundJob
        let engineReport: @Sendable (ChunkedExportEvent) -> Void = { event in
            if case .joining = event { watcher.stop() }
            if let event = event.naming(soundJob: soundJob) { report(event) }
        }
        if request.engine == .slurm {
            return try slurmEngine(folder: folder, plan: plan, report: engineReport).render(missing)
        }
        try LocalEngine(folder: folder, plan: plan, executable: request.executable, workers: request.resolvedWorkers,
                        processors: request.options.threads.processors, maxTries: request.maxTries, stop: stop, report: engineReport).render(missing)
        watcher.stop()
        return try joinHere(folder, chunks: plan.chunks.count, probed: probed)
    }

    private func slurmEngine(folder: WorkFolder, plan: ChunkPlan, report: @escaping @Sendable (ChunkedExportEvent) -> Void) -> SlurmEngine {
        SlurmEngine(folder: folder, plan: plan, executable: request.executable, output: plan.recipe.output,
                    overwrite: request.options.overwrite, maxTries: request.maxTries,
                    extraArguments: request.slurmArguments, pollSeconds: request.pollSeconds, stop: stop, report: report)
    }

    private var workFolder: WorkFolder { WorkFolder(path: request.workDir ?? request.options.output + ".chunks") }

    private func prepare(onPlan: (ExportPlan) -> Void) throws -> (exporter: Exporter, export: ExportPlan) {
        FFmpegLog.configure(verbose: request.options.verbose)
        let report = self.report
        let exporter = Exporter(options: request.options) { report(.progress($0)) }   // a copy runs here
        let export = try VRenderError.attributing(to: request.options.output, as: .runtime) {
            try ExportPlanner.plan(request.options)
        }
        onPlan(export)
        return (exporter, export)
    }

    private static func notEncoding(_ export: ExportPlan) -> VRenderError {
        VRenderError.output(export.output, "this export copies the takes' video (\(export.reason)): there is nothing to encode in chunks (--codec h264 or a filter re-encodes)")
    }

    /// A new plan in an empty folder, or, with `--resume`, the folder's plan once it is known to
    /// be this export's, with inputs unchanged. Either way the folder must be one vrender may
    /// work in (`WorkFolder.checkUsable`).
    private func planOrResume(_ export: ExportPlan, in folder: WorkFolder) throws -> ChunkPlan {
        let recipe = try ExportRecipe(options: request.options, inputs: export.takes.map(\.path), trims: export.takes.map(\.trim),
                                      takeNumbers: export.takes.map(\.sourceTake), captions: export.captions)
        try folder.checkUsable(output: recipe.output, inputs: recipe.files)
        if folder.hasPlan {
            guard request.resume else {
                throw VRenderError.output(folder.path, "holds a chunk plan already: add --resume to continue it, or remove the folder to start again")
            }
            let plan = try folder.loadPlan()
            guard plan.recipe == recipe else {
                throw VRenderError.output(folder.path, "its plan is for another export (other inputs or options): run with the same ones, or remove the folder")
            }
            try plan.checkInputs(planPath: folder.planPath)
            try plan.check(export, planPath: folder.planPath)
            return plan
        }
        if request.resume { report(.notice("nothing to resume in \(folder.path): starting a new plan")) }
        let plan = try ChunkPlan(export: export, recipe: recipe, sizing: request.resolvedSizing)
        if case .count(let wanted) = request.resolvedSizing, plan.chunks.count < wanted {
            report(.notice("\(plan.chunks.count) chunk(s), not \(wanted): the export has only \(plan.chunks.count) GOP(s) of \(plan.keyframeInterval) frames"))
        }
        try folder.create()
        try folder.save(plan)
        return plan
    }

    /// The local engine's join, in this process.
    private func joinHere(_ folder: WorkFolder, chunks: Int, probed: [MediaInfo]) throws -> ExportSummary {
        if stop.isStopped { throw VRenderError.cancelled }
        report(.joining(chunks: chunks))
        let worker = ChunkWorker(folder: folder, verbose: request.options.verbose)
        runsHere { worker.cancel() }
        return try worker.join(output: request.options.output, overwrite: request.options.overwrite, probedHere: probed)
    }

    /// Registers how to stop the work about to run in this process; stops it at once when
    /// Ctrl-C came first.
    private func runsHere(stoppedBy cancel: @escaping @Sendable () -> Void) {
        stopHere.withLock { $0 = cancel }
        if stop.isStopped { cancel() }
    }
}

extension ExportSummary {
    /// The chunks' damage added to the join's (which saw only the audio): counts summed per
    /// take, each warning once (a damaged take can span chunks).
    mutating func addDamage(of records: [ChunkRecord]) {
        for record in records {
            damagedFrames.merge(record.damagedFrames, uniquingKeysWith: +)
            warnings += record.warnings.filter { !warnings.contains($0) }
        }
    }
}
