/// Turns a V4L2 stream's buffer timestamps and sequence numbers into capture times and drop
/// counts, and says how long a frame may take before the stream counts as stalled. Pure: the
/// camera feeds it what VIDIOC_DQBUF returned, so its arithmetic is tested without a device.
///
/// - Times count from the first frame of the stream and never run backwards (a jittery clock
///   must not give decreasing timestamps).
/// - Drops come from gaps in the sequence numbers. After a streaming restart the driver counts
///   from 0 again, so the first gap is estimated from the time between the frames instead.
/// - The observed frame period (a slow moving average) lengthens the stall timeout for a camera
///   that slows down in low light.
struct V4L2FrameClock {
    /// The locked frame rate, frames per second.
    let frameRate: Double
    /// The frame interval the device actually keeps (seconds, smoothed), once known.
    private(set) var observedPeriod: Double?
    /// Frames the device dropped over the clock's life (every stream since it was made).
    private(set) var droppedFrames = 0

    private var firstTimestamp: Double?
    /// The timestamp of the stream's first frame: capture time 0 on the driver's clock.
    var origin: Double? { firstTimestamp }
    private var lastTimestamp: Double?
    private var lastSequence: Int?
    private var lastTime = 0.0
    /// Set by a restart: the next gap is estimated from time, the sequence having restarted.
    private var estimateGapFromTime = false

    init(frameRate: Double) {
        self.frameRate = frameRate
    }

    /// A new stream (VIDIOC_STREAMON after `start()`): times count from its first frame.
    mutating func startStream() {
        firstTimestamp = nil
        lastTimestamp = nil
        lastSequence = nil
        lastTime = 0
        observedPeriod = nil
        estimateGapFromTime = false
    }

    /// Streaming was restarted after a stall: times go on, the driver's sequence counter
    /// starts again from 0.
    mutating func streamRestarted() {
        lastSequence = nil
        estimateGapFromTime = lastTimestamp != nil
    }

    /// The capture time and drops of a frame the driver stamped `timestamp` (seconds, any
    /// epoch) with sequence number `sequence`.
    mutating func frame(timestamp: Double, sequence: Int) -> CapturedFrameInfo {
        let dropped = gap(before: timestamp, sequence: sequence)
        estimateGapFromTime = false
        lastSequence = sequence
        lastTimestamp = timestamp
        droppedFrames += dropped

        let first = firstTimestamp ?? timestamp
        firstTimestamp = first
        lastTime = max(lastTime, timestamp - first)
        return CapturedFrameInfo(time: lastTime, sequence: sequence, droppedBefore: dropped)
    }

    /// How long to wait for a frame before restarting streaming: four frame periods, and never
    /// under 200 ms, so scheduling jitter is not mistaken for a stall. The period is the longer
    /// of the locked one and the one observed, and the wait doubles after each restart that
    /// brought nothing (at most 10 s).
    func pollTimeoutMilliseconds(afterStalls stalls: Int) -> Int32 {
        let period = max(1 / max(frameRate, 0.1), observedPeriod ?? 0)
        let seconds = max(0.2, 4 * period) * Double(1 << min(stalls, 6))
        return Int32(min(10, seconds) * 1000)
    }

    /// Frames missing before this one, and the observed period updated from a sequence gap.
    private mutating func gap(before timestamp: Double, sequence: Int) -> Int {
        if let lastSequence, sequence > lastSequence {
            let dropped = sequence - lastSequence - 1
            if let lastTimestamp, timestamp > lastTimestamp {
                // A slow moving average: one late frame must not stretch the stall timeout.
                let interval = min(2, (timestamp - lastTimestamp) / Double(dropped + 1))
                observedPeriod = observedPeriod.map { 0.75 * $0 + 0.25 * interval } ?? interval
            }
            return dropped
        }
        if estimateGapFromTime, let lastTimestamp {
            let periods = (timestamp - lastTimestamp) * frameRate
            return max(0, Int(periods.rounded()) - 1)
        }
        return 0
    }
}
