import Synchronization
import Testing
import VRenderCore
@testable import VRenderScale

/// The engines' retry logic, driven without processes: `ChunkSchedule` (the local engine's
/// loop) with a fake runner whose attempts end at once as a script says, and `ChunkRetries`
/// (what both engines count, and Slurm's rounds).
@Suite("Retrying failed chunks")
struct ChunkRetryTests {
    @Test func aChunkThatFailsOnceIsRetriedAndTheExportSucceeds() throws {
        let runner = FakeRunner { chunk, attempt in chunk == 1 && attempt == 1 ? 1 : 0 }
        let events = try runner.schedule(chunks: [0, 1, 2], workers: 1, maxTries: 3)
        #expect(runner.started.map(\.chunk) == [0, 1, 2, 1])
        #expect(runner.started.map(\.attempt) == [1, 1, 1, 2])
        #expect(events.failed.map(\.chunk) == [1])
        #expect(events.failed.map(\.retry) == [true])
        #expect(events.failed.map(\.log) == ["logs/chunk1.try1.log"])
        #expect(events.finished == [0, 2, 1])
    }

    @Test func aChunkThatAlwaysFailsGivesUpAfterMaxTriesNamingItsLog() {
        let runner = FakeRunner { chunk, _ in chunk == 2 ? 1 : 0 }
        #expect {
            try runner.schedule(chunks: [0, 1, 2, 3], workers: 2, maxTries: 3)
        } throws: { error in
            guard let error = error as? VRenderError else { return false }
            return error.subject == "chunk 2" && error.reason.contains("failed 3 time(s)")
                && error.reason.contains("logs/chunk2.try3.log")
        }
        #expect(runner.started.filter { $0.chunk == 2 }.map(\.attempt) == [1, 2, 3])
        #expect(runner.reported.failed.map(\.retry) == [true, true, false])
        #expect(runner.reported.finished.sorted() == [0, 1, 3])
    }

    @Test func retriesDoNotRerunChunksThatSucceeded() throws {
        let runner = FakeRunner { chunk, attempt in chunk == 0 && attempt < 3 ? 1 : 0 }
        let events = try runner.schedule(chunks: [0, 1, 2, 3], workers: 2, maxTries: 3)
        #expect(runner.started.filter { $0.chunk != 0 }.map(\.chunk).sorted() == [1, 2, 3])
        #expect(runner.started.filter { $0.chunk == 0 }.map(\.attempt) == [1, 2, 3])
        #expect(events.finished.sorted() == [0, 1, 2, 3])
        #expect(events.doneCounts == [1, 2, 3, 4])
    }

    /// The sound (job 3) starts first and beside the one worker; a failed sound is retried
    /// beside it too.
    @Test func theSoundRunsBesideTheWorkers() throws {
        let runner = FakeRunner { chunk, attempt in chunk == 3 && attempt == 1 ? 1 : 0 }
        _ = try runner.schedule(chunks: [3, 0, 1, 2], workers: 1, besideWorkers: 3, maxTries: 2)
        #expect(runner.started.map(\.chunk) == [3, 0, 3, 1, 2])
        #expect(runner.running == [0, 1, 0, 1, 0], "with one worker: chunk 0 started beside the sound, chunk 1 beside its retry")
    }

    @Test func chunksAlreadyDoneCountTowardsProgress() throws {
        let runner = FakeRunner { _, _ in 0 }
        let events = try runner.schedule(chunks: [4, 5], workers: 4, maxTries: 2, total: 6)
        #expect(events.doneCounts == [5, 6])
    }

    @Test func anInterruptedWorkerStopsTheExportWithoutARetry() {
        let runner = FakeRunner { chunk, _ in chunk == 1 ? 130 : 0 }
        #expect(throws: VRenderError.cancelled) {
            try runner.schedule(chunks: [0, 1, 2], workers: 1, maxTries: 3)
        }
        #expect(runner.started.map(\.chunk) == [0, 1])
        #expect(runner.reported.failed.isEmpty)
    }

    @Test func slurmRoundsSubmitFailedChunksAgainUntilOneIsSpent() throws {
        var retries = ChunkRetries(maxTries: 2)
        for chunk in [3, 5, 7] { retries.begin(chunk) }
        #expect(try retries.again([3, 7]) { "log\($0)" } == [3, 7])
        for chunk in [3, 7] { retries.begin(chunk) }
        #expect(retries.tries(of: 5) == 1)   // succeeded in the first round: not counted again
        #expect { try retries.again([7, 3]) { "logs/chunk_\($0).job9.log" } } throws: { error in
            let error = error as? VRenderError
            return error?.subject == "chunk 7" && error?.reason.contains("failed 2 time(s); its log is logs/chunk_7.job9.log") == true
        }
    }

    @Test func childProcessCapturesBothStreamsAndTheExitStatus() throws {
        let result = try ChildProcess.run("/bin/sh", arguments: ["-c", "echo out; echo err >&2; exit 3"])
        #expect(result.status == 3)
        #expect(result.output.contains("out") && result.output.contains("err"))
    }
}

