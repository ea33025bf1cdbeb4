import VRenderCore

/// What a sound device records: rate, channels, sample layout (interleaved).
public struct AudioFormat: Sendable, Equatable, Codable, CustomStringConvertible {
    public var sampleRate: Int
    public var channels: Int
    public var sampleFormat: AudioSampleFormat

    public init(sampleRate: Int, channels: Int, sampleFormat: AudioSampleFormat) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.sampleFormat = sampleFormat
    }

    /// Bytes of one sample frame (every channel of one instant).
    public var bytesPerFrame: Int { channels * sampleFormat.bytesPerSample }

    /// Rates and channel counts vrender converts from (the 8–192 kHz, 1–8 channels).
    public static let sampleRates = 8_000...192_000
    public static let channelCounts = 1...8

    public var description: String { "\(sampleFormat.rawValue) \(sampleRate) Hz \(channels) ch" }
}

/// Which clock an `AudioPeriod`'s time is on.
public enum AudioClockDomain: Sendable, Equatable {
    /// CLOCK_MONOTONIC seconds (ALSA's htimestamp, PulseAudio's latency against the monotonic
    /// clock): converted to capture time with the camera's `monotonicOrigin`.
    case monotonic
    /// Already capture time (seconds since the camera's frame 0): the synthetic microphone,
    /// which lives on the synthetic camera's scene clock.
    case captureClock
}

/// Sound a device says it lost just before a period. Only a device's own report is a loss: a
/// period read late (the reading thread starved on a busy machine) is not, whatever its stamp.
public enum AudioLoss: Sendable, Equatable {
    /// Exactly this many frames at the device's rate (a PulseAudio hole).
    case frames(Int)
    /// The device stopped and started again (an ALSA overrun, a stalled synthetic microphone):
    /// what it lost is the time its own clock shows between the end of the last period and the
    /// first sample of this one.
    case restart
}

/// One period of samples as a device delivered it. `samples` is borrowed: valid until the
/// source's next `read()` or `stop()`.
public struct AudioPeriod {
    /// Interleaved samples in the source's `format`: `frames × format.bytesPerFrame` bytes.
    public var samples: UnsafeRawBufferPointer
    public var frames: Int
    /// When the first sample of the period was captured, on the source's `clock` (seconds):
    /// from the device's own timestamps, never the time the read returned.
    public var time: Double
    /// What the device reports lost just before this period (nil: nothing; the samples follow
    /// the last period's without a break).
    public var loss: AudioLoss?

    public init(samples: UnsafeRawBufferPointer, frames: Int, time: Double, loss: AudioLoss? = nil) {
        self.samples = samples
        self.frames = frames
        self.time = time
        self.loss = loss
    }
}

/// What the user asked of the microphone (`--audio-rate`, `--audio-channels`, `--audio-drift`).
public struct AudioRequest: Sendable, Equatable {
    /// Preferred sample rate (nil: the device's default, 48 kHz where it has none).
    public var sampleRate: Int?
    /// Preferred channel count (nil: the device's default, stereo where it has none).
    public var channels: Int?
    /// The synthetic microphone only: its sample clock runs this many parts per million fast
    /// (negative: slow) against the camera's clock, as a cheap USB microphone's crystal does.
    public var driftPPM: Double
    /// Pace the synthetic microphone to the wall clock (it follows the camera's `isLive`).
    public var realtime: Bool

    public init(sampleRate: Int? = nil, channels: Int? = nil, driftPPM: Double = 0, realtime: Bool = false) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.driftPPM = driftPPM
        self.realtime = realtime
    }
}

/// A microphone: ALSA, PulseAudio or the synthetic one. Confined to the audio thread once
/// started (`read()` blocks); `stop()` may be called from another thread to end a blocked read.
///
/// Life cycle: opened in the backend's initializer (errors name the device: unknown, busy,
/// unsupported format) → `start()` → `read()` repeatedly → `stop()`. `read()` returns nil when
/// the source ends: the device went away (unplugged, the server quit) or `stop()` was called;
/// `endReason` then says which, in words, for the take's notice.
public protocol AudioSource: AnyObject {
    /// Human-readable name for messages and takes.json ("alsa:hw:1,0", "pulse:default",
    /// "synthetic seed=1").
    var name: String { get }
    var format: AudioFormat { get }
    /// True when periods arrive on the device's own clock (ALSA, PulseAudio, the synthetic
    /// microphone paced to real time): the recorder never waits for such a source to catch up.
    var isLive: Bool { get }
    var clock: AudioClockDomain { get }
    /// How far the device's period timestamps wander from the truth, in seconds: timing errors
    /// within it are taken for that wander and left alone, larger ones are worked off slowly
    /// (never cut or filled: only an `AudioLoss` the device reports becomes silence).
    /// Defaults to 2.5 ms (ALSA's and the synthetic microphone's stamps jitter by a fraction of that).
    var timestampWander: Double { get }
    /// Why `read()` returned nil ("the device went away: …"); nil while it has not, or when it
    /// was stopped.
    var endReason: String? { get }
    /// The device a name that follows a default stands for (`pulse:default` → the PulseAudio
    /// source the server connected it to), for telling the user; nil when `name` says it.
    var connectedDevice: String? { get }

    func start() throws
    /// The next period, blocking until the device delivers one; nil when the source ended.
    func read() throws -> AudioPeriod?
    func stop()
}

/// The stamp wander of a device that says nothing of its own (`AudioSource.timestampWander`):
/// 2.5 ms, a few times what ALSA's and the synthetic microphone's stamps jitter by.
public let standardTimestampWander = 0.0025

extension AudioSource {
    public var timestampWander: Double { standardTimestampWander }
    public var connectedDevice: String? { nil }
}
