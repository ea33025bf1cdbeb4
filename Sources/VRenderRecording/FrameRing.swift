import VRenderCapture
import VRenderCore
import VRenderMedia

/// The ring of preallocated frame slots between capture and the take writer.
///
/// - Capacity: `slotCount` frames allocated at once; capture writes into a free slot, the writer
///   gives the slot back after encoding. Nothing is allocated per frame.
/// - Falling behind: for a live source the ring grows, a slot at a time, up to `maxSlotCount`
///   (slots are kept once made). A writer that stalls for a moment (opening a take's encoder,
///   measuring the codecs, a busy machine) then catches up instead of losing frames, and a
///   machine that keeps up never pays for the extra memory.
/// - When full: a live source (`live: true`) never waits: the oldest frame not yet encoded is
///   dropped and counted against its take. A batch source waits for a free slot, so batch runs
///   are complete and deterministic.
/// - Pre-roll: between takes, captured frames are retained (newest `prerollFrames` of them) so a
///   take can begin with the seconds before it was started.
/// - Ending: `finish()` (capture is done: the writer drains what is queued, then `next()` returns
///   nil) or `cancel()` (both sides return at once).
/// - Occupancy: after `trackOccupancy()`, every `acquire` counts the slots it found queued for
///   or held by the writer.
///
/// Public only for the repository's capture benchmarks (Benchmarks/, a package of its own): it
/// is not part of the library's API promise (docs/library.md), and may change in any release.
// @unchecked Sendable: every mutable field is only touched with `lock` held; a slot's frame
// belongs to whichever side holds its index (capture between acquire and commit, the writer
// between next and release), and is looked up under `lock` (`frame(_:)`) as the ring grows.
public final class FrameRing: @unchecked Sendable {
    /// One captured frame waiting in the ring.
    public struct Entry: Sendable {
        public var slot: Int
        public var info: CapturedFrameInfo
        public var take: Int
        /// `MonotonicClock` time the frame entered the ring, for its wait and capture-to-file latency.
        public var capturedAt: UInt64
    }

    /// What the writer receives, in capture order.
    public enum Item: Sendable {
        case frame(Entry)
        /// Take `take` ended: every frame of it still in the ring is before this marker.
        case takeEnded(take: Int)
    }

    /// Slots made so far, indexed by slot number (grows, under `lock`).
    private var slots: [Frame]
    /// The most slots a live ring grows to.
    public let maxSlotCount: Int
    private let size: (width: Int, height: Int)
    private let live: Bool
    private let prerollFrames: Int
    private let lock = QueueLock()
    private var free: [Int]
    private var queue: [Item] = []
    private var retained: [Entry] = []   // pre-roll: captured while no take records
    private var droppedByTake: [Int: Int] = [:]
    private var depths: OccupancyHistogram?

    /// `maxSlotCount`: how far a live ring may grow (default: not at all).
    public init(slotCount: Int, maxSlotCount: Int? = nil, width: Int, height: Int, live: Bool, prerollFrames: Int) throws {
        precondition(slotCount > prerollFrames, "the ring must hold the pre-roll and room to work")
        slots = try (0..<slotCount).map { _ in try Frame.picture(width: width, height: height) }
        free = Array((0..<slotCount).reversed())
        self.maxSlotCount = live ? Swift.max(slotCount, maxSlotCount ?? slotCount) : slotCount
        size = (width, height)
        self.live = live
        self.prerollFrames = prerollFrames
    }

    /// The frame of a slot: capture's to fill between `acquire` and `commit`, the writer's to
    /// read between `next` and `release`.
    public func frame(_ slot: Int) -> Frame { lock.withLock { slots[slot] } }

    /// Slots made so far (`slotCount` up to `maxSlotCount`).
    public var slotCount: Int { lock.withLock { slots.count } }

