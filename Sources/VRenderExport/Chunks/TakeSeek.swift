import VRenderCore
import VRenderMedia

/// Where a chunk starts reading a take that began before the chunk: at the keyframe before the
/// chunk's first frame instead of at the take's start, so that the chunks of one long take do
/// not each decode it from the beginning; and where it stops reading one that goes on after
/// the chunk (`End`).
///
/// The pictures are the same as a read from the start: decoding from a keyframe gives every
/// frame from that keyframe on, and the frame that fills the chunk's first output frame is
/// never earlier than the keyframe, because the keyframe's own output frame is checked to be
/// no later than the chunk's first. A container that lands late, or cannot seek, is read from
/// the start after all (opened again).
///
/// Every reader of a take opens it here, those that read only its sound too (a chunked
/// export's sound job and a join without one, `--loudness`'s measurement): the audio decoder
/// and resampler then see the same packets from the same point as in one pass, and give the
/// same samples. (Read from the file's start, a resampled take's samples fell elsewhere on the
/// output's grid, and a take of vrender's went through the hole between its AAC priming packet
/// and its first sound, `TakeSoundTrack.begin`.)
enum TakeSeek {
    /// Opens `take` (index `takeIndex` of `plan`) for a run that writes from output frame
    /// `firstFrame` on. Returns the demuxer and, when it seeked, the first video packet read
    /// (a keyframe), which the caller must hand on before reading more.
    static func open(_ take: MediaInfo, takeIndex: Int, plan: ExportPlan, firstFrame: Int,
                     packets: ObjectPool<Packet>) throws -> (demuxer: Demuxer, firstPacket: Packet?) {
        let demuxer = try openTake(take)
        // The take's first slot this run writes (0 for a take the run starts at or before).
        let slot = Swift.max(firstFrame - plan.timeline.takes[takeIndex].firstSlot, 0)
        guard slot > 0 || take.trim != nil else { return (demuxer, nil) }
        let video = take.video
        // A trimmed take's sound from its in point on may be stored a little before the video
        // keyframe: start half a second earlier (what comes before the take is cut anyway).
        let margin = take.trim != nil ? 0.5 : 0
        // Back off one second, then ten, when the container lands after the frame wanted.
        for backoff in [0.0, 1.0, 10.0] {
            let target = video.startTime + Double(slot) / plan.frameRate.doubleValue - backoff - margin
            if target <= take.fileVideoStart { break }
            guard demuxer.seek(stream: video.index, toSeconds: target) else { break }
            let packet = try packets.obtain()
            guard let landed = firstVideoPacket(demuxer, into: packet, stream: video.index) else {
                packets.recycle(packet)
                break
            }
            let seconds = Double(landed) * video.timeBase.doubleValue - video.startTime
            if packet.isKeyframe && plan.timeline.slot(forSecondsIntoTake: seconds) <= slot {
                return (demuxer, packet)
            }
            packet.unref()
            packets.recycle(packet)
        }
        return (try openTake(take), nil)
    }

    /// Opens `take` for a run that reads only its sound, from where a whole run reads it (see
    /// above); the video packet the seek read is let go.
    static func openForSound(_ take: MediaInfo, takeIndex: Int, plan: ExportPlan) throws -> Demuxer {
        let packets = ObjectPool<Packet>(limit: 1) { Packet() }
        let (demuxer, firstPacket) = try open(take, takeIndex: takeIndex, plan: plan, firstFrame: 0, packets: packets)
        firstPacket?.unref()
        return demuxer
    }

    /// Reads up to the first packet of stream `index`; its timestamp (pts, else dts), or nil
    /// at the end of the file or when it has none.
    private static func firstVideoPacket(_ demuxer: Demuxer, into packet: Packet, stream index: Int) -> Int64? {
        while demuxer.read(into: packet) {
            if packet.streamIndex == index { return packet.pts ?? packet.dts }
        }
        return nil
    }

    /// Where a chunk stops reading a take that goes on after the chunk's last frame. Packets
    /// come in decoding order and no frame shows before it is decoded (pts ≥ dts), so once a
    /// video packet decodes at or after the chunk's end, every frame the chunk needs, and every
    /// frame they refer to, has been read. The frame filling the chunk's last output frame
    /// then fills it to the end of the chunk, as it would in a full read. A packet without a
    /// decoding time (Matroska) counts by its presentation time, a second (and 32 frames)
    /// later, past any reordering.
    struct End {
        private let video: VideoStreamInfo
        private let endSlot: Int
        private let plan: ExportPlan

        /// The take's part ends at its trim's out point, or within the chunk: nil when neither
        /// (read it all).
        init?(_ take: MediaInfo, takeIndex: Int, plan: ExportPlan, frames: Range<Int>) {
            let span = plan.timeline.takes[takeIndex]
            guard frames.upperBound < span.firstSlot + span.slotCount || take.trim?.end != nil else { return nil }
            video = take.video
            endSlot = Swift.min(frames.upperBound - span.firstSlot, span.slotCount)
            self.plan = plan
        }

        /// True when `packet` is sound that starts over half a second after the part's end: by
        /// then every packet of sound the part needs has been read (files interleave their
        /// streams far closer than that).
        func isSoundPast(_ packet: Packet, timeBase: Rational) -> Bool {
            guard packet.streamIndex != video.index, let pts = packet.pts else { return false }
            return Double(pts) * timeBase.doubleValue - video.startTime > Double(endSlot) / plan.frameRate.doubleValue + 0.5
        }

        func isPast(_ packet: Packet) -> Bool {
            guard packet.streamIndex == video.index else { return false }
            let slotOf = { (ticks: Int64) in
                plan.timeline.slot(forSecondsIntoTake: Double(ticks) * video.timeBase.doubleValue - video.startTime)
            }
            if let dts = packet.dts { return slotOf(dts) >= endSlot }
            guard let pts = packet.pts else { return false }
            return slotOf(pts) >= endSlot + max(32, Int(plan.frameRate.doubleValue.rounded(.up)))
        }
    }
}
