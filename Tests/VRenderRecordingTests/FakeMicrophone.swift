import VRenderCapture
import VRenderCore

/// A microphone for recorder tests, on the scene clock: 48 kHz mono float, 10 ms periods, quiet
/// except a full-scale 2 ms click at every whole second of the scene clock. Its sample clock
/// runs `driftPPM` fast, its timestamps jitter by up to `jitter` seconds (a fixed pattern), and
/// it loses `gap.length` seconds of sound at scene time `gap.at` (reported as a restart, as ALSA
/// reports an overrun). With `lateReadings`, every `every`-th period's stamp comes `by` seconds
/// late, as a reading thread starved on a busy machine stamps them. With `wander`, its stamps also
/// run late by up to `wander.amplitude` and back again every `wander.period` seconds (a
/// triangle, as PulseAudio's drift away and back), and it says so in `timestampWander`.
/// Not live: it delivers at once.
final class FakeMicrophone: AudioSource {
    let name = "fake microphone"
    let format: AudioFormat
    let isLive = false
    let clock = AudioClockDomain.captureClock
    private(set) var endReason: String?
    private let driftPPM: Double
    private let jitter: Double
    private let gap: (at: Double, length: Double)?
    private let wander: (amplitude: Double, period: Double)?
    private let lateReadings: (every: Int, by: Double)?
    let timestampWander: Double
    /// The period ending the source ("the device went away"), if any.
    private let lastPeriod: Int?
    private var period = 0
    private var deviceSample = 0
    /// One period, in `format` (interleaved, every channel the same).
    private let buffer: UnsafeMutableRawBufferPointer
    /// Frames per period: 10 ms.
    private var periodFrames: Int { format.sampleRate / 100 }

    init(driftPPM: Double = 0, jitter: Double = 0, gap: (at: Double, length: Double)? = nil,
         wander: (amplitude: Double, period: Double)? = nil, lateReadings: (every: Int, by: Double)? = nil,
         reportedWander: Double = standardTimestampWander, lastPeriod: Int? = nil,
         format: AudioFormat = AudioFormat(sampleRate: 48_000, channels: 1, sampleFormat: .f32)) {
        self.format = format
        buffer = .allocate(byteCount: format.sampleRate / 100 * format.bytesPerFrame, alignment: 8)
        self.driftPPM = driftPPM
        self.jitter = jitter
        self.gap = gap
        self.wander = wander
        self.lateReadings = lateReadings
        timestampWander = reportedWander
        self.lastPeriod = lastPeriod
    }

    /// The device's true sample rate against the scene clock.
    private var trueRate: Double { Double(format.sampleRate) * (1 + driftPPM * 1e-6) }

    /// Scene time of device sample `index` (after the gap, shifted by its length).
    private func time(ofSample index: Int) -> Double {
        let plain = Double(index) / trueRate
        guard let gap, plain >= gap.at else { return plain }
        return plain + gap.length
    }

    deinit { buffer.deallocate() }

    func start() throws {}
    func stop() {}

    func read() throws -> AudioPeriod? {
        if let lastPeriod, period > lastPeriod {
            endReason = "fake microphone: the device went away"
            return nil
        }
        let first = time(ofSample: deviceSample)
        // The first period after the gap reports it, as a device that restarted does.
        let afterGap = gap.map { deviceSample > 0 && first - time(ofSample: deviceSample - 1) > $0.length / 2 } ?? false
        let loss: AudioLoss? = afterGap ? .restart : nil
        for offset in 0..<periodFrames {
            let scene = time(ofSample: deviceSample + offset)
            let level: Float = scene - scene.rounded(.down) < 0.002 ? 0.8 : 0
            for channel in 0..<format.channels { store(level, at: offset * format.channels + channel) }
        }
        deviceSample += periodFrames
        // A fixed jitter pattern: +j, −j, 0, …
        var wobble = [jitter, -jitter, 0][period % 3]
        if let wander {
            let phase = first / wander.period
            wobble += wander.amplitude * 2 * abs(phase - (phase + 0.5).rounded(.down))
        }
        if let lateReadings, period % lateReadings.every == lateReadings.every - 1 { wobble += lateReadings.by }
        period += 1
        return AudioPeriod(samples: UnsafeRawBufferPointer(buffer), frames: periodFrames, time: first + wobble, loss: loss)
    }

    private func store(_ level: Float, at index: Int) {
        switch format.sampleFormat {
        case .f32: buffer.storeBytes(of: level, toByteOffset: index * 4, as: Float.self)
        case .s16: buffer.storeBytes(of: Int16(level * 32767), toByteOffset: index * 2, as: Int16.self)
        case .s32: buffer.storeBytes(of: Int32(Double(level) * 2_147_483_647), toByteOffset: index * 4, as: Int32.self)
        }
    }
}
