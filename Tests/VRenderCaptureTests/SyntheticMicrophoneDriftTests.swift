import Testing
import VRenderCore
@testable import VRenderCapture

/// The synthetic microphone over the whole range of what `--audio-drift` and `--audio-rate`
/// accept: `--audio-drift 5` (and 10, 16, 20) trapped at the first clap whose instant fell
/// between samples just past a period's end ("Range requires lowerBound <= upperBound").
@Suite struct SyntheticMicrophoneDriftTests {
    /// Every whole ppm from -1000 to 1000, and fractions spread over the range and near its
    /// edges and zero.
    static var drifts: [Double] {
        var random = SplitMix64(seed: 37)
        let spread = (0..<400).map { _ in (random.nextUnit() * 2 - 1) * SyntheticMicrophone.driftLimit }
        return (-1000...1000).map(Double.init) + spread
            + [0.5, -0.5, 0.001, -0.001, 1e-9, 999.999, -999.999, 0.24, 4.99, 5.01]
    }

    /// The ends of `--audio-rate`, the common rates, and rates whose 10 ms periods are not whole
    /// samples (44.1 kHz: 441; 47999 Hz: 479, so a second is not a whole number of periods).
    static let rates = [8_000, 8_001, 11_025, 16_000, 22_050, 44_100, 47_999, 48_000, 88_200, 96_000, 176_400, 192_000]

    /// For a clap at any instant, at any accepted drift and rate, after any gap: the periods
    /// around it hear its click exactly once, from the sample its instant rounds to, all of its
    /// samples, and nothing traps. This is `render()`'s own placement (`clicks(in:…)`), so the
    /// whole range runs in a moment where recording it would take hours.
    @Test func everyAcceptedDriftAndRateHearsEachClickOnceAndWhole() {
        var random = SplitMix64(seed: 11)
        var checked = 0
        for drift in Self.drifts {
            for rate in Self.rates {
                let periodFrames = rate / 100
                let deviceRate = Double(rate) * (1 + drift * 1e-6)
                let clickLength = SyntheticVoice.clickLength(rate: Double(rate))
                // Half the clocks after a gap (scene time moved on), half from the start.
                var clock = DeviceClock()
                if random.next() % 2 == 0 { clock.shift = random.nextUnit() * 100 }
                // The clapper's whole seconds (the camera's flash frames at 30 fps) and any instant.
                let instants = [1.0, 2, 3, Double(random.next(in: 4...7200))].map { clock.shift + $0 }
                    + [clock.shift + random.nextUnit() * 7200]
                for instant in instants {
                    let onset = Int(((instant - clock.shift) * deviceRate).rounded())
                    let heard = Self.samplesHeard(of: instant, clock: clock, deviceRate: deviceRate,
                                                  periodFrames: periodFrames, clickLength: clickLength)
                    guard heard == onset..<onset + clickLength else {
                        Issue.record("drift \(drift) ppm, \(rate) Hz, clap at \(instant) s (onset \(onset)): heard \(String(describing: heard))")
                        return
                    }
                    checked += 1
                }
            }
        }
        #expect(checked == Self.drifts.count * Self.rates.count * 5)
    }

    /// The samples that play the clap at `instant` in the periods from the one before its click
    /// to the one after it: one unbroken run from its onset (nil when a period repeats a sample,
    /// skips one, or places the click elsewhere).
    private static func samplesHeard(of instant: Double, clock: DeviceClock, deviceRate: Double, periodFrames: Int,
                                     clickLength: Int) -> Range<Int>? {
        let near = Int((instant - clock.shift) * deviceRate)
        var heard: Range<Int>?
        for period in (near - clickLength) / periodFrames - 1...(near + clickLength) / periodFrames + 1 {
            let samples = period * periodFrames..<(period + 1) * periodFrames
            // As the clapper answers: the instants in `from..<to`.
            let clicks = SyntheticMicrophone.clicks(in: samples, clock: clock, deviceRate: deviceRate, clickLength: clickLength,
                                                    claps: { from, to in instant >= from && instant < to ? [instant] : [] })
            for click in clicks {
                guard let sofar = heard else {
                    guard click.samples.lowerBound == click.onset else { return nil }
                    heard = click.samples
                    continue
                }
                guard click.samples.lowerBound == sofar.upperBound, click.onset == sofar.lowerBound else { return nil }
                heard = sofar.lowerBound..<click.samples.upperBound
            }
        }
        return heard
    }

    /// The drifts that trapped, recorded for 4 s at 48 kHz: whole periods, and a click on the
    /// device sample of every clap (at 5 ppm the clap at 3 s is at sample 144000.72: onset
    /// 144001, the second sample of a period; at 16 and 20 ppm already the clap at 1 s).
    @Test(arguments: [5.0, 10, 16, 20, -5, 0.5])
    func theDriftsThatTrappedRecordEveryPeriodAndClick(drift: Double) throws {
        let rate = 48_000
        let microphone = try SyntheticMicrophoneTests.microphone(rate: rate, drift: drift)
        let periods = 400
        let samples = try SyntheticMicrophoneTests.read(microphone, periods: periods).samples
        #expect(samples.count == periods * 480)
        let deviceRate = Double(rate) * (1 + drift * 1e-6)
        let expected = [0.0, 1, 2, 3, 4].map { Int(($0 * deviceRate).rounded()) }.filter { $0 < samples.count }
        #expect(SyntheticMicrophoneTests.onsets(samples, rate: rate) == expected)
    }
}
