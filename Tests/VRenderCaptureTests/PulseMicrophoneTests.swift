import Foundation
import Testing
import VRenderCore
import VRenderTestSupport
@testable import VRenderCapture

/// The PulseAudio microphone's arithmetic and the `--audio` factory, without a server.
@Suite struct PulseMicrophoneUnitTests {
    @Test func firstSampleIsOlderThanTheLatencyByThePeriod() {
        // 480 frames at 48 kHz just read; the sample after them is 25 ms old at t = 100 s.
        let time = PulseMicrophone.firstSampleTime(now: 100, latency: 0.025, frames: 480, sampleRate: 48_000)
        #expect(abs(time - (100 - 0.025 - 0.010)) < 1e-12)
        // A negative latency (the server's estimate ran ahead) moves the time forward, not back.
        let ahead = PulseMicrophone.firstSampleTime(now: 100, latency: -0.002, frames: 441, sampleRate: 44_100)
        #expect(abs(ahead - (100 + 0.002 - 0.010)) < 1e-12)
    }

    @Test func formatDefaultsToStereo48kAndHonoursTheRequest() throws {
        #expect(try PulseMicrophone.format(for: AudioRequest(), device: "pulse:x")
                == AudioFormat(sampleRate: 48_000, channels: 2, sampleFormat: .s16))
        #expect(try PulseMicrophone.format(for: AudioRequest(sampleRate: 44_100, channels: 1), device: "pulse:x")
                == AudioFormat(sampleRate: 44_100, channels: 1, sampleFormat: .s16))
    }

    @Test func unsupportedRateOrChannelsNameTheOptionAndTheDevice() {
        #expect {
            try PulseMicrophone.format(for: AudioRequest(sampleRate: 500), device: "pulse:mic")
        } throws: { error in
            let error = error as? VRenderError
            return error?.subject == "--audio-rate" && error?.reason.contains("pulse:mic") == true
        }
        #expect {
            try PulseMicrophone.format(for: AudioRequest(channels: 9), device: "pulse:mic")
        } throws: { ($0 as? VRenderError)?.subject == "--audio-channels" }
    }

    @Test func noneRecordsNoSoundAndUnknownFormsListTheForms() throws {
        #expect(try AudioDevices.open("none", request: AudioRequest(), cameraDevice: "/dev/video0").source == nil)
        for spec in ["oss:dsp", "pulse:", "default"] {
            #expect {
                try AudioDevices.open(spec, request: AudioRequest(), cameraDevice: "/dev/video0")
            } throws: { error in
                let error = error as? VRenderError
                return error?.subject == "--audio" && error?.reason.contains("pulse:SOURCE") == true
                    && error?.reason.contains(spec) == true
            }
        }
    }

    @Test func autoWithoutAServerRecordsSilenceAndSaysHowToPickOne() throws {
        let scratch = ScratchFolder()
        let choice = try AudioDevices.automatic(request: AudioRequest(), cameraDevice: "/dev/video0",
                                                pulseServer: "unix:\(scratch.path)/native")
        #expect(choice.source == nil && choice.picked == nil)
        let notice = try #require(choice.notices.first)
        #expect(notice.contains("no microphone found") && notice.contains("pulse:default: ")
                && notice.contains("alsa:default: ") && notice.contains("--audio"), "\(notice)")
        // The user's own option is still an error, not a reason to fall back to silence.
        #expect {
            try AudioDevices.automatic(request: AudioRequest(sampleRate: 500), cameraDevice: "/dev/video0",
                                       pulseServer: "unix:\(scratch.path)/native")
        } throws: { ($0 as? VRenderError)?.subject == "--audio-rate" }
    }

    @Test func noServerIsAnErrorNamingTheSource() {
        let scratch = ScratchFolder()
        #expect {
            _ = try PulseMicrophone(source: "default", request: AudioRequest(), server: "unix:\(scratch.path)/native")
        } throws: { error in
            let error = error as? VRenderError
            return error?.subject == "pulse:default" && error?.reason.contains("no PulseAudio server answers") == true
        }
        let listing = PulseSources.list(server: "unix:\(scratch.path)/native")
        #expect(listing.sources.isEmpty)
        #expect(listing.unavailable?.contains("no PulseAudio server answers") == true)
    }
}

/// The PulseAudio microphone against a private server (`PrivatePulseServer`): a null sink whose
/// monitor records what `paplay` plays into it. Serialized: the timing test wants the CPUs.
@Suite(.serialized) struct PulseMicrophoneServerTests {
    static let rate = 48_000

