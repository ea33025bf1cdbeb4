internal import CFFmpeg
import VRenderCore

/// A take's length is what its packets cover. Headers only claim it: a Matroska Duration of a
/// million seconds would have an export repeat the last picture for 11 days, one of a
/// millisecond would drop the whole take, and a file cut short (a take whose recording was
/// killed, a copy that did not finish) claims the length it was meant to have, so its end
/// would be one frozen picture. Probing reads the file's last packets to check the claim, and
/// a frame whose pts a damaged header moved far from its neighbours (`PresentationCheck`) ends
/// where its dts puts it: one flipped bit in a `ctts` entry must not stretch the take.
extension Demuxer {
    /// `video.duration`, or the length its packets show when the two disagree by more than a
    /// quarter of a second or two frames, whichever is more. (Ordinary files differ by at most
    /// a last frame whose duration the container does not state, or an audio frame's rounding:
    /// 13 ms in every file of the test and trial media.) A stream with a length of its own
    /// (QuickTime, MP4) is compared with its own packets; one that takes the container's
    /// (Matroska) with every stream's.
    /// Also counts the frames read whose pts was an outlier (`damagedTimestamps`).
    /// Also returns the pts of the video packets read (for `nominalRate`).
    func measuredDuration(of video: VideoStreamInfo, in stream: UnsafeMutablePointer<AVStream>)
        -> (duration: Double, damagedTimestamps: Int, videoPts: [Int64]) {
        guard let ends = packetEnds(video: video) else { return (video.duration, 0, []) }
        let ownLength = stream.pointee.duration > 0 && stream.pointee.duration != vr_nopts_value()
        let measured = Swift.max((ownLength ? ends.video : ends.any) - video.startTime, 0)
        let tolerance = Swift.max(0.25, 2 / video.frameRate.doubleValue)
        return (abs(measured - video.duration) > tolerance ? measured : video.duration, ends.outliers, ends.videoPts)
    }

    /// Where the last video packet and the last packet of any audio or video stream end, in
    /// seconds, read from the video's last keyframe on (a seek, then one group of pictures).
    /// Nil when the file cannot seek, has no video packet there, or when more than `limit`
    /// packets follow (a file without an index, which the seek could not bring near its end).
    /// Video packets' pts pass `PresentationCheck` first; `outliers` counts those it moved.
    func packetEnds(video info: VideoStreamInfo, limit: Int = 20_000)
        -> (video: Double, any: Double, outliers: Int, videoPts: [Int64])? {
        let videoIndex = info.index
        var check = PresentationCheck(for: info)
        // Past any end a header may state (or to the last sample a file cut short still
        // holds); BACKWARD lands on the last keyframe before it.
        let target = lastWholeSample(ofStream: videoIndex) ?? Int64.max / 4
        guard av_seek_frame(context, Int32(videoIndex), target, AVSEEK_FLAG_BACKWARD) >= 0 else { return nil }
        let packet = Packet()
        var video = -Double.infinity
        var any = -Double.infinity
        var videoPts: [Int64] = []
        for _ in 0..<limit {
            guard read(into: packet) else { return video.isFinite ? (video, any, check.outliers, videoPts) : nil }
            let stream = self.stream(packet.streamIndex)
            if packet.streamIndex == videoIndex {
                check.repair(packet)
                if let pts = packet.pts, !packet.isDiscarded { videoPts.append(pts) }
            }
            let type = stream.pointee.codecpar.pointee.codec_type
            // A sample the file was cut short in is not shown (a player drops it).
            guard type == AVMEDIA_TYPE_VIDEO || type == AVMEDIA_TYPE_AUDIO, !packet.isCorrupt,
                  let time = packet.pts ?? packet.dts else { continue }
            let end = (Double(time) + Double(Swift.max(packet.duration, 0))) * av_q2d(stream.pointee.time_base)
            any = Swift.max(any, end)
            if packet.streamIndex == videoIndex { video = Swift.max(video, end) }
        }
        return nil
    }

    /// In a file cut short whose index still lists the samples it lost (a faststart .mp4, its
    /// index first, truncated by a copy that did not finish), the decoding time of the last
    /// sample of stream `index` that is wholly in the file; nil when every listed sample is
    /// there (or the container keeps no index). Seeking past the end of such a file would land
    /// on a keyframe that is not there and measure nothing: the header's length would stand,
    /// and the take's end would be a frozen picture.
    func lastWholeSample(ofStream index: Int) -> Int64? {
        let stream = self.stream(index)
        let count = avformat_index_get_entries_count(stream)
        guard count > 0, let io = context.pointee.pb else { return nil }
        let fileSize = avio_size(io)
        guard fileSize > 0 else { return nil }
        var lastWhole: Int64?
        var lost = false
        for entry in 0..<count {
            guard let sample = avformat_index_get_entry(stream, entry)?.pointee else { continue }
            if sample.pos + Int64(sample.size) <= fileSize {
                lastWhole = Swift.max(lastWhole ?? sample.timestamp, sample.timestamp)
            } else {
                lost = true
            }
        }
        return lost ? lastWhole : nil
    }
}
