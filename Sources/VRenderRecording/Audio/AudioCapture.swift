import Foundation
import Synchronization
import VRenderCapture
import VRenderCore
import VRenderMedia

/// The audio thread: reads the microphone's periods, puts each on the capture clock (the
/// camera's origin for a device stamping on the monotonic clock), follows the device's clock
/// (`AudioClock`), and appends the sound to the `AudioTimeline` resampled so that it stays on
/// the capture clock (`SoundPlacement`): drift is absorbed by resampling by a tiny ratio, a loss
/// the device reports becomes silence of exactly the missing length, and a period read late is
/// placed by its samples, never by when it was read.
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
    private let thread = StageGroup()

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
        thread.start("vrender-audio") { [self] in run() }
    }

    /// Stops the source and waits for the thread.
    func stop() {
        timeline.close()
        source.stop()
        thread.join()
    }

    private func run() {
        var placement: SoundPlacement
        do {
            placement = try SoundPlacement(source: source.format, timestampWander: source.timestampWander,
                                           live: source.isLive, timeline: timeline)
        } catch {
            end(reason: "\(source.name): \(error)")
            return
        }
        var periodFrames = source.format.sampleRate / 100
        let trace = StampTrace.fromEnvironment()
        do {
            while true {
                if !timeline.live, let next = placement.upcomingIndex,
                   !timeline.waitForCamera(through: next + Int64(periodFrames)) { break }
                guard let period = try source.read() else {
                    try placement.flush()
                    end(reason: source.endReason)
                    return
                }
                periodFrames = period.frames
                trace?.record(period)
                // Before the camera's first frame there is no capture clock yet: the period waits
                // in the placement (one read then, late, may hold sound from after that frame).
                try placement.place(period, origin: origin.withLock { $0 })
            }
            try placement.flush()
        } catch {
            end(reason: "\(source.name): \(error)")
        }
    }

    private func end(reason: String?) {
        timeline.sourceEnded()
        guard let reason else { return }
        events(.notice("\(reason); the take was ended with the sound recorded so far"))
        deviceLost()
    }
}

