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
    /// Processors the codecs may use (nil: the machine's).
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

    /// Renders chunk `index` into the work folder and adds it to the done-list.
    public func render(chunk index: Int) throws -> ChunkRecord {
        let start = DispatchTime.now()
        let (plan, exporter, export) = try prepare(checkingOutput: false)
        guard plan.chunks.indices.contains(index) else {
            throw VRenderError.option("--chunk", "the plan has chunks 0 to \(plan.chunks.count - 1), not \(index)")
        }
        let chunk = plan.chunks[index]
        let path = folder.chunkFile(index, plan: plan)
        let frames = chunk.firstFrame..<chunk.firstFrame + chunk.frameCount
        let summary = try VRenderError.attributing(to: path, as: .runtime) {
            try exporter.renderChunk(export, frames: frames, keyframeInterval: plan.keyframeInterval, to: path)
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        let record = ChunkRecord(index: index, frames: summary.frames, bytes: Int64(summary.bytes), seconds: seconds,
                                 host: ProcessInfo.processInfo.hostName, encoder: summary.videoCodec,
                                 damagedFrames: summary.damagedFrames, warnings: summary.warnings)
        try folder.markDone(record)
        return record
    }

    /// Joins every rendered chunk into the plan's output (audio encoded whole here) and leaves
    /// the summary in the work folder for whoever submitted the join.
    public func join() throws -> ExportSummary {
        let (plan, exporter, export) = try prepare(checkingOutput: true)
        let chunks = try folder.renderedChunks(plan)
        var summary = try VRenderError.attributing(to: plan.recipe.output, as: .runtime) {
            try exporter.join(export, chunks: chunks)
        }
        if let encoder = folder.record(of: 0, plan: plan)?.encoder { summary.videoCodec = encoder }
        try AtomicFile.writeJSON(summary, to: folder.joinedPath)
        return summary
    }

    /// The plan, its inputs checked, and the export planned again from its recipe and checked
    /// against it.
    private func prepare(checkingOutput: Bool) throws -> (ChunkPlan, Exporter, ExportPlan) {
        FFmpegLog.configure(verbose: verbose)
        let plan = try folder.loadPlan()
        try plan.checkInputs(planPath: folder.planPath)
        var options = try plan.recipe.options()
        options.processors = processors
        let exporter = Exporter(options: options, progress: progress)
        let cancelled = running.withLock { state in
            state.exporter = exporter
            return state.cancelled
        }
        if cancelled { throw VRenderError.cancelled }
        let export = try exporter.prepare(checkingOutput: checkingOutput)
        try plan.check(export, planPath: folder.planPath)
        return (plan, exporter, export)
    }
}
