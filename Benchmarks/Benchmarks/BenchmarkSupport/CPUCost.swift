// Costs measured in CPU time rather than wall-clock time. On a machine shared with other builds
// a benchmark thread is preempted for whole time slices, which inflates wall-clock time but not
// the CPU time the thread actually used; timing the work and a memcpy of the same frame back to
// back, in the thread's CPU time, gives a ratio that the neighbours barely move. (So the work
// must run on the calling thread.)

import Benchmark
import Foundation

#if canImport(Glibc)
import Glibc
#endif

public enum CPUCost {
    /// Nanoseconds of CPU time the calling thread has used so far.
    @inline(__always)
    public static func threadTime() -> Int {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return time.tv_sec * 1_000_000_000 + time.tv_nsec
    }

    /// The frame size cost benchmarks use: 320x240 4:2:0, two pictures of 115,200 bytes, so
    /// source and destination stay in a core's own L2 cache (512 KiB on the CI VM). A 1080p
    /// pair (6.2 MB) fills the shared L3 (8 MiB), and with other builds running its memcpy
    /// comes from DRAM at a speed that follows their load: at 1080p the mono ratio moved by 40 %
    /// between two runs; at this size it stayed within 10 % over every run, loaded or not.
    public static let frameSize = (width: 320, height: 240)

    /// Times `repeats` memcpys of a frame and then `repeats` runs of `work` on it, in this
    /// thread's CPU time, and records `GateMetric.costVersusMemcpy` (100 × work ÷ memcpy) on `benchmark`.
    /// One untimed memcpy first brings the frame back into the cache after whatever else ran on
    /// this core since the last iteration, so that both timed parts start warm. Repeating
    /// keeps each timed part well above the cost of reading the clock (a system call).
    @inline(__always)
    public static func recordVersusMemcpy(_ benchmark: Benchmark, repeats: Int = 8,
                                          memcpy: () -> Void, work: () -> Void) {
        memcpy()
        let start = threadTime()
        for _ in 0..<repeats { memcpy() }
        let copied = threadTime()
        for _ in 0..<repeats { work() }
        let done = threadTime()
        let copyTime = max(copied - start, 1)
        benchmark.measurement(GateMetric.costVersusMemcpy, 100 * (done - copied) / copyTime)
    }
}
