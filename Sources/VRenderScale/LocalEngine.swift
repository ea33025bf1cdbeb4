import Foundation
import Synchronization
import VRenderCore

/// The local engine: chunk workers as child processes of this one (`vrender chunk render`), at
/// most `workers` at a time, each given its share of the processors. A failed attempt is tried
/// again up to `maxTries`; a chunk that still fails stops the export with its log, once the
/// workers still running have finished (their chunks stay for `--resume`, as on Slurm). Not a
/// scheduler: a pool of processes on one machine; a cluster's scheduling is Slurm's.
struct LocalEngine {
    let folder: WorkFolder
    let plan: ChunkPlan
    /// The vrender executable the workers run.
    let executable: String
    let workers: Int
    let maxTries: Int
    let stop: EngineStop
    let report: @Sendable (ChunkedExportEvent) -> Void

    private struct Attempt {
        let chunk: Int
        let number: Int
        let process: Process
    }

    /// Renders `chunks`; returns when every one is in the done-list.
    func render(_ chunks: [Int]) throws {
        var waiting = chunks
        var tries: [Int: Int] = [:]
        var running: [Int32: Attempt] = [:]
        let exits = ChildExits(stop: stop)
        let lifeline = try EngineLifeline()
        var done = plan.chunks.count - chunks.count
        var failure: VRenderError?
        defer { withExtendedLifetime(lifeline) {} }   // open until `finish` below has seen every worker go
        defer { finish(running, exits: exits) }
        while (failure == nil && !waiting.isEmpty) || !running.isEmpty {
            if stop.isStopped { throw VRenderError.cancelled }
            while failure == nil, running.count < workers, !waiting.isEmpty {
                let chunk = waiting.removeFirst()
                tries[chunk, default: 0] += 1
                let attempt = try launch(chunk: chunk, number: tries[chunk]!, exits: exits, lifeline: lifeline)
                running[attempt.process.processIdentifier] = attempt
            }
            for exit in exits.wait() {
                guard let attempt = running.removeValue(forKey: exit.pid) else { continue }
                if exit.status == 0, let record = try folder.record(of: attempt.chunk, plan: plan) {
                    done += 1
                    report(.finished(chunk: attempt.chunk, seconds: record.seconds, done: done, total: plan.chunks.count))
                    continue
                }
                // A worker interrupted (SIGINT or SIGTERM from outside) interrupts the export.
                if exit.status == 130 { stop.stop() }
                if stop.isStopped { continue }
                let log = folder.log(chunk: attempt.chunk, attempt: attempt.number)
                let retry = attempt.number < maxTries
                report(.failed(chunk: attempt.chunk, attempt: attempt.number, log: log, retry: retry))
                if retry {
                    waiting.append(attempt.chunk)
                } else if failure == nil {
                    failure = ChunkFailure.error(chunk: attempt.chunk, tries: attempt.number, log: log)
                }
            }
        }
        if let failure { throw failure }
    }

    private func launch(chunk: Int, number: Int, exits: ChildExits, lifeline: EngineLifeline) throws -> Attempt {
        let log = try folder.createLog(chunk: chunk, attempt: number)
        defer { try? log.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        let share = max(1, Processors.active / workers)
        process.arguments = ["chunk", "render", folder.path, "--chunk", String(chunk), "--threads", String(share)]
        process.standardOutput = log
        process.standardError = log
        process.standardInput = lifeline.readEnd
        process.environment = EngineLifeline.workerEnvironment
        process.terminationHandler = { exits.record($0) }
        do { try process.run() } catch {
            throw VRenderError(.runtime, subject: executable, reason: "cannot start a chunk worker (\(VRenderError.systemReason(error)))")
        }
        report(.started(chunk: chunk, attempt: number))
        return Attempt(chunk: chunk, number: number, process: process)
    }

    /// On the way out (done, failed or cancelled): workers still running are stopped (SIGTERM:
    /// each removes its temporary file) and waited for, so none outlives the export.
    private func finish(_ running: [Int32: Attempt], exits: ChildExits) {
        var remaining = Set(running.keys)
        for attempt in running.values where attempt.process.isRunning { attempt.process.terminate() }
        while !remaining.isEmpty {
            for exit in exits.wait(ignoringStop: true) { remaining.remove(exit.pid) }
        }
    }
}

/// Child processes' exits as their termination handlers report them (on other threads), and a
/// wait that also wakes when the export is stopped.
private final class ChildExits: Sendable {
    struct Exit: Sendable {
        let pid: Int32
        let status: Int32
    }
    private let exits = Mutex<[Exit]>([])
    private let stop: EngineStop

    init(stop: EngineStop) {
        self.stop = stop
    }

    func record(_ process: Process) {
        let exit = Exit(pid: process.processIdentifier, status: process.terminationStatus)
        exits.withLock { $0.append(exit) }
        stop.wake()
    }

    /// The exits so far, waiting for at least one (or for a stop, unless `ignoringStop`).
    func wait(ignoringStop: Bool = false) -> [Exit] {
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
