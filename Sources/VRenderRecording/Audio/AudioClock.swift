import Foundation

/// Follows a microphone's sample clock against the capture clock: from the timestamps a device
/// gives its periods (jittery by a fraction of a millisecond to a few), it estimates when each
/// period's first sample was really captured and how fast the device's crystal runs, and it
/// notices the periods a device lost (an xrun, a stall) by the jump they leave in the timestamps.
///
/// A second-order delay-locked loop (the filter JACK and others use to smooth audio timestamps):
/// each period's timestamp is compared with the time predicted from the previous one and the
/// estimated sample period; a fraction of the difference corrects the time (`b`) and a smaller
/// one the sample period (`c`). The loop starts wide, to lock within a second, then narrows to
/// `bandwidth` so that jitter is averaged over seconds while a drift of ±1000 ppm is still
/// followed without lag worth a millisecond. Pure arithmetic: tested without a device.
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
    /// The loop's bandwidth once locked, in Hz: jitter faster than this is averaged away.
    let bandwidth: Double
    /// The wider bandwidth of the first `lockSeconds`.
    let lockBandwidth: Double
    let lockSeconds: Double

    /// Smoothed time of the next period's first sample; nil before the first period.
    private var predicted: Double?
    /// Estimated seconds per sample of the device's clock.
    private(set) var secondsPerSample: Double
    /// Samples followed since the clock started or last restarted (the lock phase's length).
    private var samplesFollowed = 0

    init(nominalRate: Int, bandwidth: Double = 0.05, lockBandwidth: Double = 1, lockSeconds: Double = 2) {
        self.nominalRate = Double(nominalRate)
        self.bandwidth = bandwidth
        self.lockBandwidth = lockBandwidth
        self.lockSeconds = lockSeconds
        secondsPerSample = 1 / Double(nominalRate)
    }

    /// The device's clock against the capture clock, in parts per million (positive: the device
    /// delivers more samples per second than its nominal rate).
    var driftPPM: Double { (1 / (secondsPerSample * nominalRate) - 1) * 1e6 }

    /// The largest timestamp error taken for jitter rather than lost samples: a period or two
    /// late is scheduling, more is a gap. At least 25 ms (PulseAudio's latency readings move by
    /// a few milliseconds).
    static func gapThreshold(periodSeconds: Double) -> Double { Swift.max(0.025, 2.5 * periodSeconds) }

    /// Takes one period of `frames` samples whose device timestamp is `time`.
    mutating func period(frames: Int, time: Double) -> Reading {
        let duration = Double(frames) * secondsPerSample
        guard let expected = predicted else {
            predicted = time + duration
            samplesFollowed = frames
            return Reading(time: time, gap: 0, restarted: false)
        }
        let error = time - expected
        let threshold = Self.gapThreshold(periodSeconds: duration)
        if abs(error) > threshold {
            // Lost samples (or a clock that jumped back): re-anchor on this timestamp, keep the
            // sample period learned so far.
            predicted = time + duration
            return Reading(time: time, gap: Swift.max(0, error), restarted: error < 0)
        }
        let hertz = Double(samplesFollowed) < lockSeconds * nominalRate ? lockBandwidth : bandwidth
        let omega = 2 * Double.pi * hertz * duration
        let smoothed = expected + 2.0.squareRoot() * omega * error
        secondsPerSample += omega * omega * error / Double(Swift.max(frames, 1))
        predicted = smoothed + Double(frames) * secondsPerSample
        samplesFollowed += frames
        return Reading(time: smoothed, gap: 0, restarted: false)
    }
}
