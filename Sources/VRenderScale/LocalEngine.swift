import Foundation
import Synchronization
import VRenderCore

/// The local engine: chunk workers as child processes of this one (`vrender-worker render`), at
/// most `workers` at a time, each given its share of the processors. A failed attempt is tried
/// again up to `maxTries`; a chunk that still fails stops the export with its log, once the
/// workers still running have finished (their chunks stay for `--resume`, as on Slurm). Not a
/// scheduler: a pool of processes on one machine; a cluster's scheduling is Slurm's.
struct LocalEngine {
    let folder: WorkFolder
    let plan: ChunkPlan
    /// The chunk worker executable (`vrender-worker`) the workers run.
    let executable: String
    let workers: Int
    /// The processors the workers share (`ExportOptions.threads`): each gets `processors / workers`.
    let processors: Int
    let maxTries: Int
    let stop: EngineStop
    let report: @Sendable (ChunkedExportEvent) -> Void

    /// Renders `chunks`; returns when every one is in the done-list.
    func render(_ chunks: [Int]) throws {
        let lifeline = try EngineLifeline()
        defer { withExtendedLifetime(lifeline) {} }   // open until the schedule has seen every worker go
        let workers = ProcessWorkers(engine: self, exits: ChildExits(stop: stop), lifeline: lifeline)
        var schedule = ChunkSchedule(chunks: Self.longestFirst(chunks, plan: plan), total: plan.jobs.count, workers: self.workers,
                                     besideWorkers: plan.soundJob,
                                     maxTries: maxTries, stop: stop, report: report)
        try schedule.run(on: workers)
    }

    /// The sound first (it runs beside the workers: `ChunkSchedule.besideWorkers`), then the
    /// chunks with the most frames first, in plan order among equals. Chunks are whole GOPs,
    /// so they differ by a GOP: taken in plan order, 8 chunks of 3 or 4 GOPs left one of 2
    /// workers rendering a last 4-GOP chunk while the other idled (16 GOPs' time for 30 GOPs'
    /// work); longest first, both end together.
    static func longestFirst(_ jobs: [Int], plan: ChunkPlan) -> [Int] {
        func frames(_ job: Int) -> Int { job == plan.soundJob ? Int.max : plan.chunks[job].frameCount }
        return jobs.enumerated().sorted { a, b in
            frames(a.element) != frames(b.element) ? frames(a.element) > frames(b.element) : a.offset < b.offset
        }.map(\.element)
    }
}

/// The local engine's workers: `vrender-worker render|sound` child processes, each writing its log.
private final class ProcessWorkers: ChunkRunner {
    private let engine: LocalEngine
    private let exitList: ChildExits
    private let lifeline: EngineLifeline
    private var processes: [Int32: Process] = [:]

    init(engine: LocalEngine, exits: ChildExits, lifeline: EngineLifeline) {
        self.engine = engine
        exitList = exits
        self.lifeline = lifeline
    }

    func start(chunk: Int, attempt: Int) throws -> Int32 {
        let log = try engine.folder.createLog(job: chunk, attempt: attempt, plan: engine.plan)
        defer { try? log.close() }
        let share = max(1, engine.processors / engine.workers)
        let job = chunk == engine.plan.soundJob ? ["sound", engine.folder.path] : ["render", engine.folder.path, "--chunk", String(chunk)]
        let arguments = job + ["--threads", String(share)]
        let process: Process
        do {
            process = try ChildProcess.start(engine.executable, arguments: arguments, environment: EngineLifeline.workerEnvironment,
                                             input: lifeline.readEnd, output: log) { [exitList] in exitList.record($0) }
        } catch {
            throw VRenderError(.runtime, subject: engine.executable, reason: "cannot start a chunk worker (\(VRenderError.systemReason(error)))")
        }
        engine.report(.started(chunk: chunk, attempt: attempt))
        processes[process.processIdentifier] = process
        return process.processIdentifier
    }

    func exits() -> [ChunkExit] {
        let exits = exitList.wait()
        for exit in exits { processes[exit.id] = nil }
        return exits
    }

    func finished(_ chunk: Int) throws -> Double? {
        try engine.folder.record(of: chunk, plan: engine.plan)?.seconds
    }

    func log(chunk: Int, attempt: Int) -> String {
        engine.folder.log(job: chunk, attempt: attempt, plan: engine.plan)
    }

    /// On the way out (done, failed or cancelled): workers still running are stopped (SIGTERM:
    /// each removes its temporary file) and waited for, so none outlives the export.
    func finish(_ running: Set<Int32>) {
        var remaining = running
        for id in running { if let process = processes[id], process.isRunning { process.terminate() } }
        while !remaining.isEmpty {
            for exit in exitList.wait(ignoringStop: true) { remaining.remove(exit.id) }
        }
    }
}

/// Child processes' exits as their termination handlers report them (on other threads), and a
/// wait that also wakes when the export is stopped.
private final class ChildExits: Sendable {
    private let exits = Mutex<[ChunkExit]>([])
    private let stop: EngineStop

    init(stop: EngineStop) {
        self.stop = stop
    }

    func record(_ process: Process) {
        let exit = ChunkExit(id: process.processIdentifier, status: process.terminationStatus)
        exits.withLock { $0.append(exit) }
        stop.wake()
    }

    /// The exits so far, waiting for at least one (or for a stop, unless `ignoringStop`).
    func wait(ignoringStop: Bool = false) -> [ChunkExit] {
        while true {
            let exits = exits.withLock { exits in
                defer { exits = [] }
                return exits
            }
            if !exits.isEmpty || (!ignoringStop && stop.isStopped) { return exits }
            stop.sleep()
        }
    }
}
