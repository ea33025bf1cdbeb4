import Testing
import VRenderCapture
import VRenderCore
@testable import VRenderRecording

/// The microphone clock model: it must follow a drifting crystal, average away timestamp
/// jitter, take a late reading for what it is (not a gap), and count exactly what a device
/// reports lost.
@Suite struct AudioClockTests {
    /// Feeds `seconds` of 10 ms periods from a device running `ppm` fast whose stamps wobble
    /// by ±`jitter` (and, from `late`, come late: each period with the given chance, by up to
    /// `late.by`); returns the clock and the largest error of its line's times after `settle` s.
    private func follow(ppm: Double, jitter: Double, seconds: Double, settle: Double = 3,
                        late: (chance: Double, by: Double)? = nil, wander: Double = standardTimestampWander) -> (AudioClock, Double) {
        var clock = AudioClock(nominalRate: 48_000, timestampWander: wander)
        let trueRate = 48_000 * (1 + ppm * 1e-6)
        var random = SplitMix64(seed: 7)
        var worst = 0.0
        var sample = 0
        var period = 0
        while Double(sample) / trueRate < seconds {
            let truth = Double(sample) / trueRate
            var wobble = [jitter, -jitter, 0.4 * jitter, -0.7 * jitter][period % 4]
            if let late, random.nextUnit() < late.chance { wobble += random.nextUnit() * late.by }
            let reading = clock.period(frames: 480, time: truth + wobble)
            #expect(reading.gap == 0 && reading.sample == Double(sample))
            if truth > settle { worst = max(worst, abs(clock.time(ofSample: reading.sample)! - truth)) }
            sample += 480
            period += 1
        }
        return (clock, worst)
    }

    @Test(arguments: [-1000.0, 0, 300, 1000])
    func followsACrystalOffByUpToAThousandPPM(ppm: Double) {
        let (clock, worst) = follow(ppm: ppm, jitter: 0.0005, seconds: 60, settle: 10)
        #expect(abs(clock.driftPPM - ppm) < 15, "measured \(clock.driftPPM) ppm")
        #expect(worst < 0.0005, "line off by up to \(worst * 1000) ms")
    }

    @Test func averagesAwayJitterOfSeveralMilliseconds() {
        // PulseAudio's latency readings move by a few milliseconds.
        let (_, worst) = follow(ppm: 0, jitter: 0.004, seconds: 30, settle: 10)
        #expect(worst < 0.001, "line off by up to \(worst * 1000) ms")
    }

    /// The busy machine: one reading in five comes up to half a second late (the
    /// reading thread starved). No gap, and the line stays within a millisecond, its drift
    /// within 20 ppm — the old clock took each for a loss and cut 150–480 ms gaps.
    @Test(arguments: [0.0, 700])
    func lateReadingsOnABusyMachineAreNeitherGapsNorDrift(ppm: Double) {
        let (clock, worst) = follow(ppm: ppm, jitter: 0.001, seconds: 40, settle: 10, late: (0.2, 0.5))
        #expect(abs(clock.driftPPM - ppm) < 20, "measured \(clock.driftPPM) ppm")
        #expect(worst < 0.001, "line off by up to \(worst * 1000) ms")
    }

    @Test func driftBeyondARealCrystalIsHeldToAThousandPPM() {
        let (clock, _) = follow(ppm: 3000, jitter: 0, seconds: 30)
        #expect(abs(clock.driftPPM - 1000) < 2, "measured \(clock.driftPPM) ppm")
    }

    private func steadyClock(seconds: Double) -> AudioClock {
        var clock = AudioClock(nominalRate: 48_000)
        for period in 0..<Int(seconds * 100) { _ = clock.period(frames: 480, time: Double(period) * 0.01) }
        return clock
    }

    @Test func aStampThatJumpsWithoutAReportIsNotAGap() {
        var clock = steadyClock(seconds: 3)
        let reading = clock.period(frames: 480, time: 3.2)   // 3.0 expected: read late
        #expect(reading.gap == 0 && reading.sample == 3 * 48_000)
        #expect(clock.time(ofSample: reading.sample) == 3.0)
        #expect(clock.period(frames: 480, time: 3.01).gap == 0)
    }

    @Test func aRestartTheDeviceReportsIsAGapOfTheLengthItsStampShows() {
        var clock = steadyClock(seconds: 3)
        let reading = clock.period(frames: 480, time: 3.2, loss: .restart)   // 200 ms lost
        #expect(abs(reading.gap - 0.2) < 1e-9)
        #expect(abs(clock.time(ofSample: reading.sample)! - 3.2) < 1e-9)
        // And the clock goes on from there, without another gap.
        let after = clock.period(frames: 480, time: 3.21)
        #expect(after.gap == 0 && abs(clock.time(ofSample: after.sample)! - 3.21) < 1e-9)
    }

    @Test func aHoleIsAGapOfExactlyItsFrames() {
        var clock = steadyClock(seconds: 3)
        // A PulseAudio hole: its length is the count, whatever the stamp says.
        let reading = clock.period(frames: 480, time: 3.5, loss: .frames(4_800))
        #expect(abs(reading.gap - 0.1) < 1e-9)
        #expect(reading.sample == 3 * 48_000 + 4_800)
        #expect(abs(clock.time(ofSample: reading.sample)! - 3.1) < 1e-9)
    }

    @Test func aRestartWhoseStampGoesBackLosesNothing() {
        var clock = steadyClock(seconds: 1)
        #expect(clock.period(frames: 480, time: 0.5, loss: .restart).gap == 0)
    }

    /// Stamps that stay 100 ms off the line for good (the device's clock really moved): after
    /// `shiftSeconds` the line follows them, without a gap.
    @Test func stampsThatStayOffTheLineMoveItAfterTwoSeconds() {
        var clock = steadyClock(seconds: 3)
        var sample = 3.0 * 48_000
        for period in 0..<250 {
            let reading = clock.period(frames: 480, time: 3.1 + Double(period) * 0.01)
            #expect(reading.gap == 0)
            sample = reading.sample
        }
        #expect(abs(clock.time(ofSample: sample)! - (3.1 + 2.49)) < 0.001)
    }

    /// The first reading came 100 ms late: the line rests on it alone, so the stamps after it,
    /// all off that line, move it after `shiftSeconds`, and the clock settles on them.
    @Test func aLateFirstStampIsLeftBehindWithinTwoSeconds() {
        var clock = AudioClock(nominalRate: 48_000)
        _ = clock.period(frames: 480, time: 0.1)
        for period in 1...210 { _ = clock.period(frames: 480, time: Double(period) * 0.01) }
        #expect(clock.isSettled)
        #expect(abs(clock.time(ofSample: 0)!) < 0.001, "\(clock.time(ofSample: 0)!)")
    }

    @Test func settlesAfterHalfASecondOfStamps() {
        var clock = AudioClock(nominalRate: 48_000)
        for period in 0..<50 {
            #expect(!clock.isSettled)
            _ = clock.period(frames: 480, time: Double(period) * 0.01)
        }
        _ = clock.period(frames: 480, time: 0.5)
        #expect(clock.isSettled)
    }

    @Test func lateStampsAreOutliersBeyondTwiceTheWander() {
        #expect(AudioClock.outlierSeconds(wander: 0.0025) == 0.025)
        #expect(AudioClock.outlierSeconds(wander: 0.015) == 0.03)
    }
}
