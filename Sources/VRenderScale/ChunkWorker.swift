import Foundation
import Synchronization
import VRenderCore
import VRenderExport
import VRenderMedia

/// What a chunk job runs (`vrender chunk render` and `vrender chunk join`, on this machine or
/// on a cluster node): the export planned again from the work folder's plan, checked against
/// it, then one chunk rendered, or every chunk joined into the output.
///
/// `cancel()` may be called from any thread (SIGINT, or SIGTERM from `scancel`): the running
/// export stops and removes its temporary file; the done-list keeps what finished.
public final class ChunkWorker: Sendable {
    public let folder: WorkFolder
    /// Processors the chunk's stages share (nil: the machine's).
    private let processors: Int?
    private let verbose: Bool
    private let progress: @Sendable (ExportProgress) -> Void
    /// The export running now, and whether `cancel` came first.
    private let running = Mutex<(exporter: Exporter?, cancelled: Bool)>((nil, false))

    public init(folder: WorkFolder, processors: Int? = nil, verbose: Bool = false,
                progress: @escaping @Sendable (ExportProgress) -> Void = { _ in }) {
        self.folder = folder
        self.processors = processors
        self.verbose = verbose
        self.progress = progress
    }

    public func cancel() {
        let exporter = running.withLock { state in
            state.cancelled = true
            return state.exporter
        }
        exporter?.cancel()
    }

    /// Renders chunk `index` into the work folder and adds it to the done-list, with the
    /// SHA-256 of the file written. A worker the local engine started stops when the engine is
    /// gone (`EngineLifeline`), so none outlives a killed `concat --engine local`.
    public func render(chunk index: Int) throws -> ChunkRecord {
        EngineLifeline.watch { [self] in cancel() }
        let start = MonotonicClock.now()
        let startedBefore = ProcessAge.seconds() ?? 0   // the process's life before this call
        let probesBefore = Probe.probesMade
        let progressFile = ChunkProgressFile(folder: folder, chunk: index)
        let firstFrame = FirstFrameClock(start: start, before: startedBefore)
        let (plan, exporter, export) = try prepare {
            progressFile.record($0)
            firstFrame.record($0)
        }
        guard plan.chunks.indices.contains(index) else {
            throw VRenderError.option("--chunk", "the plan has chunks 0 to \(plan.chunks.count - 1), not \(index)")
        }
        progressFile.begin()
        let chunk = plan.chunks[index]
        let path = try folder.chunkFileForWriting(index, plan: plan)
        let frames = chunk.firstFrame..<chunk.firstFrame + chunk.frameCount
        let summary = try VRenderError.attributing(to: path, as: .runtime) {
            try exporter.run(export, job: .chunk(frames: frames, keyframeInterval: plan.keyframeInterval), to: path)
        }
        let seconds = MonotonicClock.seconds(since: start)
        return try folder.markDone(index, plan: plan) { bytes, sha256 in
            ChunkRecord(index: index, frames: summary.frames, bytes: bytes, sha256: sha256, seconds: seconds,
                        host: ProcessInfo.processInfo.hostName, encoder: summary.videoCodec,
                        damagedFrames: summary.damagedFrames, warnings: summary.warnings,
                        startSeconds: firstFrame.seconds, probes: Probe.probesMade - probesBefore)
        }
    }

    /// Encodes the export's sound (every audio track, `--loudness` measured and applied) into
    /// the work folder, beside the chunks, and adds it to the done-list: the join then copies it.
    public func renderSound() throws -> ChunkRecord {
        EngineLifeline.watch { [self] in cancel() }
        let start = MonotonicClock.now()
        let probesBefore = Probe.probesMade
        let (plan, exporter, export) = try prepare(measuringLoudness: true)
        guard let job = plan.soundJob else {
            throw VRenderError.input(folder.planPath, "the export has no sound: there is nothing to encode")
        }
        let path = try folder.chunkFileForWriting(job, plan: plan)
        let summary = try VRenderError.attributing(to: path, as: .runtime) { try exporter.run(export, job: .sound, to: path) }
        let seconds = MonotonicClock.seconds(since: start)
        return try folder.markDone(job, plan: plan) { bytes, sha256 in
            ChunkRecord(index: job, frames: 0, bytes: bytes, sha256: sha256, seconds: seconds,
                        host: ProcessInfo.processInfo.hostName, encoder: summary.audioCodec ?? "none",
                        damagedFrames: summary.damagedFrames, warnings: summary.warnings, loudness: export.loudness,
                        probes: Probe.probesMade - probesBefore)
        }
    }

