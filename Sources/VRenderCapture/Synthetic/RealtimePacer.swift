#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import VRenderCore

/// Paces a synthetic camera to the wall clock: frame k is released at start + (k − k₀)/fps on
/// the monotonic clock. Deadlines are computed from the start, never from the previous frame,
/// so lateness (a slow consumer, a busy machine) never accumulates into drift; a frame already
/// late is released at once. Pacing only: the pixels never depend on it.
struct RealtimePacer {
    /// CLOCK_MONOTONIC nanoseconds when `firstFrame` is released.
    let startNanoseconds: UInt64
    let firstFrame: Int
    private let frameRate: Rational

    init(firstFrame: Int, frameRate: Rational, startNanoseconds: UInt64 = MonotonicClock.now()) {
        self.startNanoseconds = startNanoseconds
        self.firstFrame = firstFrame
        self.frameRate = frameRate
    }

    /// Nanoseconds from the start to frame `index`'s deadline: (index − first)·den·10⁹ / num,
    /// with a double-width product so long takes at odd rates cannot overflow.
    func offset(ofFrame index: Int) -> UInt64 {
        let frames = UInt64(Swift.max(0, index - firstFrame))
        let product = (frames * UInt64(frameRate.denominator)).multipliedFullWidth(by: 1_000_000_000)
        let numerator = UInt64(frameRate.numerator)
        guard product.high < numerator else { return .max }
        return numerator.dividingFullWidth(product).quotient
    }

    /// Blocks until frame `index`'s deadline (returns at once when it has passed).
    func wait(forFrame index: Int) {
        sleep(untilOffset: offset(ofFrame: index))
    }

    /// Blocks until `seconds` after the start (the synthetic microphone's period deadlines,
    /// which drift and gaps put off any frame grid); returns at once when it has passed.
    func wait(untilSeconds seconds: Double) {
        sleep(untilOffset: UInt64(Swift.min(Swift.max(0, seconds * 1e9), 1e18)))
    }

    /// Seconds since the start on the monotonic clock.
    var elapsedSeconds: Double { MonotonicClock.seconds(since: startNanoseconds) }

    private func sleep(untilOffset offset: UInt64) {
        let deadline = startNanoseconds &+ offset
        #if os(Linux)
        var target = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        // Absolute sleep on the monotonic clock; EINTR (a signal) just sleeps again.
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &target, nil) == EINTR {}
        #else
        let now = MonotonicClock.now()
        if deadline > now { usleep(useconds_t((deadline - now) / 1000)) }
        #endif
    }
}
