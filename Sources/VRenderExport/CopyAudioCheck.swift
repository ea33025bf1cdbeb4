import VRenderCore
import VRenderMedia

/// The audio half of a stream copy's damage check (`CopyInspector`): the audio a copy copies
/// is decoded on a thread of its own, so that the copying thread only reads and writes (the
/// decoding was a fifth of a copy of 1,000 one-second takes). The copying thread hands over a
/// second reference to each audio packet before writing it (the muxer takes the written one's).
/// The checker's verdict, the first audio that does not decode, trails the writing by at most
/// `batchSize * (capacity + 2)` packets (those queued, the batch being filled and the one being
/// decoded). A copy ends with `finish()` (or `stop(after:)` when it failed), which waits for the
/// checker: damage found late still stops the copy before its output is committed, naming the
/// take and the time the copying thread gave the packet.
///
/// Decoded batches come back, their packets still referenced, and the copying thread reuses
/// them: what the copying thread allocated (packet data, references) is freed there too. Freed
/// on the checker thread, it took malloc's lock against the copying thread's allocations
/// (measured: 41,000 futex calls and 60% more CPU in the copy of an hour's take; now the
/// two threads together spend what the copying thread alone spent before).
///
/// Used by the copying thread only; the checker thread shares nothing with it but the two
/// queues and the group's verdict. Every path joins the thread (`deinit` too).
final class CopyAudioCheck {
    /// What the checker is told, in the order the copy read it.
    fileprivate enum Item: Sendable {
        /// A take begins: its file and the setup of each audio stream to decode (by stream index).
        case take(path: String, setups: [Int: CodecSetup])
        /// An audio packet of the current take, at `seconds` (`CopyInspector`'s time of it).
        case packet(Packet, seconds: Double)
    }

    /// Items handed over at once (under 3 s of 48 kHz AAC): one wake of the checker per batch,
    /// not per packet. Batches of 32 cost an hour's copy 26,000 futex calls and about 0.2 s of
    /// system time; these, 4,000 calls and none measurable.
    static let defaultBatchSize = 128
    private let batchSize: Int
    private let group = StageGroup()
    private let queue: BoundedQueue<[Item]>
    /// Batches the checker decoded, for reuse. Never full for the checker (`.dropOldest`): it
    /// must not wait for a copying thread that may be waiting for it.
    private let decoded: BoundedQueue<[Item]>
    private var batch: [Item] = []
    /// Packets of decoded batches, to refer to the next packets (dropping what they held).
    private var shells: [Packet] = []
    private var joined = false

    /// `capacity` batches of `batchSize` items wait for the checker at most.
    init(capacity: Int = 4, batchSize: Int = CopyAudioCheck.defaultBatchSize) {
        self.batchSize = batchSize
        let queue = BoundedQueue<[Item]>(capacity: capacity)
        let decoded = BoundedQueue<[Item]>(capacity: capacity + 2, policy: .dropOldest)
        self.queue = queue
        self.decoded = decoded
        batch.reserveCapacity(batchSize)
        group.onCancel { queue.cancel() }
        group.start("vrender-copy-audio-check") {
            var checker = Checker()
            while let items = queue.pop() {
                for item in items { try checker.check(item) }
                decoded.push(items)
            }
        }
    }

    deinit {
        if !joined { stop(after: VRenderError.cancelled) }
    }

    /// Take `path` begins; its audio streams `setups` are decoded from here on.
    func startTake(path: String, setups: [Int: CodecSetup]) throws {
        try add(.take(path: path, setups: setups))
    }

    /// Hands over a reference to audio `packet` (before it is written), found at `seconds`.
    /// Throws the checker's verdict when it already has one.
    func check(_ packet: Packet, seconds: Double) throws {
        let reference = shells.popLast() ?? Packet()
        try reference.reference(packet)
        try add(.packet(reference, seconds: seconds))
    }

    /// The copy wrote everything: waits until every packet handed over is decoded, then throws
    /// the verdict (`CopyDamage`) if there is one. Joins the thread.
    func finish() throws {
        guard !joined else { return }
        joined = true
        if !batch.isEmpty { queue.push(batch) }
        batch = []
        queue.finish()
        try group.wait()
    }

    /// The copy failed with `error`: the error to throw. Damage the checker finds in what was
    /// handed over came earlier in the copy than anything the copying thread met since, so it
    /// is the verdict, as it was when the audio was decoded in line; a cancelled copy stops at
    /// once. Joins the thread.
    @discardableResult
    func stop(after error: any Error) -> any Error {
        if (error as? VRenderError)?.kind == .cancelled {
            group.cancel()
            joined = true
            try? group.wait()
            return error
        }
        do {
            try finish()
        } catch let damage as CopyDamage {
            return damage
        } catch {}
        return error
    }

    /// Adds `item` to the batch; a full batch goes to the checker, and a decoded one, if any,
    /// becomes the next. A push the queue refuses means the checker stopped: its verdict is thrown.
    private func add(_ item: Item) throws {
        batch.append(item)
        guard batch.count >= batchSize else { return }
        guard queue.push(batch) else { return try finish() }
        batch = []
        if decoded.depth > 0, var reused = decoded.pop() {  // the one consumer: a pop that cannot wait
            for case .packet(let packet, _) in reused { shells.append(packet) }
            reused.removeAll(keepingCapacity: true)
            batch = reused
        } else {
            batch.reserveCapacity(batchSize)
        }
    }
}

/// The checker thread's state: one decoder per audio stream of the current take, reused from
/// take to take while the setup is alike (opening 1,000 AAC decoders cost 0.2 s, about what
/// decoding the 1,000 takes' audio costs), and flushed between takes so that no take's verdict
/// depends on another.
private struct Checker {
    /// A decoder and the setup it was opened with.
    private struct Opened {
        let decoder: Decoder
        let setup: CodecSetup
    }

    private var path = ""
    /// The current take's, by stream index.
    private var decoders: [Int: Opened] = [:]
    private let shell = Frame()

    mutating func check(_ item: CopyAudioCheck.Item) throws {
        switch item {
        case .take(let path, let setups): start(path: path, setups: setups)
        case .packet(let packet, let seconds): try decode(packet, at: seconds)
        }
    }

    /// Decoders for the next take: an earlier take's whose setup is alike, flushed, or new ones.
    private mutating func start(path: String, setups: [Int: CodecSetup]) {
        self.path = path
        var unused = Array(decoders.values)
        decoders = [:]
        for (index, setup) in setups.sorted(by: { $0.key < $1.key }) {
            if let alike = unused.firstIndex(where: { $0.setup.decodesAlike(setup) }) {
                let opened = unused.remove(at: alike)
                opened.decoder.reset()
                decoders[index] = opened
            } else if let decoder = try? Decoder(setup: setup, threads: 1) {
                decoders[index] = Opened(decoder: decoder, setup: setup)
            }  // else a codec FFmpeg cannot decode: copied unchecked, as before
        }
    }

    private func decode(_ packet: Packet, at seconds: Double) throws {
        guard let decoder = decoders[packet.streamIndex]?.decoder else { return }
        let before = decoder.damaged
        let shell = self.shell
        do {
            try decoder.decode(packet, makeFrame: { shell.unref(); return shell }, output: { _ in })
        } catch {
            throw CopyDamage(path: path, seconds: seconds, what: "audio that cannot be decoded")
        }
        if decoder.damaged > before { throw CopyDamage(path: path, seconds: seconds, what: "audio that does not decode") }
    }
}
