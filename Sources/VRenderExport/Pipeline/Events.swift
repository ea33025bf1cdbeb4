import Synchronization
import VRenderCore
import VRenderMedia

/// What flows from the reader to a decoding stage: take boundaries and compressed packets.
enum PacketEvent: Sendable {
    /// A take begins; the decoder for this stream travels with the event (nil: the take has no
    /// such stream, e.g. no audio).
    case takeStart(index: Int, decoder: OwnershipTransfer<Decoder>?)
    case packet(Packet)
    case takeEnd(index: Int)
}

/// What flows from video decoding to the processing stage.
enum FrameEvent: Sendable {
    case takeStart(index: Int)
    /// A decoded frame and its time in seconds in its file (nil when it has no timestamp);
    /// with `--stabilize`, its motion from the previous frame (`MotionStage`; nil before).
    case frame(Frame, seconds: Double?, motion: CameraMotion? = nil)
    case takeEnd(index: Int)
}

/// A finished canvas picture and the output slots it fills.
struct EncodeItem: Sendable {
    enum Origin: Sendable { case decoded, canvas }
    let frame: Frame
    /// Where the frame came from, so the encoder can return it to the right pool.
    let origin: Origin
    let firstSlot: Int
    let count: Int
}

/// An encoded packet on its way to the muxer.
struct MuxItem: Sendable {
    enum Stream: Sendable { case video, audio(track: Int), subtitle }
    let stream: Stream
    let packet: Packet
}

/// Counts the producers of a queue and finishes it when the last one is done.
final class ProducerCount: Sendable {
    // Typed by inference, not `: Mutex<Int>`: ThreadSanitizer builds swap in VRenderCore's own
    // Mutex, and a spelled-out type would be ambiguous there (VRenderCore/TSanMutex.swift).
    private let remaining = Mutex(0)
    private let queue: BoundedQueue<MuxItem>

    /// With no producers at all the queue is finished at once.
    init(_ count: Int, of queue: BoundedQueue<MuxItem>) {
        remaining.withLock { $0 = count }
        self.queue = queue
        if count == 0 { queue.finish() }
    }

    func producerDone() {
        let last = remaining.withLock { remaining in
            remaining -= 1
            return remaining == 0
        }
        if last { queue.finish() }
    }
}

/// Damage found while reading and decoding, per input, reported at the end. Any stage adds.
final class DamageLog: Sendable {
    private struct Entries {
        var counts: [String: Int] = [:]
        var notes: [String] = []
    }
    private let entries = Mutex(Entries())

    func add(_ count: Int, in path: String) {
        guard count > 0 else { return }
        entries.withLock { $0.counts[path, default: 0] += count }
    }

    func warn(_ note: String) { entries.withLock { $0.notes.append(note) } }

    /// Frames of `path` whose damaged pts `PresentationCheck` replaced: damage, and a warning.
    func noteDamagedTimestamps(_ count: Int, in path: String) {
        guard count > 0 else { return }
        add(count, in: path)
        warn(PresentationCheck.damageNote(path, count: count))
    }

    var damaged: [String: Int] { entries.withLock { $0.counts } }
    var warnings: [String] { entries.withLock { $0.notes } }
}
