import VRenderCapture
import VRenderMedia

/// Places each period of a device's sound on the timeline (the audio thread's arithmetic):
/// clock, resampler, and where the next output sample lands.
///
/// The sound is one unbroken stream: each output sample follows the last, and the only silence
/// put in is a loss the device reported, of exactly its length. Where the stream should be is
/// the clock's line (`AudioClock`); the resampler's ratio follows the line's slope — the
/// device's drift, held to ±1000 ppm — and works off a placement error beyond the device's
/// stamp wander at a bounded rate (`maximumCorrectionPPM`), so the sound's rate never moves
/// further than a real crystal's would, whatever a late reading said.
struct SoundPlacement {
    private var clock: AudioClock
    private let resampler: DriftResampler
    private let timeline: AudioTimeline
    /// The timeline index the next output sample goes to (nil until the clock settles).
    private var next: Int64?
    /// The device clock's reading at capture time 0 (the camera's first frame); nil before it.
    private var origin: Double?
    /// Periods read before the camera's first frame (no capture clock yet), and a live device's
    /// before its clock settled, copied: placed together once both are known. (A batch source's
    /// stamps do not depend on when it was read, and the camera waits for its sound: it does not
    /// wait to settle.) Before the camera starts, the last `maximumPendingSeconds` are kept (sound
    /// from before it belongs to no take); after, none is dropped: waiting that long places it.
    private let waitsToSettle: Bool
    private var pending: [(sample: Double, gap: Double, frames: Int, bytes: [UInt8], clipped: Bool)] = []

    /// The device's format, for reading its samples' level.
    private let format: AudioFormat
    /// Timing errors within this are left alone: the device's stamps wander by that much
    /// (`AudioSource.timestampWander`), and following them would change the sound's rate for nothing.
    private let tolerance: Double
    /// Seconds over which an error beyond `tolerance` is worked off.
    private let workOffSeconds: Double
    /// The most the sound's rate may move to work off a placement error, on top of the drift.
    private let maximumCorrection: Double

    /// Seconds over which a timing error is worked off, for a device whose stamps wander by the
    /// default 2.5 ms: a millisecond the clock's estimate moves by changes the sound's rate by
    /// one per mille, and a drift the clock has not measured yet lags by its ppm × 1 s. A device
    /// whose stamps wander further gets proportionally longer, and a proportionally smaller
    /// `maximumCorrectionPPM`, so following its wander keeps the clicks' spacing within 1 ms/s.
    static let compensationSeconds = 1.0
    /// The largest correction for a device with the default wander: a drift not measured yet
    /// (the first `AudioClock.slopeSeconds`) is followed at up to a bad crystal's 1000 ppm.
    static let maximumCorrectionPPM = 1000.0
    /// The floor of that correction for devices whose stamps wander far (PulseAudio's 15 ms).
    static let minimumCorrectionPPM = 200.0
    /// The most sound kept waiting for the camera's first frame or the clock (see `pending`).
    static let maximumPendingSeconds = 2.0

    init(source: AudioFormat, timestampWander: Double, live: Bool, timeline: AudioTimeline) throws {
        format = source
        waitsToSettle = live
        tolerance = timestampWander
        let wanderScale = Swift.max(1, timestampWander / standardTimestampWander)
        workOffSeconds = Self.compensationSeconds * wanderScale
        maximumCorrection = Swift.max(Self.minimumCorrectionPPM, Self.maximumCorrectionPPM / wanderScale) * 1e-6
        clock = AudioClock(nominalRate: source.sampleRate, timestampWander: timestampWander)
        resampler = try DriftResampler(inputRate: source.sampleRate, inputChannels: source.channels,
                                       inputFormat: source.sampleFormat, outputRate: timeline.rate,
                                       outputChannels: timeline.channels)
        self.timeline = timeline
    }

    /// The timeline index the device's next sample belongs at (nil before the first period):
    /// how far a batch source may run ahead of the camera.
    var upcomingIndex: Int64? {
        guard let origin, let time = clock.time(ofSample: clock.nextSample) else { return nil }
        return timeline.index(at: time - origin)
    }

