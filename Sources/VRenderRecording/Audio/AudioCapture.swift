import Foundation
import Synchronization
import VRenderCapture
import VRenderCore
import VRenderMedia

/// The audio thread: reads the microphone's periods, puts each on the capture clock (the
/// camera's origin for a device stamping on the monotonic clock), follows the device's clock
/// (`AudioClock`), and appends the sound to the `AudioTimeline` resampled so that it stays on
/// the capture clock: drift is absorbed by resampling by a tiny ratio, a gap becomes silence of
/// exactly the missing length, and later sound is never shifted.
// @unchecked Sendable: the source and the resampler are used by the audio thread alone; the
// origin is behind a Mutex; `stop()` only calls the source's thread-safe `stop()`.
final class AudioCapture: @unchecked Sendable {
    let source: any AudioSource
    let timeline: AudioTimeline
    /// CLOCK_MONOTONIC seconds of capture time 0, once the camera knows it.
    private let origin = Mutex<Double?>(nil)
    private let events: @Sendable (RecorderEvent) -> Void
    /// Called when the device goes away (not when stopped): the capture ends its take.
    private let deviceLost: @Sendable () -> Void
    private let finished = DispatchSemaphore(value: 0)

    /// Seconds over which a timing error is worked off, and the largest stretch allowed
    /// (5 per mille: inaudible on speech, four times a bad crystal's 1000 ppm). One second for a
    /// device whose stamps wander by the default 2.5 ms: a millisecond the clock's estimate
    /// moves by changes the sound's rate by one per mille, and a drift the clock has not
    /// measured yet lags by its ppm × 1 s (1 ms at 1000 ppm). A device whose stamps wander
    /// further gets proportionally longer (`SoundPlacement.workOffSeconds`), so that following
    /// its wander keeps the rate within about a per mille.
    static let compensationSeconds = 1.0
    static let maximumStretch = 0.005
    /// A timing error beyond this is not resampled away but cut or filled at once.
    static let hardCorrectionSeconds = 0.02

    init(source: any AudioSource, timeline: AudioTimeline, events: @escaping @Sendable (RecorderEvent) -> Void,
         deviceLost: @escaping @Sendable () -> Void) {
        self.source = source
        self.timeline = timeline
        self.events = events
        self.deviceLost = deviceLost
        if source.clock == .captureClock { origin.withLock { $0 = 0 } }
    }

    /// The rate and channel count takes are written with: the device's rate where AAC has it
    /// (else 48 kHz), mono from a mono device, else stereo (more channels are mixed down).
    static func takeFormat(of format: AudioFormat) -> (rate: Int, channels: Int) {
        let aacRates = [96_000, 88_200, 64_000, 48_000, 44_100, 32_000, 24_000, 22_050, 16_000, 12_000, 11_025, 8_000]
        return (aacRates.contains(format.sampleRate) ? format.sampleRate : 48_000, format.channels == 1 ? 1 : 2)
    }

    /// The camera's capture time 0 on the monotonic clock (capture thread, after its first frame).
    func setOrigin(_ seconds: Double?) {
        guard let seconds else { return }
        origin.withLock { if $0 == nil { $0 = seconds } }
    }

    /// Starts the source and the thread.
    func start() throws {
        try source.start()
        Thread { [self] in
            run()
            finished.signal()
        }.start()
    }

    /// Stops the source and waits for the thread.
    func stop() {
        timeline.close()
        source.stop()
        finished.wait()
    }

    private func run() {
        var placement: SoundPlacement
        do {
            placement = try SoundPlacement(source: source.format, timestampWander: source.timestampWander, timeline: timeline)
        } catch {
            end(reason: "\(source.name): \(error)")
            return
        }
        var periodFrames = source.format.sampleRate / 100
        while true {
            if !timeline.live, let next = timeline.endIndex,
               !timeline.waitForCamera(through: next + Int64(periodFrames)) { return }
            let period: AudioPeriod?
            do {
                period = try source.read()
            } catch {
                end(reason: "\(source.name): \(error)")
                return
            }
            guard let period else {
                end(reason: source.endReason)
                return
            }
            periodFrames = period.frames
            guard let start = origin.withLock({ $0 }) else { continue }   // before the camera's first frame
            do {
                try placement.place(period, at: period.time - start)
            } catch {
                end(reason: "\(source.name): \(error)")
                return
            }
        }
    }

