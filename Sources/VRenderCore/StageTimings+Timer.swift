/// One stage's work time per frame, measured and stored by the stage's own thread.
///
/// A stopwatch that runs while the stage works on a frame and stands still while it waits
/// (for a full queue, say), so each sample is work only:
///
///     timer?.begin()                  // work starts (or resumes)
///     try decoder.decode(packet) { frame in
///         timer?.frameDone()          // one frame's sample: everything timed since the last one
///         output.push(frame)          // a wait: not timed
///         timer?.begin()
///     }
///     timer?.pause()                  // what was timed waits for the next frame's sample
///
/// Work that belongs to no one frame (an encoder's final flush, an audio packet's mux) ends
/// with `otherDone()`: it counts in the stage's busy time, not in its frame samples.
///
/// Two clock reads per piece of work; samples go into chunks of 4096, so recording allocates
/// once per 4096 frames, never per frame.
// @unchecked Sendable: only the stage's own thread calls the recording methods; readers
// (`StageTimings.report()`) run after that thread ended, which orders them after its writes.
public final class StageTimer: @unchecked Sendable {
    public let name: String
    /// Work (a thread busy on the frame) or a wait (a frame waiting for a thread).
    public let measures: StageReport.Measure
    private var samples = SampleSeries()
    private var other: UInt64 = 0
    /// Timed so far for the frame in progress.
    private var pending: UInt64 = 0
    private var runningSince: UInt64 = 0
    private var running = false

    init(name: String, measures: StageReport.Measure) {
        self.name = name
        self.measures = measures
    }

    /// Starts the clock, or lets it run on if it runs already.
    @inline(__always)
    public func begin() {
        guard !running else { return }
        runningSince = MonotonicClock.now()
        running = true
    }

    /// Stops the clock; the time so far stays with the frame in progress.
    @inline(__always)
    public func pause() {
        guard running else { return }
        pending &+= MonotonicClock.now() &- runningSince
        running = false
    }

    /// Stops the clock and records everything timed since the last sample as one frame's.
    public func frameDone() {
        pause()
        samples.append(pending)
        pending = 0
    }

    /// Stops the clock and counts everything timed since the last sample as work outside frames.
    public func otherDone() {
        pause()
        other &+= pending
        pending = 0
    }

    /// Records a duration measured elsewhere (a frame's wait in a ring, from two stamps) as one
    /// frame's sample.
    public func record(nanoseconds: UInt64) {
        samples.append(nanoseconds)
    }

    /// Times `body` as one frame's work.
    public func measureFrame<T>(_ body: () throws -> T) rethrows -> T {
        begin()
        defer { frameDone() }
        return try body()
    }

    /// Frames recorded.
    public var count: Int { samples.count }

    /// Every frame's sample in nanoseconds, in the order recorded.
    public var nanoseconds: [UInt64] { samples.all }

    /// Work outside frames, plus a frame in progress never finished, in nanoseconds.
    public var otherNanoseconds: UInt64 { other &+ pending }
}

/// Samples in fixed-size chunks: appending never copies what is stored, and allocates once per
/// `chunkSize` samples.
struct SampleSeries {
    static let chunkSize = 4096
    private var chunks: [[UInt64]] = []
    private(set) var count = 0

    mutating func append(_ value: UInt64) {
        if count % Self.chunkSize == 0 {
            var chunk: [UInt64] = []
            chunk.reserveCapacity(Self.chunkSize)
            chunks.append(chunk)
        }
        chunks[chunks.count - 1].append(value)
        count += 1
    }

    var all: [UInt64] { Array(chunks.joined()) }
}