    func server() throws -> PrivatePulseServer {
        try #require(PrivatePulseServer(), "pulseaudio (Debian's pulseaudio package) could not start")
    }

    @Test func listsTheServersSources() throws {
        let pulse = try server()
        let listing = PulseSources.list(server: pulse.server)
        #expect(listing.unavailable == nil)
        let monitor = try #require(listing.sources.first { $0.name == pulse.monitor })
        #expect(monitor.isMonitor)
        #expect(monitor.sampleSpec == "s16le 2ch 48000Hz")
    }

    @Test func autoPicksThePulseDefaultSourceForAV4L2Camera() throws {
        let pulse = try server()
        let choice = try AudioDevices.automatic(request: AudioRequest(), cameraDevice: "/dev/video0",
                                                pulseServer: pulse.server)
        #expect(choice.source?.name == "pulse:default")
        // The name follows the server's default; the pick also says which source that was.
        #expect(choice.picked == MicrophonePick(name: "pulse:default", format: try #require(choice.source).format,
                                                device: pulse.monitor))
        #expect(choice.picked?.summary == "auto → pulse:default (\(pulse.monitor)) 48000 Hz 2 ch")
        #expect(choice.notices.isEmpty)
    }

    @Test func unknownSourceIsAnErrorNamingIt() throws {
        let pulse = try server()
        #expect {
            _ = try PulseMicrophone(source: "no_such_mic", request: AudioRequest(), server: pulse.server)
        } throws: { error in
            let error = error as? VRenderError
            return error?.subject == "pulse:no_such_mic" && error?.reason.contains("no source named") == true
        }
    }

    /// Plays clicks 1 s apart into the sink and reads them back from its monitor: every click
    /// arrives 48000 samples after the last, and the periods' times advance with the samples.
    /// A monitor's times count its sink's latency as capture delay, and the first low-latency
    /// recorder re-times the sink (from paplay's 2 s down to 10 ms, over about 0.6 s), which no
    /// microphone does: a first recorder settles the sink before the one measured opens.
    /// The left channel and each period's (time, first sample), recorded from the monitor.
    ///
    /// `settlerFirst`: the settler connects before paplay, so the sink renders at its low
    /// latency from the start and never up to 2 s ahead of what it has played (a monitor hands
    /// out what its sink rendered). Without it, a recorder sometimes started 2 s late on the
    /// track and heard 2 clicks (every run on one VM, for an hour). The timing measurement
    /// keeps the order its limits were measured with.
    private func recordClicks(settlerFirst: Bool = false) throws -> (left: [Int16], periods: [(time: Double, start: Int)]) {
        let pulse = try server()
        let scratch = ScratchFolder()
        let track = scratch.path + "/claps.wav"
        try ClapTrack.write(to: track, seconds: 5.6, first: 2.0)
        let settler = try PulseMicrophone(source: pulse.monitor, request: AudioRequest(), server: pulse.server)
        if settlerFirst { try settler.start() }
        let player = try pulse.play(track)
        defer { player.terminate() }
        try #require(pulse.waitForPlayback(), "paplay never connected to the sink")
        if !settlerFirst { try settler.start() }
        // Settled first, paplay starts a little after the settler: 1.5 s then puts the measured
        // 3.3 s at about 1.3 s into the track, holding the clicks at 2, 3 and 4 s only.
        let settle = settlerFirst ? Self.rate * 3 / 2 : Self.rate
        var settled = 0
        while settled < settle, let period = try settler.read() { settled += period.frames }
        let microphone = try PulseMicrophone(source: pulse.monitor, request: AudioRequest(), server: pulse.server)
        #expect(microphone.format == AudioFormat(sampleRate: Self.rate, channels: 2, sampleFormat: .s16))
        try microphone.start()
        var left: [Int16] = []
        var periods: [(time: Double, start: Int)] = []
        while left.count < Self.rate * 33 / 10, let period = try microphone.read() {
            periods.append((period.time, left.count))
            let samples = period.samples.bindMemory(to: Int16.self)
            for frame in 0..<period.frames { left.append(samples[2 * frame]) }
        }
        microphone.stop()
        #expect(try microphone.read() == nil)
        #expect(microphone.endReason == nil)
        return (left, periods)
    }

    @Test func recordsEveryClickSampleExactly() throws {
        let onsets = Self.onsets(try recordClicks(settlerFirst: true).left)
        #expect(onsets.count == 3, "clicks at samples \(onsets)")
        for (earlier, later) in zip(onsets, onsets.dropFirst()) {
            #expect(later - earlier == Self.rate, "clicks \(later - earlier) samples apart")
        }
    }

    /// A measurement of the server's times, which a loaded machine moves (11 ms with `swift
    /// test`'s other suites encoding beside it): `make test-audio` runs it alone, in CI too.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["VRENDER_AUDIO_TIMING"] == "1",
                   "a timing measurement: make test-audio runs it with VRENDER_AUDIO_TIMING=1"))
    func periodTimesFollowTheSamples() throws {
        let (left, periods) = try recordClicks()
        // Times follow the sample count: no period's offset (its time less its samples' time)
        // strays 4 ms from the periods' median offset (measured: under 1 ms idle, 2.3 ms on a
        // busy host). The first period is left out: it is read while the server re-times its
        // sink, 8.2-8.6 ms off the line every later period kept in 5 of 5 runs on one VM (and
        // as the reference it failed a CI run at 10.8 ms).
        let offsets = periods.dropFirst().map { $0.time - Double($0.start) / Double(Self.rate) }
        try #require(!offsets.isEmpty)
        let median = offsets.sorted()[offsets.count / 2]
        let worst = offsets.indices.max { abs(offsets[$0] - median) < abs(offsets[$1] - median) } ?? 0
        let stray = abs(offsets[worst] - median)
        #expect(stray < 0.004, "period \(worst + 2) of \(periods.count): its time strays \(stray * 1000) ms from its sample count")
        let onsets = Self.onsets(left)
        try #require(onsets.count == 3, "clicks at samples \(onsets)")
        for (earlier, later) in zip(onsets, onsets.dropFirst()) {
            let spacing = Self.time(of: later, periods) - Self.time(of: earlier, periods)
            #expect(abs(spacing - 1) < 0.002, "clicks \(spacing) s apart by the periods' times")
        }
    }

    @Test func stopEndsABlockedRead() throws {
        let pulse = try server()
        let microphone = try PulseMicrophone(source: pulse.monitor, request: AudioRequest(), server: pulse.server)
        try microphone.start()
        #expect(try microphone.read() != nil)
        // A suspended sink's monitor delivers nothing: the next read blocks until stop().
        #expect(pulse.pactl(["suspend-sink", pulse.sink, "1"]).status == 0)
        let returned = DispatchSemaphore(value: 0)
        let reader = Thread {
            while (try? microphone.read()) != nil {}
            returned.signal()
        }
        reader.start()
        microphone.stop()
        #expect(returned.wait(timeout: .now() + 5) == .success)
        #expect(microphone.endReason == nil)
    }

    @Test func aSourceThatGoesAwayEndsTheReadsAndSaysSo() throws {
        let pulse = try server()
        let microphone = try PulseMicrophone(source: pulse.monitor, request: AudioRequest(), server: pulse.server)
        try microphone.start()
        #expect(try microphone.read() != nil)
        #expect(pulse.pactl(["unload-module", "module-null-sink"]).status == 0)
        while try microphone.read() != nil {}
        #expect(microphone.endReason?.contains("source went away") == true, "\(microphone.endReason ?? "nil")")
    }

    @Test func aServerThatQuitsEndsTheReadsAndSaysSo() throws {
        let pulse = try server()
        let microphone = try PulseMicrophone(source: pulse.monitor, request: AudioRequest(), server: pulse.server)
        try microphone.start()
        #expect(try microphone.read() != nil)
        pulse.stop()
        while try microphone.read() != nil {}
        #expect(microphone.endReason?.contains("server went away") == true, "\(microphone.endReason ?? "nil")")
    }

    /// Sample indices where sound rises above half scale after at least 50 ms of quiet.
    static func onsets(_ samples: [Int16]) -> [Int] {
        var onsets: [Int] = []
        var quiet = rate / 20
        for (index, sample) in samples.enumerated() {
            if abs(Int(sample)) > 16_000 {
                if quiet >= rate / 20 { onsets.append(index) }
                quiet = 0
            } else {
                quiet += 1
            }
        }
        return onsets
    }

    /// The capture time of sample `index`: its period's time plus its place in the period.
    static func time(of index: Int, _ periods: [(time: Double, start: Int)]) -> Double {
        let period = periods.last { $0.start <= index }!
        return period.time + Double(index - period.start) / Double(rate)
    }
}
