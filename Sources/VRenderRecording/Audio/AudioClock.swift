import Foundation
import VRenderCapture

/// Follows a microphone's sample clock against the capture clock: from the timestamps a device
/// gives its periods (jittery by a fraction of a millisecond; PulseAudio's, read from its latency,
/// also saw-tooth by a millisecond as the server re-reads its clock), it estimates when each
/// period's first sample was really captured and how fast the device's crystal runs, and it
/// notices the periods a device lost (an xrun, a stall) by the jump they leave in the timestamps.
///
/// A straight line fitted by least squares to (sample count, timestamp) over the last
/// `windowSeconds`: its slope is the device's seconds per sample, its value at a period's first
/// sample that sample's capture time. Jitter and saw-teeth average out over the window, a
/// steady drift is followed without lag, and a real change is seen within seconds. (A
/// delay-locked loop, tried first, turned PulseAudio's one-millisecond saw-tooth steps into
/// a 2000 ppm "drift" for seconds.) Until `slopeSeconds` of stamps have come, only the line's
/// offset is fitted, from the last half second, at the nominal rate (a 1000 ppm crystal then
/// lags by about a millisecond, with the compensation's own second). A jump larger than jitter explains restarts the fit from there.
/// Pure arithmetic: tested without a device.
struct AudioClock {
    /// What the clock says about one period.
    struct Reading: Equatable {
        /// Capture time of the period's first sample, smoothed (seconds).
        var time: Double
        /// Seconds the device lost just before this period (0: none).
        var gap: Double
        /// True when the timestamps jumped backwards by more than jitter explains: the device
        /// restarted its clock; the period is placed where its timestamp says.
        var restarted: Bool
    }

    let nominalRate: Double
    let windowSeconds: Double
    /// The span of stamps the slope is fitted over at the least (see `slopeSeconds(wander:)`).
    let slopeSeconds: Double
    /// The fitted line: capture time `time` at device sample `sample`, `secondsPerSample` on.
    private var line: (sample: Double, time: Double, secondsPerSample: Double)?
    /// Stamps in the window, oldest first from `first`.
    private var stamps: [(sample: Double, time: Double)] = []
    private var first = 0
    /// Device samples before the next period.
    private var samples = 0.0
    private var periodsSinceFit = 0

    /// A drift beyond this is not a crystal (the worst run ±1000 ppm) but a clock that
    /// misreads: the fit is held to it.
    static let maximumDriftPPM = 2500.0
    /// The span of stamps the slope is fitted over at the least, for stamps that wander by
    /// `wander` seconds: long enough that the wander moves the slope by a third of a per mille at
    /// most, and at least eight seconds. Stamps wander for seconds at a time (PulseAudio's latency
    /// readings step as the server re-reads its clock, and drift by 10 ms over the stream's first
    /// seconds), which over a few seconds reads as a drift of 700 to 2300 ppm.
    static func slopeSeconds(wander: Double) -> Double { Swift.max(8, wander * 3000) }

    init(nominalRate: Int, timestampWander: Double = standardTimestampWander) {
        self.nominalRate = Double(nominalRate)
        slopeSeconds = Self.slopeSeconds(wander: timestampWander)
        windowSeconds = Swift.max(20, 2 * slopeSeconds)
    }

    /// Estimated seconds per sample of the device's clock.
    var secondsPerSample: Double { line?.secondsPerSample ?? 1 / nominalRate }

    /// The device's clock against the capture clock, in parts per million (positive: the device
    /// delivers more samples per second than its nominal rate).
    var driftPPM: Double { (1 / (secondsPerSample * nominalRate) - 1) * 1e6 }

    /// The largest timestamp error taken for jitter rather than lost samples: a period or two
    /// late is scheduling, more is a gap. At least 25 ms (PulseAudio's latency readings move by
    /// a few milliseconds).
    static func gapThreshold(periodSeconds: Double) -> Double { Swift.max(0.025, 2.5 * periodSeconds) }

    /// Takes one period of `frames` samples whose device timestamp is `time`.
    mutating func period(frames: Int, time: Double) -> Reading {
        let sample = samples
        samples += Double(frames)
        guard let current = line else {
            restart(at: sample, time: time, secondsPerSample: 1 / nominalRate)
            return Reading(time: time, gap: 0, restarted: false)
        }
        let error = time - value(of: current, at: sample)
        if abs(error) > Self.gapThreshold(periodSeconds: Double(frames) * current.secondsPerSample) {
            // Lost samples (or a clock that jumped back): fit afresh from this stamp, keeping
            // the rate learned so far.
            restart(at: sample, time: time, secondsPerSample: current.secondsPerSample)
            return Reading(time: time, gap: Swift.max(0, error), restarted: error < 0)
        }
        stamps.append((sample, time))
        while first < stamps.count, stamps[first].sample < sample - windowSeconds * nominalRate { first += 1 }
        if first > 4096 {
            stamps.removeFirst(first)
            first = 0
        }
        // Refit often while the window fills, then every quarter second or so.
        periodsSinceFit += 1
        if stamps.count - first < 200 || periodsSinceFit >= 25 { fit() }
        return Reading(time: value(of: line!, at: sample), gap: 0, restarted: false)
    }

    private func value(of line: (sample: Double, time: Double, secondsPerSample: Double), at sample: Double) -> Double {
        line.time + (sample - line.sample) * line.secondsPerSample
    }

    private mutating func restart(at sample: Double, time: Double, secondsPerSample: Double) {
        stamps = [(sample, time)]
        first = 0
        line = (sample, time, secondsPerSample)
        periodsSinceFit = 0
    }

    /// Least squares over the window, centred on its means (no large sums to lose digits in).
    /// Under a second of stamps, the slope is kept and only the offset fitted.
    private mutating func fit() {
        periodsSinceFit = 0
        var window = stamps[first...]
        if let newest = window.last, let oldest = window.first, newest.sample - oldest.sample < slopeSeconds * nominalRate {
            // Offset only: from the last half second, so that a drift not yet measured lags
            // by a quarter second's worth, not by half the window's.
            window = window.drop { $0.sample < newest.sample - nominalRate / 2 }
        }
        let count = Double(window.count)
        let meanSample = window.reduce(0) { $0 + $1.sample } / count
        let meanTime = window.reduce(0) { $0 + $1.time } / count
        var slope = secondsPerSample
        if let oldest = window.first, let newest = window.last, newest.sample - oldest.sample >= slopeSeconds * nominalRate {
            var covariance = 0.0
            var variance = 0.0
            for stamp in window {
                covariance += (stamp.sample - meanSample) * (stamp.time - meanTime)
                variance += (stamp.sample - meanSample) * (stamp.sample - meanSample)
            }
            let limit = Self.maximumDriftPPM * 1e-6
            slope = Swift.min((1 + limit) / nominalRate, Swift.max((1 - limit) / nominalRate, covariance / variance))
        }
        line = (meanSample, meanTime, slope)
    }
}
