import Foundation
import VRenderCore
import VRenderExport

/// The Slurm engine: the missing chunks as one job array (`sbatch --array`, one task per
/// chunk, `vrender-worker render` in each; the task one past the last chunk encodes the sound,
/// `vrender-worker sound`) and a join job (`vrender-worker join`) that waits for every task
/// (`--dependency=afterok`, cancelled by Slurm if one fails). This process only submits and
/// follows: it looks at the jobs with `scontrol` every `pollSeconds`, reports chunks as the
/// done-list gains them, and submits failed chunks again, with a new join, until `maxTries`.
///
/// Every job id submitted is kept in the work folder (`slurm/jobs`), so that a run killed
/// without a chance to cancel them has them cancelled by the `--resume` that follows.
struct SlurmEngine {
    let folder: WorkFolder
    let plan: ChunkPlan
    /// The chunk worker (`vrender-worker`) the jobs run, at this path on every node.
    let executable: String
    /// The join's output and --overwrite, as given to this process (the join job is told them
    /// on its command line, never left to read them from the plan alone).
    let output: String
    let overwrite: Bool
    let maxTries: Int
    let extraArguments: [String]
    let pollSeconds: Double
    let stop: EngineStop
    let report: @Sendable (ChunkedExportEvent) -> Void
    private let client = SlurmClient()

    /// Renders `missing` and joins; returns the join's summary. Call `cancelLeftovers()`
    /// before the done-list is read.
    func render(_ missing: [Int]) throws -> ExportSummary {
        let scripts = try writeScripts()
        var retries = ChunkRetries(maxTries: maxTries)
        var pending = missing
        var done = plan.jobs.count - missing.count
        while true {
            var array: String?
            if !pending.isEmpty {
                array = try submitArray(pending, script: scripts.render)
                for chunk in pending { retries.begin(chunk) }
            }
            folder.forgetJoined()   // an earlier join's
            let join = try submit(scripts.join, arguments: ["--job-name=vrender-join", "--output=\(folder.logsPath)/join.job%j.log"]
                                  + (array.map { ["--dependency=afterok:\($0)", "--kill-on-invalid-dep=yes"] } ?? []))
            report(.submitted(job: array ?? join, chunks: pending, join: array == nil ? nil : join))
            let failed = try follow(array, chunks: pending, retries: retries, done: &done)
            if failed.isEmpty { return try followJoin(join) }
            client.cancel([join])
            pending = try retries.again(failed) { log(of: $0, job: array!) }
        }
    }

    // MARK: - Submitting

    private func writeScripts() throws -> (render: String, join: String) {
        let slurm = try folder.subfolder(WorkFolder.slurmName)
        let worker = Self.quoted(executable), work = Self.quoted(folder.path)
        let render = try writeScript("render.sh", in: slurm, """
            # One task of vrender's chunk job array: renders chunk $SLURM_ARRAY_TASK_ID of the plan
            # with the processors Slurm gave the task (1 unless --cpus-per-task says more); task
            # \(plan.soundJob.map(String.init) ?? "(none: the export has no sound)") encodes the export's sound.
            threads=${SLURM_CPUS_PER_TASK:-${SLURM_CPUS_ON_NODE:-}}
            \(plan.soundJob.map { "if [ \"$SLURM_ARRAY_TASK_ID\" = \($0) ]; then exec \(worker) sound \(work) ${threads:+--threads \"$threads\"}; fi\n" } ?? "")exec \(worker) render \(work) --chunk "$SLURM_ARRAY_TASK_ID" ${threads:+--threads "$threads"}
            """)
        let join = try writeScript("join.sh", in: slurm, """
            # vrender's join job: every chunk's video copied in order, and the sound job's sound.
            exec \(worker) join \(work) -o \(Self.quoted(output))\(overwrite ? " --overwrite" : "")
            """)
        return (render, join)
    }

    /// Writes an executable script into `slurm/`; its path.
    private func writeScript(_ name: String, in slurm: FolderHandle, _ body: String) throws -> String {
        try folder.write(text: "#!/bin/sh\n\(body)\n", in: slurm, name: name)
        let path = slurm.join(name)
        guard chmod(path, 0o755) == 0 else { throw VRenderError.output(path, "cannot make it executable") }
        return path
    }

    private func submitArray(_ chunks: [Int], script: String) throws -> String {
        try submit(script, arguments: ["--job-name=vrender-chunk", "--array=\(ChunkList.text(chunks))",
                                       "--output=\(folder.logsPath)/chunk_%4a.job%A.log"])
    }