    /// A free slot for the next captured frame. Returns nil once cancelled.
    public func acquire() -> Int? {
        lock.withLock {
            depths?.record(depth: slots.count - free.count - retained.count)
            while true {
                if lock.isCancelled { return nil }
                if let slot = free.popLast() { return slot }
                if let oldest = retained.first {       // pre-roll is the first to give way
                    retained.removeFirst()
                    return oldest.slot
                }
                if let grown = grow() { return grown }
                if live, let index = queue.firstIndex(where: { if case .frame = $0 { true } else { false } }),
                   case .frame(let entry) = queue.remove(at: index) {
                    droppedByTake[entry.take, default: 0] += 1
                    return entry.slot
                }
                // Capture may acquire after `finish()` (it ends only by itself), so wait for
                // a released slot regardless of the producer's end.
                lock.waitForChange()
            }
        }
    }

    /// A new slot for a live ring that may still grow (lock held). Allocating under the lock
    /// holds the writer up for the microseconds of one allocation, once per slot ever made.
    private func grow() -> Int? {
        guard slots.count < maxSlotCount, let frame = try? Frame.picture(width: size.width, height: size.height) else {
            return nil   // at the limit, or out of memory: the ring drops instead
        }
        slots.append(frame)
        return slots.count - 1
    }

    /// Hands a filled slot on: to take `take`'s writer, or (nil) into the pre-roll.
    public func commit(slot: Int, info: CapturedFrameInfo, take: Int?) {
        lock.update {
            guard !lock.isCancelled else {
                free.append(slot)
                return
            }
            let now = MonotonicClock.now()
            if let take {
                queue.append(.frame(Entry(slot: slot, info: info, take: take, capturedAt: now)))
            } else {
                retained.append(Entry(slot: slot, info: info, take: -1, capturedAt: now))
                while retained.count > prerollFrames { free.append(retained.removeFirst().slot) }
            }
        }
    }

    /// Starts take `take` with the retained frames captured at or after `since` (pre-roll).
    /// Returns how many pre-roll frames it received.
    @discardableResult
    public func beginTake(_ take: Int, prerollSince since: Double) -> Int {
        lock.update {
            let kept = retained.filter { $0.info.time >= since }
            for entry in retained where entry.info.time < since { free.append(entry.slot) }
            retained.removeAll()
            for var entry in kept {
                entry.take = take
                queue.append(.frame(entry))
            }
            return kept.count
        }
    }

    /// Marks the end of take `take` for the writer.
    public func endTake(_ take: Int) {
        lock.update { queue.append(.takeEnded(take: take)) }
    }

    /// Frames of `take` dropped (live overflow, plus gaps the device reported). Final once the
    /// writer has received the take's `.takeEnded`.
    public func dropped(take: Int) -> Int { lock.withLock { droppedByTake[take] ?? 0 } }

    /// Counts frames a device skipped (sequence gaps) against a take.
    public func addDeviceDrops(_ count: Int, take: Int) {
        guard count > 0 else { return }
        lock.withLock { droppedByTake[take, default: 0] += count }
    }

    /// The writer's next item, waiting while the ring is empty; nil when finished and drained,
    /// or cancelled.
    public func next() -> Item? {
        lock.withLock {
            lock.wait(while: { queue.isEmpty })
            guard !lock.isCancelled, !queue.isEmpty else { return nil }
            return queue.removeFirst()
        }
    }

    /// The writer is done with a slot.
    public func release(_ slot: Int) {
        lock.update { free.append(slot) }
    }

    public func finish() { lock.finish() }

    public func cancel() { lock.cancel() }

    /// From now on, counts at every `acquire` the slots queued for or held by the writer
    /// (`maxSlotCount`: none free and none to make, so capture waits or drops).
    public func trackOccupancy() {
        lock.withLock {
            if depths == nil { depths = OccupancyHistogram(capacity: maxSlotCount) }
        }
    }

    /// What `acquire` found since `trackOccupancy()`; nil when not tracked.
    public var occupancy: OccupancyHistogram? { lock.withLock { depths } }

    /// Frames queued for the writer, not yet taken (for the status line).
    public var backlog: Int {
        lock.withLock { queue.reduce(0) { if case .frame = $1 { $0 + 1 } else { $0 } } }
    }
}
