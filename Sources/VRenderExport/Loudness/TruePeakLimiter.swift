import Foundation

/// A look-ahead limiter that keeps a stereo signal's true peak (the peak of the continuous
/// signal the samples stand for, ITU-R BS.1770 annex 2) under `ceiling`, with smooth gain.
///
/// Per sample: the peaks between each pair of neighbouring samples are estimated at 4x the
/// rate (a windowed-sinc interpolator, three points between samples), both channels linked;
/// the gain that sample needs is `ceiling / peak` (at most 1). The gain applied is the
/// minimum of that over the next `lookahead` samples, averaged over `lookahead` samples: it
/// ramps down linearly over the look-ahead and is already low enough when the peak arrives,
/// so nothing is clipped and no step is heard. It recovers with a `release` time constant.
///
/// It delays the signal by `latency` samples (the interpolator's half width plus the
/// look-ahead): `process` returns as many samples as it is given, the first `latency` of
/// them from before the signal began (silence). `LoudnessShaper` takes the delay back out.
struct TruePeakLimiter {
    static let oversampling = 4
    /// Taps per phase of the interpolator; it reads `halfTaps` samples ahead.
    static let taps = 16
    static let halfTaps = taps / 2

    let ceiling: Float
    let lookahead: Int
    var latency: Int { Self.halfTaps + lookahead - 1 }
    /// Interpolator coefficients for points 1/4, 2/4 and 3/4 of the way from a sample to the
    /// next, `taps` each.
    private let phases: [Float]
    /// The most an interpolated point can exceed the largest sample it is made from: windows
    /// quieter than `ceiling / phaseGain` need no interpolation.
    private let phaseGain: Float
    /// Per sample, the share of the way back to the needed gain (Double: in Float a gain near 1
    /// would stop short of it, its steps below Float's resolution).
    private let release: Double

    /// The last `taps` input samples per channel, each written twice (at `at` and `at + taps`)
    /// so that the window is always one contiguous run: channel c's is at `c * 2 * taps + at + 1`.
    private var history = [Float](repeating: 0, count: 4 * taps)
    private var historyAt = 0
    /// The step until which the window holds a sample loud enough to need interpolating.
    private var loudUntil = -1
    /// The peak of the interval that ended at the sample before.
    private var previousInterval: Float = 0
    /// Sliding minimum of the needed gain over the look-ahead: (sample number, gain), gains rising.
    private var minimum = MonotonicWindow()
    /// Box average of that minimum over the look-ahead.
    private var boxValues: [Float]
    private var boxSum: Double
    private var boxAt = 0
    private var gain: Double = 1
    /// Input samples not yet sent out (stereo pairs), for the delay.
    private var delay: [Float]
    private var delayAt = 0
    private var count = 0

    /// `sampleRate` sets the look-ahead (5 ms) and the release (80 ms).
    init(ceilingDecibels: Double, sampleRate: Int) {
        ceiling = Float(pow(10, ceilingDecibels / 20))
        lookahead = Swift.max(1, sampleRate / 200)
        release = 1 - exp(-1 / (0.080 * Double(sampleRate)))
        var phases: [Float] = []
        var phaseGain: Float = 0
        for phase in 1..<Self.oversampling {
            let position = Double(phase) / Double(Self.oversampling)
            let coefficients = (0..<Self.taps).map { tap in
                // The distance from the point to the tap's sample, which is x(t - halfTaps + 1 + tap).
                let distance = Double(Self.halfTaps - 1) + position - Double(tap)
                let sinc = distance == 0 ? 1 : sin(Double.pi * distance) / (Double.pi * distance)
                let window = 0.5 * (1 + cos(Double.pi * distance / Double(Self.halfTaps)))
                return Float(sinc * window)
            }
            phases += coefficients
            phaseGain = Swift.max(phaseGain, coefficients.reduce(0) { $0 + abs($1) })
        }
        self.phases = phases
        self.phaseGain = phaseGain
        boxValues = [Float](repeating: 1, count: lookahead)
        boxSum = Double(lookahead)
        delay = [Float](repeating: 0, count: 2 * (Self.halfTaps + lookahead - 1))
    }