    /// Submits and records the job id in the work folder before anything else can happen.
    private func submit(_ script: String, arguments: [String]) throws -> String {
        if stop.isStopped { throw VRenderError.cancelled }
        let id = try client.submit(script, arguments: arguments + extraArguments)
        try folder.recordSubmitted(id)
        return id
    }

    /// A run killed before it could cancel its jobs left them queued or running: they are
    /// cancelled before anything is submitted again (their finished chunks are in the done-list).
    func cancelLeftovers() throws {
        let leftovers = try folder.submittedJobs()
        guard !leftovers.isEmpty else { return }
        client.cancel(leftovers)
        folder.forgetSubmittedJobs()
        report(.notice("cancelled the jobs an earlier run left (\(leftovers.joined(separator: ", ")))"))
    }


    // MARK: - Following

    /// Follows the array's tasks until every one has finished; returns the chunks that failed.
    /// `done` counts the chunks in the done-list, for the progress lines.
    private func follow(_ array: String?, chunks: [Int], retries: ChunkRetries, done: inout Int) throws -> [Int] {
        guard let array else { return [] }
        var open = Set(chunks)
        var failed: [Int] = []
        var unrecorded: [Int: Int] = [:]   // completed, done record not visible yet: looks so far
        var failures = 0
        while !open.isEmpty {
            try checkStopped()
            guard let look = try poll(array, failures: &failures) else { continue }
            for chunk in open.sorted() {
                // A task Slurm no longer lists (gone long ago, or cancelled while pending) is over.
                let state = look.tasks.first { $0.task == chunk }
                guard state?.isFinished ?? true else { continue }
                if let record = try folder.record(of: chunk, plan: plan) {
                    open.remove(chunk)
                    done += 1
                    report(.finished(chunk: chunk, seconds: record.seconds, done: done, total: plan.jobs.count))
                } else if state?.succeeded == true && unrecorded[chunk, default: 0] < 30 {
                    unrecorded[chunk, default: 0] += 1   // a shared file system may show it late
                } else {
                    open.remove(chunk)
                    failed.append(chunk)
                    report(.failed(chunk: chunk, attempt: retries.tries(of: chunk), log: log(of: chunk, job: array),
                                   retry: retries.triesAgain(chunk)))
                }
            }
            if !open.isEmpty { stop.sleep(seconds: pollSeconds) }
        }
        return failed.sorted()
    }

    /// Waits for the join job; its summary is in the work folder when it succeeded.
    private func followJoin(_ join: String) throws -> ExportSummary {
        report(.joining(chunks: plan.chunks.count))
        var failures = 0
        while true {
            try checkStopped()
            guard let look = try poll(join, failures: &failures) else { continue }
            let state = look.tasks.first
            if state == nil || state?.isFinished == true {
                let log = "\(folder.logsPath)/join.job\(join).log"
                guard state?.succeeded != false, let summary = try folder.loadJoined() else {
                    throw VRenderError(.runtime, subject: "join job \(join)", reason: "ended \(state?.state ?? "without a trace") without the output; its log is \(log)")
                }
                return summary
            }
            stop.sleep(seconds: pollSeconds)
        }
    }

    /// What one look at a job saw: its tasks; none when Slurm no longer knows it.
    private struct Look {
        var tasks: [SlurmClient.TaskState]
    }

    /// One look at job `id`. A failed look (slurmctld busy or restarting, a network hiccup)
    /// returns nil, to look again after a poll interval, for up to a minute.
    private func poll(_ id: String, failures: inout Int) throws -> Look? {
        do {
            let tasks = try client.states(ofJob: id) ?? []
            failures = 0
            return Look(tasks: tasks)
        } catch {
            failures += 1
            if Double(failures) * pollSeconds > 60 { throw error }
            stop.sleep(seconds: pollSeconds)
            return nil
        }
    }

    /// Ctrl-C: every job this engine submitted is cancelled; the done-list stays for --resume.
    private func checkStopped() throws {
        guard stop.isStopped else { return }
        client.cancel((try? folder.submittedJobs()) ?? [])
        folder.forgetSubmittedJobs()
        throw VRenderError.cancelled
    }

    private func log(of chunk: Int, job: String) -> String {
        "\(folder.logsPath)/\(WorkFolder.name(ofChunk: chunk)).job\(job).log"
    }

    /// A path as one shell word.
    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