    private func end(reason: String?) {
        timeline.sourceEnded()
        guard let reason else { return }
        events(.notice("\(reason); the take was ended with the sound recorded so far"))
        deviceLost()
    }
}

/// Places each period of a device's sound on the timeline (the audio thread's arithmetic):
/// clock, resampler, and where the next output sample lands.
struct SoundPlacement {
    private var clock: AudioClock
    private let resampler: DriftResampler
    private let timeline: AudioTimeline
    /// The timeline index the next output sample goes to (nil before the first period).
    private var next: Int64?
    /// Output samples still to be thrown away (the device's timestamps jumped back).
    private var toDrop = 0

    /// The device's format, for reading its samples' level.
    private let format: AudioFormat
    /// Timing errors within this are left alone: the device's stamps wander by that much
    /// (`AudioSource.timestampWander`), and following them would change the sound's rate for nothing.
    private let tolerance: Double
    /// Seconds over which an error beyond `tolerance` is worked off.
    private let workOffSeconds: Double

    init(source: AudioFormat, timestampWander: Double, timeline: AudioTimeline) throws {
        format = source
        tolerance = timestampWander
        workOffSeconds = AudioCapture.compensationSeconds * Swift.max(1, timestampWander / standardTimestampWander)
        clock = AudioClock(nominalRate: source.sampleRate, timestampWander: timestampWander)
        resampler = try DriftResampler(inputRate: source.sampleRate, inputChannels: source.channels,
                                       inputFormat: source.sampleFormat, outputRate: timeline.rate,
                                       outputChannels: timeline.channels)
        self.timeline = timeline
    }

    /// True when a sample of the period is at full scale: what the device clips to.
    static func reachesFullScale(_ period: AudioPeriod, format: AudioFormat) -> Bool {
        let count = period.frames * format.channels
        let bytes = period.samples
        // Loaded, not bound: the period's memory belongs to the device's code.
        switch format.sampleFormat {
        case .s16:
            return (0..<count).contains { bytes.loadUnaligned(fromByteOffset: $0 * 2, as: Int16.self).magnitude >= Int16.max.magnitude }
        case .s32:
            return (0..<count).contains { bytes.loadUnaligned(fromByteOffset: $0 * 4, as: Int32.self).magnitude >= Int32.max.magnitude }
        case .f32:
            return (0..<count).contains { abs(bytes.loadUnaligned(fromByteOffset: $0 * 4, as: Float.self)) >= 1 }
        }
    }

    /// Places one period whose first sample was captured at capture time `time` (as stamped).
    mutating func place(_ period: AudioPeriod, at time: Double) throws {
        let reading = clock.period(frames: period.frames, time: time)
        timeline.setDrift(clock.driftPPM)
        let rate = Double(timeline.rate)
        let wanted = reading.time * rate
        if next == nil { next = Int64(wanted.rounded()) }
        // Where this period's first sample would land: after what is appended and what the
        // resampler's filter still holds.
        let error = wanted - (Double(next!) + resampler.delay)
        if reading.gap > 0 || error > AudioCapture.hardCorrectionSeconds * rate {
            let silence = Int(error.rounded())
            timeline.append(nil, frames: silence, start: next!, lost: reading.gap > 0)
            next! += Int64(Swift.max(0, silence))
        } else if error < -AudioCapture.hardCorrectionSeconds * rate {
            toDrop += Int((-error).rounded())
        } else {
            // The drift measured, removed up front (without it a steady drift would leave a
            // steady error behind), plus the error beyond jitter, worked off over `distance`.
            let distance = Int(workOffSeconds * rate)
            let limit = Double(distance) * AudioCapture.maximumStretch
            let beyond = Swift.max(0, abs(error) - tolerance * rate)
            let samples = (error < 0 ? -beyond : beyond) - clock.driftPPM * 1e-6 * Double(distance)
            try resampler.compensate(samples: Int(Swift.min(limit, Swift.max(-limit, samples)).rounded()), over: distance)
        }
        let output = try resampler.convert(period.samples, frames: period.frames)
        var frames = output.count / timeline.channels
        var samples = output
        if toDrop > 0 {
            let dropped = Swift.min(toDrop, frames)
            toDrop -= dropped
            frames -= dropped
            samples = UnsafeBufferPointer(rebasing: output[(dropped * timeline.channels)...])
        }
        timeline.append(samples, frames: frames, start: next!, clipped: Self.reachesFullScale(period, format: format))
        next! += Int64(frames)
    }
}
