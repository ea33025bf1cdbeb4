import Foundation
import Testing
import VRenderCore
import VRenderMedia
@testable import VRenderCapture

/// The synthetic microphone: determinism, the clapper's clicks on the exact device sample with
/// drift and gaps, period times, and what it refuses.
@Suite struct SyntheticMicrophoneTests {
    static func camera(fps: Int = 30) throws -> SyntheticCamera {
        try SyntheticCamera(specification: "synthetic:seed=7",
                            request: CaptureRequest(frameRate: Rational(fps, 1), size: (96, 54)))
    }

    static func microphone(_ specification: String = "synthetic", rate: Int? = 16_000, channels: Int? = nil,
                           drift: Double = 0, camera: SyntheticCamera? = nil) throws -> SyntheticMicrophone {
        try SyntheticMicrophone(specification: specification,
                                request: AudioRequest(sampleRate: rate, channels: channels, driftPPM: drift),
                                camera: camera ?? Self.camera())
    }

    /// `count` periods: their samples (interleaved floats) and times.
    static func read(_ microphone: SyntheticMicrophone, periods count: Int) throws
        -> (samples: [Float], times: [Double], losses: [Int: AudioLoss]) {
        microphone.start()
        var samples: [Float] = []
        var times: [Double] = []
        var losses: [Int: AudioLoss] = [:]
        for index in 0..<count {
            let period = try #require(try microphone.read())
            #expect(period.frames == microphone.periodFrames)
            samples += Array(period.samples.bindMemory(to: Float.self))
            times.append(period.time)
            losses[index] = period.loss
        }
        return (samples, times, losses)
    }

    /// Sample indexes where a click starts: the first sample over half scale, 50 ms hold-off.
    static func onsets(_ samples: [Float], channels: Int = 1, rate: Int) -> [Int] {
        var onsets: [Int] = []
        var index = 0
        while index * channels < samples.count {
            if abs(samples[index * channels]) > 0.5 {
                onsets.append(index)
                index += rate / 20
            } else {
                index += 1
            }
        }
        return onsets
    }

    @Test func sameSeedRateChannelsAndDriftGiveTheSameSamples() throws {
        let first = try Self.read(Self.microphone(channels: 2, drift: 250), periods: 120)
        let second = try Self.read(Self.microphone(channels: 2, drift: 250), periods: 120)
        #expect(first.samples == second.samples)
        #expect(first.times == second.times)
        let otherSeed = try Self.read(Self.microphone("synthetic:seed=8", channels: 2, drift: 250), periods: 120)
        #expect(otherSeed.samples != first.samples)
    }

    @Test func formatPeriodsAndChannels() throws {
        let microphone = try Self.microphone(rate: nil, channels: nil)
        #expect(microphone.format == AudioFormat(sampleRate: 48_000, channels: 1, sampleFormat: .f32))
        #expect(microphone.periodFrames == 480)
        #expect(microphone.clock == .captureClock)
        #expect(!microphone.isLive)
        #expect(microphone.name == "synthetic seed=7")
        #expect(try Self.microphone("synthetic:seed=3", rate: 44_100).periodFrames == 441)

        let stereo = try Self.read(Self.microphone(channels: 2), periods: 50).samples
        #expect(stride(from: 0, to: stereo.count, by: 2).allSatisfy { stereo[$0] == stereo[$0 + 1] })
    }

    @Test func theVoiceStaysUnderMinus12dBFSOutsideClicks() throws {
        let rate = 16_000
        // 2.5 s from 0.05 s on: after the click at 0, before the one at 1 s is excluded below.
        let samples = try Self.read(Self.microphone(rate: rate), periods: 250).samples
        let clickLength = SyntheticVoice.clickLength(rate: Double(rate))
        var voicePeak: Float = 0
        for (index, value) in samples.enumerated() where !(0...2).contains(where: { (($0 * rate)..<($0 * rate + clickLength)).contains(index) }) {
            voicePeak = max(voicePeak, abs(value))
        }
        #expect(voicePeak <= 0.25)
        #expect(voicePeak > 0.08, "the voice is heard")
    }

    @Test(arguments: [0.0, 300.0, -1000.0])
    func clicksStartOnTheDeviceSampleOfEachClap(drift: Double) throws {
        let rate = 16_000
        let camera = try Self.camera()
        let microphone = try Self.microphone(drift: drift, camera: camera)
        #expect(camera.apply(.clap, at: 1.5) == .applied)
        let samples = try Self.read(microphone, periods: 330).samples
        let deviceRate = Double(rate) * (1 + drift * 1e-6)
        let expected = [0, 1, 1.5, 2, 3].map { Int(($0 * deviceRate).rounded()) }.filter { $0 < samples.count }
        #expect(Self.onsets(samples, rate: rate) == expected)
        // The onset sample is the click's loudest: −1 dBFS.
        #expect(abs(samples[expected[1]] - 0.891) < 1e-6)
    }

    @Test func atAnNTSCRateTheClickFollowsTheFlashFrameNotTheWholeSecond() throws {
        let camera = try SyntheticCamera(specification: "synthetic",
                                         request: CaptureRequest(frameRate: Rational(30_000, 1001), size: (32, 18)))
        let samples = try Self.read(Self.microphone(camera: camera), periods: 220).samples
        // Frames 30 and 60 are at 1.001 s and 2.002 s.
        #expect(Self.onsets(samples, rate: 16_000) == [0, 16_016, 32_032])
    }