/// What the schedule reported.
private struct Events {
    var failed: [(chunk: Int, attempt: Int, log: String, retry: Bool)] = []
    var finished: [Int] = []
    var doneCounts: [Int] = []

    init(_ events: [ChunkedExportEvent] = []) {
        for event in events {
            switch event {
            case .failed(let chunk, let attempt, let log, let retry): failed.append((chunk, attempt, log, retry))
            case .finished(let chunk, _, let done, _):
                finished.append(chunk)
                doneCounts.append(done)
            default: break
            }
        }
    }
}

/// A runner whose attempts end as soon as they start, with the status `outcome(chunk, attempt)`.
private final class FakeRunner: ChunkRunner {
    let outcome: (Int, Int) -> Int32
    let stop = EngineStop()
    private(set) var started: [(chunk: Int, attempt: Int)] = []
    /// How many attempts were running when each attempt started.
    private(set) var running: [Int] = []
    private var exitsReported = 0
    private var ended: [ChunkExit] = []
    private var done: Set<Int> = []
    private let events = EventLog()

    init(outcome: @escaping (Int, Int) -> Int32) {
        self.outcome = outcome
    }

    var reported: Events { Events(events.all) }

    /// Runs a schedule of `chunks` (of `total`, the rest done already); what it reported.
    func schedule(chunks: [Int], workers: Int, besideWorkers: Int? = nil, maxTries: Int, total: Int? = nil) throws -> Events {
        var schedule = ChunkSchedule(chunks: chunks, total: total ?? chunks.count, workers: workers, besideWorkers: besideWorkers,
                                     maxTries: maxTries, stop: stop) { [events] in events.add($0) }
        try schedule.run(on: self)
        return reported
    }

    func start(chunk: Int, attempt: Int) throws -> Int32 {
        running.append(started.count - exitsReported)
        started.append((chunk, attempt))
        let status = outcome(chunk, attempt)
        if status == 0 { done.insert(chunk) }
        ended.append(ChunkExit(id: Int32(started.count), status: status))
        return Int32(started.count)
    }

    func exits() -> [ChunkExit] {
        // Nothing running would wait for ever: stop instead, which fails the test.
        if ended.isEmpty { stop.stop() }
        exitsReported += ended.count
        defer { ended = [] }
        return ended
    }

    func finished(_ chunk: Int) throws -> Double? { done.contains(chunk) ? 1.5 : nil }

    func log(chunk: Int, attempt: Int) -> String { "logs/chunk\(chunk).try\(attempt).log" }

    func finish(_ running: Set<Int32>) {}
}

/// The events a schedule reported (its report closure must be `@Sendable`).
private final class EventLog: Sendable {
    private let list = Mutex<[ChunkedExportEvent]>([])

    func add(_ event: ChunkedExportEvent) { list.withLock { $0.append(event) } }
    var all: [ChunkedExportEvent] { list.withLock { $0 } }
}
