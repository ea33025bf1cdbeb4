import Foundation
import Synchronization
import VRenderCore
import VRenderExport

/// How far a chunked export has come, for its bar: every chunk in the done-list counts whole, a
/// chunk being rendered counts the frames its worker last wrote to `progress/chunk_0003`.
///
/// Workers are other processes, on this machine or on cluster nodes, so they tell the run that
/// follows them through the work folder (one small file each, replaced atomically), which every
/// node mounts. Progress is advisory: the done-list alone says what is finished, so a progress
/// file that is missing, damaged or planted only makes the bar show less, never a wrong video.
extension WorkFolder {
    /// Frames done over all of `plan`'s chunks, as far as the folder shows (a done record
    /// is only looked for, not checked: the bar needs no SHA-256 of every chunk twice a second).
    func framesDone(_ plan: ChunkPlan) -> Int {
        guard let root = try? root() else { return 0 }
        let done = try? root.folder(Self.doneName), progress = try? root.folder(Self.progressName)
        return plan.chunks.reduce(0) { sum, chunk in
            if done?.status(Self.recordName(chunk.index)) != nil { return sum + chunk.frameCount }
            let reported = progress.flatMap { Self.progressFrames(in: $0, chunk: chunk.index) } ?? 0
            return sum + min(max(0, reported), chunk.frameCount)
        }
    }

    /// `frames=N` from a chunk's progress file; nil when there is none or it is not that.
    static func progressFrames(in folder: FolderHandle, chunk: Int) -> Int? {
        guard let data = try? folder.readFile(name(ofChunk: chunk), limit: 64) else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        guard text.hasPrefix("frames="), text.hasSuffix("\n") else { return nil }
        return Int(text.dropFirst("frames=".count).dropLast())
    }
}

/// A worker's side: the frames it has rendered, written to its chunk's progress file at most
/// every `interval` seconds once `begin` is called (after the plan is known to be one: nothing
/// is made in a folder that is not a work folder). A file that cannot be written costs the
/// bar, not the chunk.
final class ChunkProgressFile: Sendable {
    private let workFolder: WorkFolder
    private let name: String
    private let interval: Double
    private let state = Mutex<(folder: FolderHandle?, lastWrite: Double)>((nil, -Double.infinity))

    init(folder: WorkFolder, chunk: Int, interval: Double = 0.5) {
        workFolder = folder
        name = WorkFolder.name(ofChunk: chunk)
        self.interval = interval
    }

    /// Opens the progress folder (making it: a folder planned by an older vrender has none) and
    /// removes what an earlier attempt at the chunk left there.
    func begin() {
        let folder = try? workFolder.root().folder(WorkFolder.progressName, create: true, as: .output)
        _ = folder?.remove(name)
        state.withLock { $0.folder = folder }
    }

    func record(_ progress: ExportProgress) {
        let folder = state.withLock { state -> FolderHandle? in
            guard let folder = state.folder, progress.finished || progress.elapsed - state.lastWrite >= interval else { return nil }
            state.lastWrite = progress.elapsed
            return folder
        }
        guard let folder else { return }
        try? Data("frames=\(progress.framesDone)\n".utf8).withUnsafeBytes { try AtomicFile.write($0, in: folder, name: name) }
    }
}

/// The run's side: looks at the folder every `interval` seconds while the engine renders and
/// reports the frames done over all chunks; `stop` makes the last report (marked finished once
/// every chunk is done).
final class ChunkProgressWatcher: Sendable {
    private let folder: WorkFolder
    private let plan: ChunkPlan
    private let interval: Double
    private let throttle: ProgressThrottle
    /// Wakes the looking thread to end it (a sleep between looks, not a join).
    private let stopped = DispatchSemaphore(value: 0)
    private let looking = StageGroup()
    private let running = Mutex(false)

    init(folder: WorkFolder, plan: ChunkPlan, interval: Double = 0.5, report: @escaping @Sendable (ExportProgress) -> Void) {
        self.folder = folder
        self.plan = plan
        self.interval = interval
        throttle = ProgressThrottle(total: plan.totalFrames, frameRate: plan.frameRate.doubleValue, interval: 0,
                                    alreadyDone: folder.framesDone(plan), report: report)
    }

    /// Reports where things stand now, then again every `interval` on a thread of its own.
    func start() {
        running.withLock { $0 = true }
        throttle.update(framesDone: folder.framesDone(plan))
        looking.start("vrender-chunk-progress") { [self] in
            while stopped.wait(timeout: .now() + interval) == .timedOut { throttle.update(framesDone: folder.framesDone(plan)) }
        }
    }

    /// Stops the looking (a second call does nothing) and reports where things stand.
    func stop() {
        let wasRunning = running.withLock { running in
            defer { running = false }
            return running
        }
        guard wasRunning else { return }
        stopped.signal()
        looking.join()
        let frames = folder.framesDone(plan)
        throttle.update(framesDone: frames, finished: frames == plan.totalFrames)
    }
}
