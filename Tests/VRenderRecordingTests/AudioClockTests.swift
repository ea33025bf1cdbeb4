import Testing
@testable import VRenderRecording

/// The microphone clock model: it must follow a drifting crystal, average away timestamp
/// jitter, and tell a lost stretch of sound from jitter.
@Suite struct AudioClockTests {
    /// Feeds `seconds` of 10 ms periods from a device running `ppm` fast whose stamps wobble
    /// by ±`jitter`; returns the clock and the largest error of its smoothed times after `settle` s.
    private func follow(ppm: Double, jitter: Double, seconds: Double, settle: Double = 3) -> (AudioClock, Double) {
        var clock = AudioClock(nominalRate: 48_000)
        let trueRate = 48_000 * (1 + ppm * 1e-6)
        var worst = 0.0
        var sample = 0
        var period = 0
        while Double(sample) / trueRate < seconds {
            let truth = Double(sample) / trueRate
            let wobble = [jitter, -jitter, 0.4 * jitter, -0.7 * jitter][period % 4]
            let reading = clock.period(frames: 480, time: truth + wobble)
            if truth > settle { worst = max(worst, abs(reading.time - truth)) }
            #expect(reading.gap == 0 && !reading.restarted)
            sample += 480
            period += 1
        }
        return (clock, worst)
    }

    @Test(arguments: [-1000.0, 0, 300, 1000])
    func followsACrystalOffByUpToAThousandPPM(ppm: Double) {
        let (clock, worst) = follow(ppm: ppm, jitter: 0.0005, seconds: 60, settle: 10)
        #expect(abs(clock.driftPPM - ppm) < 15, "measured \(clock.driftPPM) ppm")
        #expect(worst < 0.0005, "smoothed times off by up to \(worst * 1000) ms")
    }

    @Test func averagesAwayJitterOfSeveralMilliseconds() {
        // PulseAudio's latency readings move by a few milliseconds.
        let (_, worst) = follow(ppm: 0, jitter: 0.004, seconds: 30, settle: 10)
        #expect(worst < 0.001, "smoothed times off by up to \(worst * 1000) ms")
    }

    @Test func aJumpInTheStampsIsAGapOfItsLength() {
        var clock = AudioClock(nominalRate: 48_000)
        for period in 0..<300 { _ = clock.period(frames: 480, time: Double(period) * 0.01) }
        let reading = clock.period(frames: 480, time: 3.2)   // 3.0 expected: 200 ms lost
        #expect(abs(reading.gap - 0.2) < 1e-9)
        #expect(reading.time == 3.2)
        // And the clock goes on from there, without another gap.
        #expect(clock.period(frames: 480, time: 3.21).gap == 0)
    }

    @Test func stampsThatJumpBackRestartTheClockWithoutAGap() {
        var clock = AudioClock(nominalRate: 48_000)
        for period in 0..<100 { _ = clock.period(frames: 480, time: Double(period) * 0.01) }
        let reading = clock.period(frames: 480, time: 0.5)
        #expect(reading.restarted && reading.gap == 0)
    }

    @Test func jitterWithinTheThresholdIsNotAGap() {
        #expect(AudioClock.gapThreshold(periodSeconds: 0.01) == 0.025)
        #expect(AudioClock.gapThreshold(periodSeconds: 0.02) == 0.05)
    }
}
