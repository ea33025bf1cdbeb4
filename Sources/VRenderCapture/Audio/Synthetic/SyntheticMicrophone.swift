import VRenderCore

/// The synthetic microphone (`--audio synthetic[:seed=N]`): the synthetic camera's sound, for
/// demos and CI without hardware. It hears a voice-like signal and the camera's clapper: a click
/// (−1 dBFS, 3 ms) starting exactly at the device sample of each clap instant, which is the time
/// of the camera's flash frame, so sync can be measured from a recorded file.
///
/// Its sample clock runs at rate·(1 + ppm·10⁻⁶) samples per scene second (`driftPPM`), like a
/// cheap microphone's crystal, and `audio-gap` actions make it lose spans like a stalled device:
/// the sample of scene time t is round((t − t₀ − gaps before t) · rate · (1 + ppm·10⁻⁶)), t₀ being 0
/// unless a live microphone starts after the live camera (then its scene time then). A gap takes
/// effect at the first period boundary at or after its start and lasts exactly its length.
/// Periods are 10 ms; each is stamped with the scene time of its first sample plus a ±0.3 ms
/// jitter from the seed, as real device timestamps wobble. Same seed, rate, channels and drift
/// give the same samples (the clapper's actions aside, which arrive when the script says).
///
/// Threading: `read()` belongs to the audio thread; `stop()` may come from any thread and ends a
/// read that is waiting for its deadline within one period.
// @unchecked Sendable: period state belongs to the audio thread (as above); `stopped` is behind `lock`.
package final class SyntheticMicrophone: AudioSource, @unchecked Sendable {
    package static let defaultRate = 48_000
    package static let defaultChannels = 1
    /// The range for a cheap crystal, and a bound that keeps the arithmetic sane.
    package static let driftLimit = 1000.0
    static let jitterSeconds = 0.000_3

    package let name: String
    package let format: AudioFormat
    package let isLive: Bool
    package let clock = AudioClockDomain.captureClock
    package var endReason: String? { nil }
    package let seed: UInt64
    package let driftPPM: Double
    /// Frames per period: 10 ms at the nominal rate.
    package let periodFrames: Int

    private let clapper: Clapper
    private let voice: SyntheticVoice
    /// Device samples per scene second.
    private let deviceRate: Double
    private let buffer: UnsafeMutableBufferPointer<Float>
    private let lock = ConditionLock()
    private var stopped = false
    private var pacer: RealtimePacer?
    private var syllableCache: (slot: Int, syllable: SyntheticVoice.Syllable?)?
    private var deviceClock = DeviceClock()
    /// Reads the prompter's script instead of the voice-like signal (`attach`).
    private var presenter: SyntheticPresenter?

    /// True for `synthetic` and `synthetic:…` (the initializer says what is wrong with the rest).
    package static func isSynthetic(_ device: String) -> Bool { SyntheticCamera.isSynthetic(device) }

    /// - Parameters:
    ///   - specification: `synthetic` or `synthetic:seed=N` (default: the camera's seed).
    ///   - request: rate (default 48 kHz), channels (default 1; more carry the same signal),
    ///     drift (±1000 ppm), realtime (pace to the wall clock, as the camera does).
    ///   - camera: must be the synthetic camera; the microphone attaches to its clapper.
    /// - Throws: `VRenderError.input(specification, …)` for another camera or a bad seed;
    ///   `VRenderError.option` naming `--audio-rate`, `--audio-channels` or `--audio-drift`.
    package init(specification: String, request: AudioRequest, camera: CaptureSource) throws {
        guard let synthetic = camera as? SyntheticCamera else {
            throw VRenderError.input(specification, "the synthetic microphone belongs to the synthetic camera "
                                     + "(\(camera.name) is not one); use --device synthetic or another --audio")
        }
        seed = try SyntheticCamera.parseSeed(specification, default: synthetic.seed, of: "synthetic microphone")
        let rate = request.sampleRate ?? Self.defaultRate
        guard AudioFormat.sampleRates.contains(rate) else {
            throw VRenderError.option("--audio-rate", "the synthetic microphone records 8000 to 192000 Hz, not \(rate)")
        }
        let channels = request.channels ?? Self.defaultChannels
        guard AudioFormat.channelCounts.contains(channels) else {
            throw VRenderError.option("--audio-channels", "the synthetic microphone records 1 to 8 channels, not \(channels)")
        }
        guard request.driftPPM.isFinite, abs(request.driftPPM) <= Self.driftLimit else {
            throw VRenderError.option("--audio-drift", "a drift runs from -1000 to 1000 ppm, not \(request.driftPPM)")
        }
        driftPPM = request.driftPPM
        format = AudioFormat(sampleRate: rate, channels: channels, sampleFormat: .f32)
        name = "synthetic seed=\(seed)"
        isLive = request.realtime
        periodFrames = rate / 100
        deviceRate = Double(rate) * (1 + driftPPM * 1e-6)
        voice = SyntheticVoice(seed: seed)
        clapper = synthetic.attachClapper()
        buffer = .allocate(capacity: periodFrames * channels)
        buffer.initialize(repeating: 0)
    }

    deinit {
        buffer.deallocate()
    }

    /// Live: paced from the camera's scene origin when the camera already runs, the device's
    /// first sample then being the scene time of this call (a microphone opened late hears from
    /// now on, not from scene time 0); else from now, scene time 0.
    package func start() {
        lock.withLock { stopped = false }
        startPacing()
    }

    private func startPacing() {
        guard isLive, pacer == nil else { return }
        guard let origin = clapper.sceneOrigin else {
            pacer = RealtimePacer(firstFrame: 0, frameRate: Rational(1, 1))
            return
        }
        let pacer = RealtimePacer(firstFrame: 0, frameRate: Rational(1, 1), startNanoseconds: origin)
        self.pacer = pacer
        if deviceClock.delivered == 0 { deviceClock.shift = Swift.max(0, pacer.elapsedSeconds) }
    }

    package func stop() {
        lock.withLock { stopped = true }
    }

    /// From now on the microphone hears `presenter` reading the prompter's script (silence
    /// between its lines and outside takes) instead of the voice-like signal; the clapper's
    /// clicks stay. Call before `start()`.
    package func attach(_ presenter: SyntheticPresenter) {
        lock.withLock { self.presenter = presenter }
    }

    private var isStopped: Bool { lock.withLock { stopped } }

    /// The next 10 ms. Live: released when its last sample's scene time has passed on the wall
    /// clock since `start()`. Batch: at once (the recorder's audio thread keeps it beside the video).
    package func read() throws -> AudioPeriod? {
        if isStopped { return nil }
        // Not start(): that would clear a stop() that came in meanwhile.
        startPacing()
        let gapsBefore = deviceClock.gapsConsumed
        deviceClock.consume(clapper.allGaps, rate: deviceRate)
        // A stall is reported as a real device reports an overrun: its length is in the stamps.
        let loss: AudioLoss? = deviceClock.gapsConsumed > gapsBefore && deviceClock.delivered > 0 ? .restart : nil
        let periodStart = deviceClock.sceneTime(ofSample: deviceClock.delivered, rate: deviceRate)
        if isLive {
            guard waitUntil(periodStart + Double(periodFrames) / deviceRate) else { return nil }
        }
        render()
        let time = periodStart + jitter(period: deviceClock.periods)
        deviceClock.delivered += periodFrames
        deviceClock.periods += 1
        let bytes = UnsafeRawBufferPointer(buffer)
        return AudioPeriod(samples: bytes, frames: periodFrames, time: time, loss: loss)
    }

    /// Sleeps until scene time `deadline` in slices of at most a period, so `stop()` is heard;
    /// false when it was.
    private func waitUntil(_ deadline: Double) -> Bool {
        guard let pacer else { return !isStopped }
        let slice = Double(periodFrames) / deviceRate
        while pacer.elapsedSeconds < deadline {
            if isStopped { return false }
            pacer.wait(untilSeconds: Swift.min(deadline, pacer.elapsedSeconds + slice))
        }
        return !isStopped
    }

    /// Fills the buffer with this period's voice and any click that sounds in it.
    private func render() {
        let first = deviceClock.delivered
        let channels = format.channels
        var mono = [Double](repeating: 0, count: periodFrames)
        if let presenter = lock.withLock({ presenter }) {
            presenter.render(at: (0..<periodFrames).map { deviceClock.sceneTime(ofSample: first + $0, rate: deviceRate) },
                             into: &mono)
        } else {
            for index in 0..<periodFrames {
                mono[index] = voice.voice(at: deviceClock.sceneTime(ofSample: first + index, rate: deviceRate), cache: &syllableCache)
            }
        }
        let rate = Double(format.sampleRate)
        let clicks = Self.clicks(in: first..<first + periodFrames, clock: deviceClock, deviceRate: deviceRate,
                                 clickLength: SyntheticVoice.clickLength(rate: rate), claps: clapper.claps(from:to:))
        for click in clicks {
            for sample in click.samples {
                // The clapper drowns the voice: replacing it keeps the sum under full scale.
                mono[sample - first] = SyntheticVoice.click(sample: sample - click.onset, rate: rate)
            }
        }
        for index in 0..<periodFrames {
            let value = Float(mono[index])
            for channel in 0..<channels { buffer[index * channels + channel] = value }
        }
    }

    /// The clicks heard in the device samples `period`: each clap's onset sample and the samples
    /// of `period` its click covers (`clickLength` samples from the onset), never empty.
    ///
    /// `claps(from, to)` gives the clap instants of a scene-time window a little wider than the
    /// period, as candidates; what decides is the onset, the sample an instant rounds to, and a
    /// click is heard in a period only where its samples overlap the period's. An instant near
    /// the window's end can round to past the period (drift puts them between samples: at 48 kHz
    /// and 5 ppm the clap at 3 s is at sample 144000.72, onset 144001, the second sample of the
    /// next period); the period that holds the onset plays it. `--audio-drift 5` trapped on the
    /// inverted range that such an onset made before the overlap was taken as an intersection.
    static func clicks(in period: Range<Int>, clock: DeviceClock, deviceRate: Double, clickLength: Int,
                       claps: (_ from: Double, _ to: Double) -> [Double]) -> [(onset: Int, samples: Range<Int>)] {
        let from = clock.sceneTime(ofSample: period.lowerBound - clickLength, rate: deviceRate)
        let to = clock.sceneTime(ofSample: period.upperBound + 1, rate: deviceRate)
        return claps(from, to).compactMap { instant in
            let onset = clock.sample(atSceneTime: instant, rate: deviceRate)
            // A clap during a gap (or before the device started) was never heard.
            guard onset >= clock.segmentStart else { return nil }
            let heard = period.clamped(to: onset..<onset + clickLength)
            return heard.isEmpty ? nil : (onset, heard)
        }
    }

    /// ±0.3 ms from the seed and the period's index, as real timestamps wobble.
    private func jitter(period: Int) -> Double {
        var hash = SyntheticVoice.Hash(seed: seed ^ 0x6A09_E667_F3BC_C908, index: period)
        return (hash.unit() * 2 - 1) * Self.jitterSeconds
    }
}

/// The microphone's sample clock against the scene: samples delivered so far and the scene
/// seconds the gaps have shifted them by.
struct DeviceClock: Sendable, Equatable {
    var delivered = 0
    var periods = 0
    /// Scene seconds lost to gaps so far, plus the scene time the device started at.
    var shift = 0.0
    /// The first sample after the last gap: clicks before it happened while the device was deaf.
    var segmentStart = 0
    var gapsConsumed = 0

    func sceneTime(ofSample index: Int, rate: Double) -> Double { Double(index) / rate + shift }

    func sample(atSceneTime time: Double, rate: Double) -> Int { Int(((time - shift) * rate).rounded()) }

    /// Takes in the gaps that started by the next period's start: each moves every later sample
    /// `length` seconds on, so the next period's time is that much later than its count implies.
    mutating func consume(_ gaps: [Clapper.Gap], rate: Double) {
        while gapsConsumed < gaps.count, gaps[gapsConsumed].start <= sceneTime(ofSample: delivered, rate: rate) {
            shift += gaps[gapsConsumed].length
            segmentStart = delivered
            gapsConsumed += 1
        }
    }
}
