import Foundation
import VRenderCapture

/// Follows a microphone's sample clock against the capture clock. The samples are the truth: a
/// device delivers every one of them in order unless it reports a loss (`AudioLoss`), so a
/// sample's time is its place in the stream — the count of samples delivered, and lost — mapped
/// to the capture clock by a straight line. The device's timestamps only fit that line.
///
/// The line is fitted by least squares to (sample, timestamp) over the last `windowSeconds`: its
/// slope is the device's seconds per sample, held to what real crystals do
/// (`maximumDriftPPM`) and fitted only once `slopeSeconds` of stamps have come (until then only
/// the offset, from the last half second, at the nominal rate). A stamp further from the line
/// than `outlierSeconds` is a reading that ran late — the reading thread starved on a busy
/// machine, PulseAudio's timing info re-read under load — and is left out of the fit: one late
/// wake-up moves nothing. Only stamps that stay off the line on the same side for
/// `shiftSeconds` move it (the fit starts again from them, keeping the slope): also when the
/// late one was the first, all the line rested on.
///
/// A loss the device reports advances the sample count by exactly what was lost: a hole's frame
/// count, or for a restart (an overrun) the time the device's own stamp shows between the end of
/// the last period and this one. (An earlier version took any stamp 25 ms off the line for a
/// loss: under load that turned late readings into gaps of 150 to 480 ms.)
/// Pure arithmetic: tested without a device.
struct AudioClock {
    /// What the clock says about one period.
    struct Reading: Equatable {
        /// The period's first sample in the device's stream, lost samples counted.
        var sample: Double
        /// Seconds of sound the device reported lost just before this period (0: none).
        var gap: Double
    }

    let nominalRate: Double
    let windowSeconds: Double
    /// The span of stamps the slope is fitted over at the least (see `slopeSeconds(wander:)`).
    let slopeSeconds: Double
    /// Stamps further than this from the line are readings that ran late, not the device's time.
    let outlierSeconds: Double
    /// The fitted line: capture time `time` at device sample `sample`, `secondsPerSample` on.
    private var line: (sample: Double, time: Double, secondsPerSample: Double)?
    /// Stamps in the window that fit the line, oldest first from `first`.
    private var stamps: [(sample: Double, time: Double)] = []
    private var first = 0
    /// The stamps off the line since the last one on it, all on one side.
    private var offLine: [(sample: Double, time: Double)] = []
    /// Device samples before the next period.
    private var samples = 0.0
    private var periodsSinceFit = 0

    /// The worst crystal a microphone has (±1000 ppm): the fitted slope is held to it, so a
    /// clock that misreads cannot stretch the sound further.
    static let maximumDriftPPM = 1000.0
    /// How long stamps must stay off the line, on one side, before the line follows them.
    static let shiftSeconds = 2.0
    /// Sound the clock must have stamps for before its line places any (`isSettled`).
    static let settleSeconds = 0.5

    /// The span of stamps the slope is fitted over at the least, for stamps that wander by
    /// `wander` seconds: long enough that the wander moves the slope by a third of a per mille at
    /// most, and at least eight seconds. Stamps wander for seconds at a time (PulseAudio's latency
    /// readings step as the server re-reads its clock, and drift by 10 ms over the stream's first
    /// seconds), which over a few seconds reads as a drift of 700 to 2300 ppm.
    static func slopeSeconds(wander: Double) -> Double { Swift.max(8, wander * 3000) }

    /// The distance from the line beyond which a stamp is a late reading: twice the device's
    /// wander, and at least 25 ms (a reading two periods late).
    static func outlierSeconds(wander: Double) -> Double { Swift.max(0.025, 2 * wander) }

    init(nominalRate: Int, timestampWander: Double = standardTimestampWander) {
        self.nominalRate = Double(nominalRate)
        slopeSeconds = Self.slopeSeconds(wander: timestampWander)
        windowSeconds = Swift.max(20, 2 * slopeSeconds)
        outlierSeconds = Self.outlierSeconds(wander: timestampWander)
    }

    /// Estimated seconds per sample of the device's clock.
    var secondsPerSample: Double { line?.secondsPerSample ?? 1 / nominalRate }

    /// The device's clock against the capture clock, in parts per million (positive: the device
    /// delivers more samples per second than its nominal rate).
    var driftPPM: Double { (1 / (secondsPerSample * nominalRate) - 1) * 1e6 }

    /// True once the line rests on `settleSeconds` of stamps: before, one late first stamp
    /// would decide where the whole take's sound goes.
    var isSettled: Bool {
        guard let oldest = stamps.first, let newest = stamps.last else { return false }
        return newest.sample - oldest.sample >= Self.settleSeconds * nominalRate
    }

    /// The device sample the next period starts with.
    var nextSample: Double { samples }

    /// Capture time of device sample `sample` on the fitted line (nil before the first period).
    func time(ofSample sample: Double) -> Double? {
        line.map { value(of: $0, at: sample) }
    }

    /// Takes one period of `frames` samples whose device timestamp is `time`, after the device's
    /// report of what it lost before it.
    mutating func period(frames: Int, time: Double, loss: AudioLoss? = nil) -> Reading {
        let gap = account(loss, stampedAt: time)
        let sample = samples
        samples += Double(frames)
        guard let current = line else {
            restart(at: sample, time: time, secondsPerSample: 1 / nominalRate)
            return Reading(sample: sample, gap: 0)
        }
        let error = time - value(of: current, at: sample)
        if abs(error) > outlierSeconds {
            noteOffLine(sample: sample, time: time, error: error, line: current)
            return Reading(sample: sample, gap: gap)
        }
        offLine.removeAll()
        stamps.append((sample, time))
        while first < stamps.count, stamps[first].sample < sample - windowSeconds * nominalRate { first += 1 }
        if first > 4096 {
            stamps.removeFirst(first)
            first = 0
        }
        // Refit often while the window fills, then every quarter second or so.
        periodsSinceFit += 1
        if stamps.count - first < 200 || periodsSinceFit >= 25 { fit() }
        return Reading(sample: sample, gap: gap)
    }

    /// Advances the sample count past what the device reports lost; returns the lost seconds.
    private mutating func account(_ loss: AudioLoss?, stampedAt time: Double) -> Double {
        guard let loss, let current = line else { return 0 }
        let lost: Double
        switch loss {
        case .frames(let count): lost = Double(Swift.max(0, count))
        case .restart: lost = Swift.max(0, (time - value(of: current, at: samples)) / current.secondsPerSample)
        }
        samples += lost
        return lost * current.secondsPerSample
    }

    /// A stamp off the line: left out, unless stamps have stayed off it on this side for
    /// `shiftSeconds`, when the line moves to them (the device's clock really moved).
    private mutating func noteOffLine(sample: Double, time: Double, error: Double,
                                      line current: (sample: Double, time: Double, secondsPerSample: Double)) {
        if let last = offLine.last, (last.time - value(of: current, at: last.sample)).sign != error.sign {
            offLine.removeAll()
        }
        offLine.append((sample, time))
        guard let oldest = offLine.first, sample - oldest.sample >= Self.shiftSeconds * nominalRate else { return }
        let errors = offLine.map { $0.time - value(of: current, at: $0.sample) }.sorted()
        let shifted = (current.sample, current.time + errors[errors.count / 2], current.secondsPerSample)
        stamps = offLine
        first = 0
        offLine.removeAll()
        line = shifted
        fit()
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
    /// Under `slopeSeconds` of stamps, the slope is kept and only the offset fitted.
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
