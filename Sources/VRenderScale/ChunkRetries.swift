import VRenderCore

/// How both engines try failed chunks again: each chunk gets up to `maxTries` attempts; a
/// chunk that fails its last one is the export's error, naming the chunk and its log
/// (`ChunkFailure`). Only bookkeeping: no processes, no clock, so tests drive it directly.
struct ChunkRetries {
    let maxTries: Int
    private var tries: [Int: Int] = [:]

    init(maxTries: Int) {
        self.maxTries = maxTries
    }

    /// Counts a new attempt at `chunk`; its number (1 for the first).
    @discardableResult
    mutating func begin(_ chunk: Int) -> Int {
        tries[chunk, default: 0] += 1
        return tries[chunk]!
    }

    /// The attempts at `chunk` so far.
    func tries(of chunk: Int) -> Int { tries[chunk, default: 0] }

    /// Whether `chunk`, having just failed, gets another attempt.
    func triesAgain(_ chunk: Int) -> Bool { tries(of: chunk) < maxTries }

    /// The export's error for `chunk`, failed at its last attempt (whose log is `log`).
    func failure(of chunk: Int, log: String) -> VRenderError {
        ChunkFailure.error(chunk: chunk, tries: tries(of: chunk), log: log)
    }

    /// A round's failed chunks (Slurm's job array): those to submit again, all of them, or
    /// the error of the first one that has had all its tries.
    func again(_ failed: [Int], log: (Int) -> String) throws -> [Int] {
        if let spent = failed.first(where: { !triesAgain($0) }) { throw failure(of: spent, log: log(spent)) }
        return failed
    }
}
