/// Fits each take's decoded audio to exactly the samples its video spans on the output
/// timeline (`Timeline.Take.sampleCount`), so that audio and video meet at every join:
///
/// - audio that starts after the take's first picture is preceded by silence;
/// - audio that starts before it loses the samples before it;
/// - audio that runs past the take's last picture is cut there, shorter audio padded with
///   silence, and a take without audio is silence throughout.
///
/// - within a take, a frame whose timestamp leaves a hole after the audio before it (damaged
///   data the decoder skipped, a recorder's dropout) is preceded by silence for the hole (for
///   the part of it after the take's first picture: a hole in early audio is cut with it), and a
///   frame that overlaps the audio before it loses the overlap, so that sound after damage keeps
///   its time. Differences up to `tolerance` are laid end to end, as a decoder delivers them
///   (timestamp rounding, resampling).
///
/// It counts converted samples (the output rate), so the takes' own sample rates do not
/// matter. Pure arithmetic for one output track: the audio stage converts and writes what it
/// is told, and reports back what it did.
///
///     aligner.beginTake(index)
///     for frame in decoded {
///         let cut = aligner.cut(frameStartingAt: seconds(frame) - videoStart)
///         write(silence: cut.silenceBefore)
///         let done = convert(frame, dropFirst: cut.dropFirst, limit: cut.limit)
///         aligner.record(dropped: done.dropped, kept: done.kept)
///     }
///     write(silence: aligner.endTake())
struct AudioAligner {
    /// What to do with the next decoded frame's converted samples.
    struct Cut: Equatable {
        /// Silence to write before them (late audio at a take's first frame, or a hole).
        var silenceBefore: Int
        /// How many to drop from their front (early audio, or an overlap).
        var dropFirst: Int
        /// The most to keep after dropping: the room left in the take.
        var limit: Int
    }

    /// Holes and overlaps within a take shorter than this are laid end to end: below one AAC
    /// frame at 44.1 kHz (23 ms), so a single lost frame becomes silence, and far above the
    /// rounding of any container's timestamps.
    static let tolerance = 0.015

    let sampleRate: Int
    private let takeSamples: [Int]
    /// Where the audio placed so far ends, in seconds after the take's first picture (input
    /// time, before resampling); nil while unknown (frames without timestamps or durations).
    private var placedEnd: Double?
    /// The current take's share of the track, and what has been written of it.
    private var target = 0
    private var written = 0
    /// Early samples still to cut from the take's audio.
    private var toDrop = 0
    private var sawAudio = false

    init(timeline: Timeline) {
        sampleRate = timeline.sampleRate
        takeSamples = timeline.takes.map(\.sampleCount)
    }

    /// Samples the current take can still take.
    var room: Int { Swift.max(0, target - written) }

    /// Take `index` of the timeline begins.
    mutating func beginTake(_ index: Int) {
        target = takeSamples[index]
        written = 0
        toDrop = 0
        sawAudio = false
        placedEnd = nil
    }

    /// The cut for the next decoded frame, which starts `offset` seconds after the take's first
    /// picture and lasts `duration` seconds: as `cut(frameStartingAt:)`, and a later frame is
    /// also placed by its timestamp when it leaves a hole (silence before it) or overlaps the
    /// audio before it (the overlap dropped) by more than `tolerance`.
    mutating func cut(frameStartingAt offset: Double?, lasting duration: Double) -> Cut {
        guard sawAudio else {
            placedEnd = (offset ?? 0) + duration
            return cut(frameStartingAt: offset)
        }
        guard let end = placedEnd, let offset else {
            placedEnd = placedEnd.map { $0 + duration }
            return Cut(silenceBefore: 0, dropFirst: toDrop, limit: room)
        }
        let gap = offset - end
        var silence = 0
        if gap > Self.tolerance {
            // A hole in audio still being cut (before a trim's in point) is cut with it: the
            // samples it stands for were never going to be heard. Only the part of it after
            // the take's first picture is silence, or the sound after it would come late.
            let hole = Int((gap * Double(sampleRate)).rounded())
            let cutAway = Swift.min(hole, toDrop)
            toDrop -= cutAway
            silence = Swift.min(hole - cutAway, room)
            written += silence
            placedEnd = offset + duration
        } else if gap < -Self.tolerance {
            toDrop += Int((Swift.min(-gap, duration) * Double(sampleRate)).rounded())
            placedEnd = Swift.max(end, offset + duration)
        } else {
            placedEnd = end + duration
        }
        return Cut(silenceBefore: silence, dropFirst: toDrop, limit: room)
    }

    /// The cut for the next decoded frame, which starts `offset` seconds after the take's first
    /// picture (negative: before it; nil: no timestamp, taken as on time). Only the take's first
    /// frame places the audio; later frames follow on from it, as a decoder delivers them.
    mutating func cut(frameStartingAt offset: Double?) -> Cut {
        var silence = 0
        if !sawAudio {
            sawAudio = true
            let offsetSamples = Int(((offset ?? 0) * Double(sampleRate)).rounded())
            if offsetSamples > 0 {
                silence = Swift.min(offsetSamples, target)
                written += silence
            } else {
                toDrop = -offsetSamples
            }
        }
        return Cut(silenceBefore: silence, dropFirst: toDrop, limit: room)
    }

    /// What the converter did with the last cut (or, with nothing dropped, with a flush of its
    /// resampler limited to `room`).
    mutating func record(dropped: Int, kept: Int) {
        toDrop = Swift.max(0, toDrop - dropped)
        written += kept
    }

    /// The take ended: the silence that fills it to its length.
    mutating func endTake() -> Int {
        let padding = room
        written = target
        return padding
    }
}
