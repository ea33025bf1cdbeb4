import VRenderCore

/// The export's clock: how many output frames and audio samples each take gets, so that the
/// output is continuous and its length is the sum of the takes' lengths.
///
/// Boundaries are rounded from the *cumulative* duration, never per take, so rounding errors
/// cannot add up: after any number of takes the output is within half a frame of the exact
/// sum, and audio boundaries sit exactly on video frame boundaries (no drift at joins). With a
/// cross-dissolve (`overlapSlots`) the output is shorter by exactly one overlap per join.
package struct Timeline: Sendable, Equatable {
    package struct Take: Sendable, Equatable {
        /// First output frame (slot) of this take.
        package var firstSlot: Int
        /// Output frames this take fills.
        package var slotCount: Int
        /// First output audio sample of this take.
        package var firstSample: Int
        /// Audio samples this take contributes (its audio padded or trimmed to this).
        package var sampleCount: Int
        /// True for a piece that continues the take before it (a pause or retake cut between
        /// them): that join is a cut, never overlapped, with the sound's short join
        /// (`TransitionSound.pieceFade`).
        package var continuesTake = false
    }

    package let frameRate: Rational
    package let sampleRate: Int
    package let takes: [Take]
    /// Output frames consecutive takes share (`--transition fade`): take i+1 starts this many
    /// frames before take i ends. 0 for cuts, and at a join between pieces of one take.
    package let overlapSlots: Int

    /// `overlapSlots`: frames shared at every join between takes (a cross-dissolve). The takes
    /// are placed as without overlap, from the cumulative duration, and each is moved earlier by
    /// one overlap per take join before it: so rounding still cannot add up, and every overlap
    /// is exactly `overlapSlots` frames. `takeNumbers` (`MediaInfo.sourceTake`, one per entry
    /// of `durations`, or none): consecutive entries with the same number are pieces of one
    /// take, joined without overlap.
    package init(durations: [Double], frameRate: Rational, sampleRate: Int = 48_000, overlapSlots: Int = 0,
                 takeNumbers: [Int?] = []) {
        self.frameRate = frameRate
        self.sampleRate = sampleRate
        self.overlapSlots = overlapSlots
        var takes: [Take] = []
        var elapsed = 0.0
        var cutEnd = 0
        var shift = 0
        for (index, duration) in durations.enumerated() {
            elapsed += Swift.max(duration, 0)
            let cutStart = cutEnd
            cutEnd = Swift.max(cutEnd, Int((elapsed * frameRate.doubleValue).rounded()))
            let continues = Self.continues(index, takeNumbers)
            if index > 0 && !continues { shift += overlapSlots }
            let (startSlot, endSlot) = (cutStart - shift, cutEnd - shift)
            // Audio starts and ends exactly where the take's first and last video frames do, so
            // the sound overlaps by the same instants as the pictures.
            let (startSample, endSample) = (Self.sample(atSlot: startSlot, frameRate, sampleRate),
                                           Self.sample(atSlot: endSlot, frameRate, sampleRate))
            takes.append(Take(firstSlot: startSlot, slotCount: endSlot - startSlot, firstSample: startSample,
                              sampleCount: endSample - startSample, continuesTake: continues))
        }
        self.takes = takes
    }

    private static func continues(_ index: Int, _ numbers: [Int?]) -> Bool {
        guard index > 0, index < numbers.count, let number = numbers[index] else { return false }
        return numbers[index - 1] == number
    }

    /// Joins between takes (transitions happen only there), leaving out those between pieces of one take.
    package var takeJoins: Int { takes.dropFirst().filter { !$0.continuesTake }.count }

    /// The output audio sample where output frame `slot` starts.
    package func sample(atSlot slot: Int) -> Int {
        Self.sample(atSlot: slot, frameRate, sampleRate)
    }

    private static func sample(atSlot slot: Int, _ frameRate: Rational, _ sampleRate: Int) -> Int {
        Int((Double(slot) * Double(sampleRate) / frameRate.doubleValue).rounded())
    }

    /// Audio samples take `index` shares with the take before it (0 for the first take).
    package func overlapSamples(beforeTake index: Int) -> Int {
        guard index > 0 else { return 0 }
        let previous = takes[index - 1]
        return previous.firstSample + previous.sampleCount - takes[index].firstSample
    }

    package var totalSlots: Int { takes.last.map { $0.firstSlot + $0.slotCount } ?? 0 }
    package var totalSamples: Int { takes.last.map { $0.firstSample + $0.sampleCount } ?? 0 }
    package var duration: Double { Double(totalSlots) / frameRate.doubleValue }

    /// The output slot (relative to the take) where a source frame shown `seconds` after the
    /// take's start belongs: the nearest frame boundary.
    package func slot(forSecondsIntoTake seconds: Double) -> Int {
        Int((seconds * frameRate.doubleValue).rounded())
    }
}

/// Decides, frame by frame, how many output slots each decoded frame fills: frame-rate
/// conversion by repeating or dropping whole frames (as ffmpeg's `fps` filter), with the take
/// trimmed or extended to exactly its slot count. Never copies pixels: a frame shown twice is
/// sent to the encoder twice.
package struct SlotAssigner: Sendable {
    package let slotCount: Int
    private var pendingStart: Int?

    package init(slotCount: Int) {
        self.slotCount = slotCount
    }

    /// A new frame arrives whose nearest slot is `slot`. Returns how many slots the *previous*
    /// pending frame fills (0: drop it), and makes the new frame pending.
    package mutating func arrive(slot: Int) -> (start: Int, count: Int)? {
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
    package mutating func finish() -> (start: Int, count: Int)? {
        guard let start = pendingStart else { return nil }
        pendingStart = nil
        return (start, Swift.max(0, slotCount - start))
    }
}