    /// Joins every rendered chunk and the sound file into `output` (packets copied, nothing
    /// encoded) and leaves the summary in the work folder for whoever submitted the join. The output is the one given
    /// where the join runs (`chunk join -o`), never taken from the plan alone: it must be the
    /// plan's, outside the work folder, and an existing file is replaced only with `overwrite`.
    /// `probedHere`: the takes as the caller probed them for this export a moment ago (the
    /// local engine, which planned or resumed from them), checked against the plan's before
    /// anything is read; nil: the join probes them again while it copies (`TakeRecheck`:
    /// `chunk join`, a Slurm job), and the output appears only when they match.
    public func join(output: String, overwrite: Bool, probedHere: [MediaInfo]? = nil) throws -> ExportSummary {
        let plan = try load(output: (output, overwrite))
        let recheck = try probedHere == nil ? TakeRecheck(
            plan: plan, options: plan.exportOptions(output: (output, overwrite), threads: .share(processors)),
            planPath: folder.planPath) : nil
        let join = { [folder, processors] in
            let (exporter, export) = try self.planExport(plan, output: (output, overwrite), probedHere: probedHere)
            let chunks = try folder.renderedChunks(plan, threads: ThreadBudget.share(processors).processors)
            let sound = try folder.renderedSound(plan)
            return try VRenderError.attributing(to: output, as: .runtime) {
                try exporter.run(export, job: try .joining(chunks, sound: sound, of: export), beforeCommit: { try recheck?.wait() })
            }
        }
        var summary = try recheck.map { try $0.guarding(join) } ?? join()
        if let encoder = (try? folder.storedRecord(of: 0, plan: plan))?.encoder { summary.videoCodec = encoder }
        if let job = plan.soundJob, let record = try? folder.storedRecord(of: job, plan: plan) {
            summary.loudness = record.loudness
        }
        try folder.saveJoined(summary)
        return summary
    }

    /// The plan (`load`) and its export (`planExport`), for a chunk render or the sound, which
    /// write no output.
    private func prepare(measuringLoudness: Bool = false, progress extra: @escaping @Sendable (ExportProgress) -> Void = { _ in })
        throws -> (ChunkPlan, Exporter, ExportPlan) {
        let plan = try load(output: nil)
        let (exporter, export) = try planExport(plan, output: nil, measuringLoudness: measuringLoudness, progress: extra)
        return (plan, exporter, export)
    }

    /// The work folder's plan, its inputs unchanged since it was made. With `output` (the
    /// join's): it must be the plan's, outside the work folder.
    private func load(output: (path: String, overwrite: Bool)?) throws -> ChunkPlan {
        FFmpegLog.configure(verbose: verbose)
        let plan = try folder.loadPlan()
        if let output {
            guard FileNames.absolute(output.path) == plan.recipe.output else {
                throw VRenderError.output(output.path, "is not the output the plan in \(folder.path) is for (\(plan.recipe.output))")
            }
            try folder.checkOutsideFolder(output.path)
        }
        try plan.checkInputs(planPath: folder.planPath)
        return plan
    }

    /// The export planned again from `plan` and checked against it (`ChunkPlan.exportPlan`,
    /// from the plan's takes, probing none), with the exporter that runs it. With `output`
    /// (the join's) the export writes it, and the takes the caller probed (`probedHere`) are
    /// compared first.
    private func planExport(_ plan: ChunkPlan, output: (path: String, overwrite: Bool)?, probedHere: [MediaInfo]? = nil,
                            measuringLoudness: Bool = false,
                            progress extra: @escaping @Sendable (ExportProgress) -> Void = { _ in }) throws -> (Exporter, ExportPlan) {
        let exporter = Exporter { [progress] in
            progress($0)
            extra($0)
        }
        let cancelled = running.withLock { state in
            state.exporter = exporter
            return state.cancelled
        }
        if cancelled { throw VRenderError.cancelled }
        // The sound job measures `--loudness` (the join copies its sound; a chunk has none).
        let export = try plan.exportPlan(output: output, threads: .share(processors), probedHere: probedHere,
                                         measuringLoudness: measuringLoudness, planPath: folder.planPath)
        return (exporter, export)
    }
}

/// When a chunk worker's first frame was done, from its process's start: the worker's time
/// before this call, plus the time until the exporter's progress first reports a frame, less
/// the time since that frame (the report comes a little after it).
private final class FirstFrameClock: Sendable {
    private let start: UInt64
    private let before: Double
    private let measured = Mutex<Double?>(nil)

    init(start: UInt64, before: Double) {
        self.start = start
        self.before = before
    }

    func record(_ progress: ExportProgress) {
        guard let first = progress.firstFrame else { return }
        let since = MonotonicClock.seconds(since: start) - (progress.elapsed - first.elapsed)
        measured.withLock { if $0 == nil { $0 = before + max(0, since) } }
    }

    var seconds: Double? { measured.withLock { $0 } }
}
