import VRenderCore

/// The export's clock: how many output frames and audio samples each take gets, so that the
/// output is continuous and its length is the sum of the takes' lengths.
///
/// Boundaries are rounded from the *cumulative* duration, never per take, so rounding errors
/// cannot add up: after any number of takes the output is within half a frame of the exact
/// sum, and audio boundaries sit exactly on video frame boundaries (no drift at joins).
public struct Timeline: Sendable, Equatable {
    public struct Take: Sendable, Equatable {
        /// First output frame (slot) of this take.
        public var firstSlot: Int
        /// Output frames this take fills.
        public var slotCount: Int
        /// First output audio sample of this take.
        public var firstSample: Int
        /// Audio samples this take contributes (its audio padded or trimmed to this).
        public var sampleCount: Int
    }

    public let frameRate: Rational
    public let sampleRate: Int
    public let takes: [Take]

    public init(durations: [Double], frameRate: Rational, sampleRate: Int = 48_000) {
        self.frameRate = frameRate
        self.sampleRate = sampleRate
        var takes: [Take] = []
        var elapsed = 0.0
        var slot = 0
        var sample = 0
        for duration in durations {
            elapsed += Swift.max(duration, 0)
            let endSlot = Swift.max(slot, Int((elapsed * frameRate.doubleValue).rounded()))
            // Audio ends exactly where the take's last video frame ends.
            let endSample = Int((Double(endSlot) * Double(sampleRate) / frameRate.doubleValue).rounded())
            takes.append(Take(firstSlot: slot, slotCount: endSlot - slot,
                              firstSample: sample, sampleCount: endSample - sample))
            slot = endSlot
            sample = endSample
        }
        self.takes = takes
    }

    public var totalSlots: Int { takes.last.map { $0.firstSlot + $0.slotCount } ?? 0 }
    public var totalSamples: Int { takes.last.map { $0.firstSample + $0.sampleCount } ?? 0 }
    public var duration: Double { Double(totalSlots) / frameRate.doubleValue }

    /// The output slot (relative to the take) where a source frame shown `seconds` after the
    /// take's start belongs: the nearest frame boundary.
    public func slot(forSecondsIntoTake seconds: Double) -> Int {
        Int((seconds * frameRate.doubleValue).rounded())
    }
}

/// Decides, frame by frame, how many output slots each decoded frame fills: frame-rate
/// conversion by repeating or dropping whole frames (as ffmpeg's `fps` filter), with the take
/// trimmed or extended to exactly its slot count. Never copies pixels: a frame shown twice is
/// sent to the encoder twice.
public struct SlotAssigner: Sendable {
    public let slotCount: Int
    private var pendingStart: Int?

    public init(slotCount: Int) {
        self.slotCount = slotCount
    }

    /// A new frame arrives whose nearest slot is `slot`. Returns how many slots the *previous*
    /// pending frame fills (0: drop it), and makes the new frame pending.
    public mutating func arrive(slot: Int) -> (start: Int, count: Int)? {
        guard let start = pendingStart else {
            // The first frame of a take covers from slot 0 even if it starts a bit late.
            pendingStart = 0
            return nil
        }
        // A frame no later than the pending one's slot replaces it (the pending one is dropped).
        let next = Swift.max(slot, start)
        pendingStart = next
        return (start, Swift.max(0, Swift.min(next, slotCount) - start))
    }

    /// The take ended: the pending frame fills every remaining slot.
    public mutating func finish() -> (start: Int, count: Int)? {
        guard let start = pendingStart else { return nil }
        pendingStart = nil
        return (start, Swift.max(0, slotCount - start))
    }
}
