#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Collects what `vrender bench` and `concat --timings` report about one run: per-stage frame
/// times (`StageTimer`, one per stage, each written by its stage's own thread), how full the
/// queues between stages were, drops, frames in and out, wall and CPU time, and peak memory.
///
///     let timings = StageTimings(kind: "concat")
///     timings.start()
///     let decode = timings.timer("decode")      // before the stage's thread starts
///     ...                                        // the stage: decode.begin() ... decode.frameDone()
///     timings.finish(framesIn: 450, framesOut: 450, mediaSeconds: 15)
///     let report = timings.report()
///
/// A pipeline holds an optional collector (and optional timers): when timings are off it pays
/// one nil check per call and reads no clock.
///
/// `report()` reads the timers: call it only after every stage's thread has ended (joined
/// through `StageGroup.wait` or the like), which orders those reads after every write.
public final class StageTimings: Sendable {
    private struct State {
        var timers: [StageTimer] = []
        var queues: [(name: String, read: @Sendable () -> OccupancyHistogram?)] = []
        var started = ProcessUsage.now()
        var ended: ProcessUsage?
        var framesIn = 0
        var framesOut = 0
        var mediaSeconds: Double?
        var drops = 0
        var settings: [String: String] = [:]
        var baseline: BaselineRatio?
    }

    /// What was measured: "concat", "capture" or "filter".
    public let kind: String
    private let state = Mutex(State())

    public init(kind: String) {
        self.kind = kind
    }

    /// Restarts the wall and CPU clocks: what follows is the measured run. (Creation starts
    /// them too.)
    public func start() {
        state.withLock { $0.started = ProcessUsage.now() }
    }

    /// A new timer for `stage`, listed in the report in the order timers are made. Make it
    /// before the stage's thread starts and hand it to that thread. `measures: .wait` for a
    /// time frames spend waiting (in a ring), which no thread spends working.
    public func timer(_ stage: String, measures: StageReport.Measure = .work) -> StageTimer {
        let timer = StageTimer(name: stage, measures: measures)
        state.withLock { $0.timers.append(timer) }
        return timer
    }

    /// Samples `queue`'s depth at every push from now on, reported as `name`.
    public func watch<Element>(_ queue: BoundedQueue<Element>, as name: String) {
        queue.trackOccupancy()
        watch(name) { queue.occupancy }
    }

    /// Reports the occupancy `read` returns (at report time) as queue `name`.
    public func watch(_ name: String, occupancy read: @escaping @Sendable () -> OccupancyHistogram?) {
        state.withLock { $0.queues.append((name, read)) }
    }

    /// Frames lost on the way (a live capture's ring dropping the oldest frame).
    public func addDrops(_ count: Int) {
        state.withLock { $0.drops += count }
    }

    /// A setting the run was made with (filter, codec, size, backend...), for the report.
    public func setting(_ key: String, _ value: String) {
        state.withLock { $0.settings[key] = value }
    }

    /// A stage's speed against a baseline measured in the same run (filter vs memcpy).
    public func compare(_ stage: String, with baseline: String) {
        state.withLock { $0.baseline = BaselineRatio(stage: stage, baseline: baseline, ratio: 0) }
    }

    /// Frames recorded by `stage`'s timer so far (0 when there is no such stage).
    public func frames(of stage: String) -> Int {
        state.withLock { state in state.timers.first { $0.name == stage }?.count ?? 0 }
    }

    /// Stops the wall and CPU clocks and records what the run consumed and produced.
    /// `mediaSeconds`: seconds of video produced (for "× real time"), when that means something.
    public func finish(framesIn: Int, framesOut: Int, mediaSeconds: Double?) {
        let now = ProcessUsage.now()
        state.withLock { state in
            state.ended = now
            state.framesIn = framesIn
            state.framesOut = framesOut
            state.mediaSeconds = mediaSeconds
        }
    }

    /// The summary of everything recorded. Without `finish`, the clocks stop now.
    public func report() -> TimingReport {
        state.withLock { state in
            let end = state.ended ?? ProcessUsage.now()
            let wall = Double(end.wallNanoseconds &- state.started.wallNanoseconds) / 1e9
            let stages = state.timers.map { StageReport(timer: $0, wallSeconds: wall) }
            var baseline = state.baseline
            if let wanted = baseline,
               let measured = stages.first(where: { $0.name == wanted.stage }),
               let reference = stages.first(where: { $0.name == wanted.baseline }) {
                baseline?.ratio = BaselineRatio.speedRatio(of: measured, to: reference)
            }
            return TimingReport(
                kind: kind, settings: state.settings, wallSeconds: wall,
                cpuSeconds: end.cpuSeconds - state.started.cpuSeconds, peakMemoryBytes: end.peakResidentBytes,
                framesIn: state.framesIn, framesOut: state.framesOut,
                mediaSeconds: state.mediaSeconds, drops: state.drops, stages: stages,
                queues: state.queues.compactMap { queue in queue.read().map { QueueReport(name: queue.name, $0) } },
                baseline: baseline)
        }
    }
}

/// The clock every timing reads: `clock_gettime(CLOCK_MONOTONIC)` in nanoseconds, called
/// directly (about 120 ns a read on this project's VMs, where the kernel has no vDSO fast path;
/// `DispatchTime.now()` costs two to three times that). Stamps compare only with stamps from
/// this clock.
package enum MonotonicClock {
    @inline(__always)
    package static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    /// `now()` in seconds, for stamps compared with other seconds (an audio device's clock).
    package static var nowSeconds: Double { Double(now()) / 1e9 }

    /// Seconds from `start` (a `now()` stamp) until now: a wall-clock duration.
    package static func seconds(since start: UInt64) -> Double { Double(now() &- start) / 1e9 }
}