    /// Limits interleaved stereo samples in place (delayed by `latency`).
    mutating func process(_ samples: inout [Float]) {
        let pairs = samples.count / 2
        for index in 0..<pairs {
            let (left, right) = step(samples[2 * index], samples[2 * index + 1])
            samples[2 * index] = left
            samples[2 * index + 1] = right
        }
    }

    /// One stereo sample in, the one `latency` samples earlier out, limited.
    private mutating func step(_ left: Float, _ right: Float) -> (Float, Float) {
        let taps = Self.taps
        historyAt = (historyAt + 1) % taps
        history[historyAt] = left
        history[historyAt + taps] = left
        history[2 * taps + historyAt] = right
        history[3 * taps + historyAt] = right
        if Swift.max(abs(left), abs(right)) * phaseGain > ceiling { loudUntil = count + taps }
        // The interval from sample t = count - halfTaps to t + 1.
        let interval = intervalPeak(interpolating: count < loudUntil)
        let peak = Swift.max(interval, previousInterval)
        previousInterval = interval
        let needed = peak > ceiling ? ceiling / peak : 1
        minimum.push(needed, at: count, window: lookahead)
        let least = minimum.least
        boxSum += Double(least) - Double(boxValues[boxAt])
        boxValues[boxAt] = least
        boxAt = (boxAt + 1) % lookahead
        let average = boxSum / Double(lookahead)
        gain = average < gain ? average : gain + (average - gain) * release
        // The release only nears 1: snapped there (a step of -80 dB) so that sound long after
        // a peak is passed through exactly.
        if gain > 0.9999 && average > 0.9999 { gain = 1 }
        count += 1
        // The sample that gain belongs to: `latency` samples ago (the ring holds that many).
        let slot = delayAt
        let out = (delay[2 * slot] * Float(gain), delay[2 * slot + 1] * Float(gain))
        delay[2 * slot] = left
        delay[2 * slot + 1] = right
        delayAt = (delayAt + 1) % latency
        return out
    }

    /// The largest magnitude of both channels between the window's two middle samples, those
    /// two included, at 4x the rate when `interpolating` (otherwise no point between them can
    /// reach the ceiling).
    private func intervalPeak(interpolating: Bool) -> Float {
        let taps = Self.taps
        return history.withUnsafeBufferPointer { history in
            phases.withUnsafeBufferPointer { phases in
                var peak: Float = 0
                for channel in 0..<2 {
                    // The window, oldest first: x(t - halfTaps + 1) ... x(t + halfTaps).
                    let window = history.baseAddress! + channel * 2 * taps + historyAt + 1
                    peak = Swift.max(peak, abs(window[Self.halfTaps - 1]), abs(window[Self.halfTaps]))
                    guard interpolating else { continue }
                    for phase in 0..<(Self.oversampling - 1) {
                        let coefficients = phases.baseAddress! + phase * taps
                        var sum: Float = 0
                        for tap in 0..<taps { sum += coefficients[tap] * window[tap] }
                        peak = Swift.max(peak, abs(sum))
                    }
                }
                return peak
            }
        }
    }
}

/// The minimum of the values pushed in the last `window` steps, in constant time per step
/// on average: values that a later, smaller one hides are dropped.
struct MonotonicWindow {
    private var values: [(index: Int, value: Float)] = []
    private var head = 0

    mutating func push(_ value: Float, at index: Int, window: Int) {
        while values.count > head, values[values.count - 1].value >= value { values.removeLast() }
        values.append((index, value))
        while values[head].index <= index - window { head += 1 }
        if head > 1024 {
            values.removeFirst(head)
            head = 0
        }
    }

    var least: Float { values[head].value }
}
