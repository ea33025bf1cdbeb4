import VRenderCore
import VRenderMedia

/// Moves copied packets onto the output's timeline: each take starts where the previous one
/// ended, every stream of a take shifted by the same amount (measured from the take's video
/// start, so audio stays in sync), and decoding timestamps kept strictly increasing.
///
/// Copied audio comes in whole codec frames (1024 samples for AAC) that rarely end where a
/// take's video ends: a 1 s take carries 47 AAC frames, 128 samples too many. Players lay audio
/// packets end to end, so those surpluses would add up at every join (51 ms behind after 20
/// takes). Audio packets are therefore placed end to end here, and one is dropped whenever the
/// audio would run more than half a packet behind the video: the lag stays within half a codec
/// frame (11 ms for AAC at 48 kHz) however many takes are joined.
struct PacketRetimer {
    /// Whether the container trims a packet that starts before zero with an edit list
    /// (QuickTime family). Elsewhere (Matroska) a negative timestamp would shift the whole file.
    let containerTrimsStart: Bool
    private var lastDts: [Int: Int64] = [:]
    /// Per audio stream: where the audio written so far ends, in the stream's ticks.
    private var audioEnd: [Int: Int64] = [:]

    init(containerTrimsStart: Bool) {
        self.containerTrimsStart = containerTrimsStart
    }

    /// What to do with one packet of a take.
    struct Placement {
        /// Seconds into the output where the take starts.
        var takeOffset: Double
        /// The take's video start and length in its file, in seconds.
        var videoStart: Double
        var takeDuration: Double
        /// Seconds (from `videoStart`) of the video packets kept; nil keeps every one. A trimmed
        /// take's: a copy trims only on clean keyframes (`TrimCopy`), so what falls outside is
        /// whole groups of pictures that nothing kept refers to. A take whose start cannot be
        /// decoded (`UndecodableStart`) starts at its first keyframe: the pictures before it
        /// and its leading ones show before it, and nothing from the keyframe on refers to them.
        var videoWindow: Range<Double>?
        /// Seconds the first picture's decoding time moves later: the leading pictures dropped
        /// after it (`UndecodableStart.leading`) each left a frame's gap in decoding order, and a
        /// .mov/.mp4 track counts that gap into its length (30 frames in 1.067 s: 28.1 fps).
        var firstDecodeDelay = 0.0

        init(takeOffset: Double, videoStart: Double, takeDuration: Double) {
            self.takeOffset = takeOffset
            self.videoStart = videoStart
            self.takeDuration = takeDuration
        }

        /// Take `take` placed `offset` seconds into the output, its trim applied.
        init(take: MediaInfo, offset: Double) {
            self.init(takeOffset: offset, videoStart: take.video.startTime, takeDuration: take.duration)
            let halfFrame = 0.5 / take.video.frameRate.doubleValue
            if take.trim != nil {
                videoWindow = -halfFrame..<(take.duration - halfFrame)
            } else if let start = take.video.undecodableStart {
                videoWindow = -halfFrame..<Double.infinity
                firstDecodeDelay = Double(start.leading) / take.video.frameRate.doubleValue
            }
        }
    }

    /// Shifts `packet` (in `timeBase`) into output stream `stream`. Returns false when it must
    /// be dropped: audio outside the take's video (before its first picture or after its last),
    /// or audio that would overlap the previous take (AAC priming).
    /// `audioFrameDuration` is how long a coded audio frame really plays (the decoder outputs
    /// all of it even where the take's container shortened the last packet's duration).
    mutating func retime(_ packet: Packet, stream: Int, isAudio: Bool, timeBase: Rational, _ placement: Placement,
                         audioFrameDuration: Int64? = nil) -> Bool {
        let seconds = { (ticks: Int64) in Double(ticks) * timeBase.doubleValue - placement.videoStart }
        if !isAudio, let window = placement.videoWindow, let pts = packet.pts, !window.contains(seconds(pts)) { return false }
        // A trim's in point is on the take's nominal frame grid (frame k at k / rate), and a take
        // whose timestamps wander (a file looped or joined by stream copy) has its first picture
        // a few milliseconds before it: before the output's zero, where a .mp4's edit list hides
        // it (269 frames for 270). The first picture starts the take exactly; it is decoded as
        // before (its decoding time stays at or before it).
        if !isAudio, placement.videoWindow != nil, let pts = packet.pts, seconds(pts) < 0 {
            packet.pts = Swift.max(pts, Int64((placement.videoStart / timeBase.doubleValue).rounded(.up)))
        }
        // The first picture (its window starts half a frame before it).
        if !isAudio, placement.firstDecodeDelay > 0, let window = placement.videoWindow, let pts = packet.pts,
           let dts = packet.dts, abs(seconds(pts)) < -window.lowerBound {
            packet.dts = Swift.min(pts, dts + Int64((placement.firstDecodeDelay / timeBase.doubleValue).rounded()))
        }
        if isAudio, let pts = packet.pts {
            let start = seconds(pts), end = seconds(pts + Swift.max(packet.duration, 0))
            if start >= placement.takeDuration { return false }          // after the last picture
            if end < 0 || (!containerTrimsStart && start < -0.0005) { return false }  // before the first
        }
        let shift = Int64(((placement.takeOffset - placement.videoStart) / timeBase.doubleValue).rounded())
        packet.pts = packet.pts.map { $0 + shift }
        packet.dts = packet.dts.map { $0 + shift }
        if isAudio, var pts = packet.pts {
            let duration = Swift.max(packet.duration, audioFrameDuration ?? 0, 0)
            packet.duration = duration
            if let end = audioEnd[stream] {
                if end - pts > duration / 2 { return false }   // would play late: drop it
                if pts != end, pts - end < duration {           // within a frame: end to end
                    packet.dts = packet.dts.map { $0 + end - pts }
                    packet.pts = end
                    pts = end
                }
            }
            audioEnd[stream] = pts + duration
        }
        // Matroska stores no decoding times: FFmpeg leaves the first packets of a take with
        // B-frames without one, and a muxer would take the next take's for a step back. Decoding
        // order is reading order, so the packet decodes just after the last one (never after its pts).
        if !isAudio, packet.dts == nil, let pts = packet.pts {
            packet.dts = lastDts[stream].map { Swift.min($0 + 1, pts) } ?? pts
        }
        if let dts = packet.dts, let last = lastDts[stream], dts <= last {
            if isAudio { return false }
            packet.dts = last + 1
            if let pts = packet.pts, pts < last + 1 { packet.pts = last + 1 }
        }
        if let dts = packet.dts { lastDts[stream] = dts }
        return true
    }
}
