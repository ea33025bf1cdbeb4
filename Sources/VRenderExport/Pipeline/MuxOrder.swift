/// The order in which packets of several streams go to the muxer: by decoding time, whatever
/// order the stages' threads delivered them in, so that the same export writes the same file
/// on every run.
///
/// Why it matters: `av_interleaved_write_frame` buffers packets until every stream has one,
/// but lets them go once they span more than its `max_interleave_delta` (10 s), and the first
/// packet it lets go fixes the shift that keeps timestamps non-negative (Matroska, WebM). A
/// chunked export's join copies video far faster than it encodes audio: when 10 s of video
/// reached the muxer before the first audio packet, the video started at 0 and the audio at
/// -0.021 s; otherwise (the one-pass .mkv's start) the video at 0.021 s after the AAC priming.
/// Which one depended on thread timing. Here a packet is written only once every stream that
/// has not ended has a packet waiting (the earliest first; a tie to the lower stream), which is
/// a function of each stream's own packet sequence alone: the muxer sees the same sequence on
/// every run, so it decides the same. The cost is holding packets of a stream that runs ahead.
struct MuxOrder<Item> {
    /// Per stream: packets not yet written, oldest first from `heads[stream]`, with their time.
    private var pending: [[(seconds: Double, item: Item)]]
    private var heads: [Int]
    private var ended: [Bool]
    /// Per stream: the time of the last packet added, given to a packet without timestamps.
    private var latest: [Double]

    init(streams: Int) {
        pending = Array(repeating: [], count: streams)
        heads = Array(repeating: 0, count: streams)
        ended = Array(repeating: false, count: streams)
        latest = Array(repeating: -.infinity, count: streams)
    }

    /// A packet of `stream`, decoded at `seconds` (nil: no timestamp, right after the last).
    mutating func add(_ item: Item, stream: Int, seconds: Double?) {
        precondition(!ended[stream], "a packet after its stream ended")
        let time = Swift.max(seconds ?? latest[stream], latest[stream])
        latest[stream] = time
        pending[stream].append((time, item))
    }

    /// `stream` will get no more packets.
    mutating func end(stream: Int) { ended[stream] = true }

    /// The next packet to write, once it is known: every stream not ended has a packet waiting
    /// (or all that remain are ended). Nil when more input is needed, or when all is written.
    mutating func next() -> Item? {
        var best: Int?
        for stream in pending.indices {
            guard heads[stream] < pending[stream].count else {
                if ended[stream] { continue }
                return nil  // its next packet may be the earliest: wait for it
            }
            if best == nil || pending[stream][heads[stream]].seconds < pending[best!][heads[best!]].seconds {
                best = stream
            }
        }
        guard let stream = best else { return nil }
        return take(from: stream)
    }

    /// Streams not ended with nothing waiting: what `next` waits for.
    var starved: [Int] { pending.indices.filter { !ended[$0] && heads[$0] == pending[$0].count } }

    /// True when every stream ended and everything was written.
    var isDone: Bool { pending.indices.allSatisfy { ended[$0] && heads[$0] == pending[$0].count } }

    private mutating func take(from stream: Int) -> Item {
        let item = pending[stream][heads[stream]].item
        heads[stream] += 1
        // Written packets are dropped in batches, so taking one costs O(1) on average.
        if heads[stream] >= 64 && heads[stream] * 2 >= pending[stream].count {
            pending[stream].removeFirst(heads[stream])
            heads[stream] = 0
        }
        return item
    }
}