    /// True when a sample of the period is at full scale: what the device clips to.
    static func reachesFullScale(_ samples: UnsafeRawBufferPointer, frames: Int, format: AudioFormat) -> Bool {
        let count = frames * format.channels
        // Loaded, not bound: the period's memory belongs to the device's code.
        switch format.sampleFormat {
        case .s16:
            return (0..<count).contains { samples.loadUnaligned(fromByteOffset: $0 * 2, as: Int16.self).magnitude >= Int16.max.magnitude }
        case .s32:
            return (0..<count).contains { samples.loadUnaligned(fromByteOffset: $0 * 4, as: Int32.self).magnitude >= Int32.max.magnitude }
        case .f32:
            return (0..<count).contains { abs(samples.loadUnaligned(fromByteOffset: $0 * 4, as: Float.self)) >= 1 }
        }
    }

    /// Places one period, stamped on the device's clock; `origin`: that clock's reading at capture
    /// time 0, nil while the camera has no first frame.
    mutating func place(_ period: AudioPeriod, origin: Double?) throws {
        let reading = clock.period(frames: period.frames, time: period.time, loss: period.loss)
        timeline.setDrift(clock.driftPPM)
        let clipped = Self.reachesFullScale(period.samples, frames: period.frames, format: format)
        if next == nil {
            pending.append((reading.sample, reading.gap, period.frames, Array(period.samples.prefix(period.frames * format.bytesPerFrame)), clipped))
            self.origin = self.origin ?? origin
            let waited = reading.sample - (pending.first?.sample ?? reading.sample)
            let tooLong = waited >= Self.maximumPendingSeconds * Double(format.sampleRate)
            if self.origin == nil {
                // No take can start before the camera's first frame: only the last seconds matter.
                if tooLong { pending.removeFirst() }
            } else if clock.isSettled || !waitsToSettle || tooLong {
                try flush()
            }
            return
        }
        try put(period.samples, frames: period.frames, reading: reading, clipped: clipped)
    }

    /// Places what waits (the source ended first, or the clock and the camera just started).
    /// Without a capture clock (the camera never delivered a frame) there is nowhere to put it.
    mutating func flush() throws {
        guard let origin, let firstSample = pending.first?.sample, let start = clock.time(ofSample: firstSample) else { return }
        next = next ?? timeline.index(at: start - origin)
        for period in pending {
            try period.bytes.withUnsafeBytes {
                try put($0, frames: period.frames, reading: AudioClock.Reading(sample: period.sample, gap: period.gap),
                        clipped: period.clipped)
            }
        }
        pending.removeAll()
    }

    private mutating func put(_ samples: UnsafeRawBufferPointer, frames: Int, reading: AudioClock.Reading, clipped: Bool) throws {
        let rate = Double(timeline.rate)
        if reading.gap > 0 {
            let silence = Int((reading.gap * rate).rounded())
            timeline.append(nil, frames: silence, start: next!, lost: true)
            next! += Int64(silence)
        }
        // Where this period's first sample should land, against where it will: after what is
        // appended and what the resampler's filter still holds.
        let wanted = (clock.time(ofSample: reading.sample)! - origin!) * rate
        let error = wanted - (Double(next!) + resampler.delay)
        // The drift measured, removed up front (without it a steady drift would leave a steady
        // error behind), plus the error beyond the stamps' wander, worked off over `distance`.
        let distance = Int(workOffSeconds * rate)
        let beyond = Swift.max(0, abs(error) - tolerance * rate)
        let correction = Swift.min(maximumCorrection, beyond / Double(distance)) * (error < 0 ? -1 : 1)
        let stretch = correction - clock.driftPPM * 1e-6
        try resampler.compensate(samples: Int((stretch * Double(distance)).rounded()), over: distance)
        let output = try resampler.convert(samples, frames: frames)
        let produced = output.count / timeline.channels
        timeline.append(output, frames: produced, start: next!, clipped: clipped)
        next! += Int64(produced)
    }
}
