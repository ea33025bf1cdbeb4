import VRenderCore

/// An attempt's end as the local engine's schedule sees it.
struct ChunkExit: Sendable {
    /// What `ChunkRunner.start` returned for the attempt (a process id).
    let id: Int32
    let status: Int32
}

/// What the local engine's schedule needs of its workers; the engine's are child processes,
/// tests give it a fake. Called on the schedule's thread only.
protocol ChunkRunner {
    /// Starts attempt `attempt` at `chunk`; the id its exit will carry.
    func start(chunk: Int, attempt: Int) throws -> Int32
    /// The exits so far, waiting for at least one (or for a stop: then maybe none).
    func exits() -> [ChunkExit]
    /// How long `chunk` took when it is in the done-list; nil when it is not.
    func finished(_ chunk: Int) throws -> Double?
    /// Where attempt `attempt` at `chunk` wrote its log.
    func log(chunk: Int, attempt: Int) -> String
    /// On the way out: stops the attempts `running` and waits for them.
    func finish(_ running: Set<Int32>)
}

/// The local engine's loop: at most `workers` attempts at once, each failed attempt tried
/// again while `ChunkRetries` allows; a chunk that still fails stops the export with its log,
/// once the attempts still running have finished. Chunks that succeeded are never run again.
struct ChunkSchedule {
    let total: Int
    let workers: Int
    /// A job that runs beside the workers, not in one of their places, started first: the
    /// sound, which takes one processor for a fraction of the export's time. In a worker's
    /// place it left one worker rendering a last chunk while the other idled (its share of the
    /// work cannot be matched by whole chunks); beside them, the processors share it.
    let besideWorkers: Int?
    let stop: EngineStop
    let report: @Sendable (ChunkedExportEvent) -> Void
    private var retries: ChunkRetries
    private var waiting: [Int]
    private var running: [Int32: (chunk: Int, attempt: Int)] = [:]
    /// Chunks in the done-list, for the progress lines.
    private var done: Int
    private var failure: VRenderError?

    init(chunks: [Int], total: Int, workers: Int, besideWorkers: Int? = nil, maxTries: Int, stop: EngineStop,
         report: @escaping @Sendable (ChunkedExportEvent) -> Void) {
        self.total = total
        self.workers = workers
        self.besideWorkers = besideWorkers
        self.stop = stop
        self.report = report
        retries = ChunkRetries(maxTries: maxTries)
        waiting = chunks
        done = total - chunks.count
    }

    /// Renders the chunks with `runner`; returns when every one is in the done-list.
    mutating func run(on runner: some ChunkRunner) throws {
        defer { runner.finish(Set(running.keys)) }
        while (failure == nil && !waiting.isEmpty) || !running.isEmpty {
            if stop.isStopped { throw VRenderError.cancelled }
            while failure == nil, let next = nextToStart() {
                let chunk = waiting.remove(at: next)
                let attempt = retries.begin(chunk)
                running[try runner.start(chunk: chunk, attempt: attempt)] = (chunk, attempt)
            }
            for exit in runner.exits() { try ended(exit, on: runner) }
        }
        if let failure { throw failure }
    }

    /// Where in `waiting` the job to start now is: the one beside the workers whenever it
    /// waits, else the first chunk when a worker is free; nil: none now.
    private func nextToStart() -> Int? {
        if let beside = besideWorkers, let index = waiting.firstIndex(of: beside) { return index }
        guard running.values.count(where: { $0.chunk != besideWorkers }) < workers else { return nil }
        return waiting.firstIndex { $0 != besideWorkers }
    }

    private mutating func ended(_ exit: ChunkExit, on runner: some ChunkRunner) throws {
        guard let (chunk, attempt) = running.removeValue(forKey: exit.id) else { return }
        if exit.status == 0, let seconds = try runner.finished(chunk) {
            done += 1
            report(.finished(chunk: chunk, seconds: seconds, done: done, total: total))
            return
        }
        // A worker interrupted (SIGINT or SIGTERM from outside) interrupts the export.
        if exit.status == 130 { stop.stop() }
        if stop.isStopped { return }
        let log = runner.log(chunk: chunk, attempt: attempt)
        let retry = retries.triesAgain(chunk)
        report(.failed(chunk: chunk, attempt: attempt, log: log, retry: retry))
        if retry {
            waiting.append(chunk)
        } else if failure == nil {
            failure = retries.failure(of: chunk, log: log)
        }
    }
}
