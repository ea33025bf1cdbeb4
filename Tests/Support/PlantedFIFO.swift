import Foundation

/// A FIFO planted where a file was (a take, a thumbnail). Code that opens it by name and waits
/// in open() for a writer (the bug the tests using it catch) would hang the test, or the whole
/// test process when the waiting is on Swift's cooperative threads: if `done()` has not been
/// called after `seconds`, the FIFO gets a writer, and so an end, and the test fails instead.
// @unchecked Sendable: `finished` is only read and written with `condition` locked.
public final class PlantedFIFO: @unchecked Sendable {
    public let path: String
    private let condition = NSCondition()
    private var finished = false

    public init(at path: String, seconds: Double = 60) throws {
        self.path = path
        try? FileManager.default.removeItem(atPath: path)
        guard mkfifo(path, 0o644) == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
        let deadline = Date(timeIntervalSinceNow: seconds)
        Thread.detachNewThread { [self] in
            condition.lock()
            while !finished && condition.wait(until: deadline) {}
            let release = !finished
            condition.unlock()
            if release { giveAWriter() }
        }
    }

    /// The test is over: the FIFO is left as it is.
    public func done() {
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    /// Opens the FIFO for writing without waiting (it works only while a reader waits, and
    /// never through a link) and closes it: a reader stuck in open() gets past it, then reads
    /// its end.
    private func giveAWriter() {
        let writer = open(path, O_WRONLY | O_NONBLOCK | O_NOFOLLOW)
        if writer >= 0 { close(writer) }
    }
}