    @Test func periodTimesAreTheFirstSamplesSceneTimeWithinTheJitter() throws {
        let microphone = try Self.microphone(rate: 48_000, drift: 500)
        let times = try Self.read(microphone, periods: 300).times
        let deviceRate = 48_000 * (1 + 500e-6)
        var deviations: [Double] = []
        for (index, time) in times.enumerated() {
            deviations.append(time - Double(index * 480) / deviceRate)
        }
        #expect(deviations.allSatisfy { abs($0) <= 0.000_3 })
        #expect(Set(deviations).count > 250, "each period wobbles on its own")
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
    }

    @Test func aGapLosesExactlyItsLengthAtTheNextPeriodBoundary() throws {
        let rate = 16_000
        let camera = try Self.camera()
        let microphone = try Self.microphone(rate: rate, camera: camera)
        #expect(camera.apply(.audioGap(seconds: 0.2), at: 1.004) == .applied)
        #expect(camera.apply(.clap, at: 1.1) == .applied) // during the gap: never heard
        let (samples, times, losses) = try Self.read(microphone, periods: 300)
        // Periods start every 10 ms; the first at or after 1.004 s is period 101 (1.01 s), now 0.2 s later.
        #expect(abs(times[100] - 1.0) <= 0.000_3)
        #expect(abs(times[101] - 1.21) <= 0.000_3)
        // Reported as a device reports an overrun: by the period after it, and by no other.
        #expect(losses == [101: .restart])
        #expect(abs(times[299] - (2.99 + 0.2)) <= 0.000_3)
        // Whole seconds 0, 1 (before the gap), 2 and 3 (0.2 s of samples earlier than without it).
        let expected = [0, 16_000, 1.8 * 16_000, 2.8 * 16_000].map { Int($0.rounded()) }
        #expect(Self.onsets(samples, rate: rate) == expected)
    }

    @Test func stopEndsABlockedRealtimeRead() throws {
        let camera = try Self.camera()
        let microphone = try SyntheticMicrophone(specification: "synthetic",
                                                 request: AudioRequest(sampleRate: 8_000, realtime: true), camera: camera)
        #expect(microphone.isLive)
        microphone.start()
        #expect(try microphone.read() != nil)
        // A 30 s stall: the next read would block that long unless stop() ends it.
        _ = camera.apply(.audioGap(seconds: 30), at: 0)
        let started = Date()
        let stopper = Thread { microphone.stop() }
        stopper.start()
        #expect(try microphone.read() == nil)
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(microphone.endReason == nil)
    }

    @Test func aLiveMicrophoneStartedAfterTheCameraHearsFromThatSceneTimeOn() throws {
        let camera = try SyntheticCamera(specification: "synthetic",
                                         request: CaptureRequest(frameRate: Rational(30, 1), size: (32, 18), realtime: true))
        let microphone = try SyntheticMicrophone(specification: "synthetic",
                                                 request: AudioRequest(sampleRate: 8_000, realtime: true), camera: camera)
        camera.start()
        let frame = try Frame.picture(width: 32, height: 18)
        // Frame 6 is released 0.2 s after the camera started: the scene is at least that far on.
        for _ in 0...6 { _ = try camera.nextFrame(into: frame) }
        microphone.start()
        defer { microphone.stop() }
        let first = try #require(try microphone.read())
        let second = try #require(try microphone.read())
        #expect(first.time >= 0.2 - 0.000_3)
        #expect(first.time < 10)
        #expect(abs(second.time - first.time - 0.01) <= 0.000_6)
    }

    @Test func refusesAnotherCameraAndBadOptions() throws {
        do {
            _ = try SyntheticMicrophone(specification: "synthetic", request: AudioRequest(), camera: NotSynthetic())
            Issue.record("a V4L2 camera was accepted")
        } catch let error as VRenderError {
            #expect(error.subject == "synthetic")
            #expect(error.reason.contains("the synthetic microphone belongs to the synthetic camera"))
        }
        let bad: [(String, AudioRequest, String)] = [
            ("synthetic:seed=x", AudioRequest(), "synthetic:seed=x"),
            ("synthetic", AudioRequest(sampleRate: 7_999), "--audio-rate"),
            ("synthetic", AudioRequest(channels: 9), "--audio-channels"),
            ("synthetic", AudioRequest(driftPPM: 1001), "--audio-drift"),
            ("synthetic", AudioRequest(driftPPM: .nan), "--audio-drift"),
        ]
        for (specification, request, subject) in bad {
            do {
                _ = try SyntheticMicrophone(specification: specification, request: request, camera: Self.camera())
                Issue.record("\(specification) \(request) was accepted")
            } catch let error as VRenderError {
                #expect(error.subject == subject)
            }
        }
    }
}

/// A camera that is not the synthetic one.
private final class NotSynthetic: CaptureSource {
    let name = "vivid: /dev/video0"
    let format = NegotiatedFormat(pixelFormat: .yuyv, width: 64, height: 48, frameRate: Rational(30, 1), reason: "")
    let isLive = true
    let state = CameraState(position: .back, lens: 1, zoom: 1, torch: 0)
    let initialOutcomes: [InitialControlOutcome] = []
    let monotonicOrigin: Double? = nil
    func start() throws {}
    func nextFrame(into destination: Frame) throws -> CapturedFrameInfo? { nil }
    func stop() {}
    func apply(_ control: CameraControl, at time: Double) -> ControlOutcome { .applied }
}
