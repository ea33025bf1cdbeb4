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
    /// The video's length as its packets show it. QuickTime and MP4 state each track's exact
    /// length (its samples' durations, the edit list applied), which stands unless its
    /// packets end more than a quarter of a second or two frames away from it (a header that
    /// lies; ordinary files differ by an audio frame's rounding at most); a track without a
    /// length of its own (fragmented) is compared with every stream's packets. Every other
    /// container's is a guess: ASF's includes its preroll, FLV's and Matroska's are the
    /// whole file's (audio longer than the video), MPEG-PS's leaves out the last frame, a raw
    /// elementary stream has none. There the length is where the last video frame ends: its
    /// time plus its duration, or one frame at the stream's rate when packets carry no
    /// durations; a stream without timestamps at all (.h264, .hevc) is its packets counted.
    /// Also counts the frames read whose pts was an outlier (`damagedTimestamps`), and returns
    /// the pts of the video packets read (for `nominalRate`).
    func measuredDuration(of video: VideoStreamInfo, in stream: UnsafeMutablePointer<AVStream>)
        -> (duration: Double, damagedTimestamps: Int, videoPts: [Int64], untimedFrames: Int?) {
        if stream.pointee.start_time == vr_nopts_value(), let frames = untimedFrames(ofStream: video.index) {
            return (Double(frames) / video.frameRate.doubleValue, 0, [], frames)
        }
        guard let ends = packetEnds(video: video) else { return (video.duration, 0, [], nil) }
        guard String(cString: context.pointee.iformat.pointee.name).hasPrefix("mov,") else {
            return (Swift.max(ends.video - video.startTime, 0), ends.outliers, ends.videoPts, nil)
        }
        let ownLength = stream.pointee.duration > 0 && stream.pointee.duration != vr_nopts_value()
        let measured = Swift.max((ownLength ? ends.video : ends.any) - video.startTime, 0)
        let tolerance = Swift.max(0.25, 2 / video.frameRate.doubleValue)
        return (abs(measured - video.duration) > tolerance ? measured : video.duration, ends.outliers, ends.videoPts, nil)
    }

    /// Where the last video packet and the last packet of any audio or video stream end, in
    /// seconds, read from the video's last keyframe on (a seek, then one group of pictures).
    /// When that leaves fewer than `fewest` video packets (a keyframe near the end), the read
    /// starts a second earlier: MPEG-PS gives the first packets after a seek their
    /// neighbours' timestamps. A container that cannot seek by time (an FLV without a keyframe
    /// index reads nothing after its seek) is read from a byte position before its end
    /// (1 MiB, then 16 MiB, then the whole file); only then, as a byte seek misplaces the
    /// timestamps of containers that count frames (AVI).
    /// Nil when none finds a video packet, or when more than `limit` packets follow (a file
    /// without an index, which the seek could not bring near its end). Video packets' pts pass
    /// `PresentationCheck` first; `outliers` counts those it moved.
    func packetEnds(video info: VideoStreamInfo, limit: Int = 20_000, fewest: Int = 8)
        -> (video: Double, any: Double, outliers: Int, videoPts: [Int64])? {
        let index = Int32(info.index)
        // Past any end a header may state (or to the last sample a file cut short still
        // holds); BACKWARD lands on the last keyframe before it.
        let target = lastWholeSample(ofStream: info.index) ?? Int64.max / 4
        var found = av_seek_frame(context, index, target, AVSEEK_FLAG_BACKWARD) >= 0 ? readEnds(video: info, limit: limit) : nil
        if let last = found, last.videoPackets < fewest, let first = last.firstVideoTime,
           av_seek_frame(context, index, first.clampedMinus(Int64(exactly: (1 / info.timeBase.doubleValue).rounded()) ?? 0),
                         AVSEEK_FLAG_BACKWARD) >= 0,
           let earlier = readEnds(video: info, limit: limit), earlier.videoPackets > last.videoPackets {
            found = earlier
        }
        let fileSize = context.pointee.pb.map { avio_size($0) } ?? -1
        for tail: Int64 in [1 << 20, 16 << 20, .max] where found == nil && fileSize > 0 {
            let position = Swift.max(fileSize - Swift.min(tail, fileSize), 0)
            guard av_seek_frame(context, -1, position, AVSEEK_FLAG_BYTE) >= 0 else { break }
            found = readEnds(video: info, limit: limit)
            if position == 0 { break }
        }
        return found.map { ($0.video, $0.any, $0.outliers, $0.videoPts) }
    }

    private struct PacketEnds {
        /// Where the last audio packet ends, in seconds.
        var audio = -Double.infinity
        var outliers = 0
        /// Each video packet's time and how long it says it is shown, in the video's time base.
        var videoFrames: [(time: Int64, shown: Int64)] = []
        var videoPts: [Int64] = []
        var timeBase = 0.0

        var videoPackets: Int { videoFrames.count }
        var firstVideoTime: Int64? { videoFrames.map(\.time).min() }

        /// Where the last video frame ends, in seconds: its time plus how long it is shown, at
        /// most twice the frames' usual (median) interval, else that interval: a Matroska whose
        /// time scale a damaged header shrank keeps nanosecond times but millisecond durations.
        /// In floating point: a damaged file's times and durations may be anywhere in Int64's
        /// range, where their sums and differences overflow (found by FuzzMedia).
        var video: Double {
            let times = videoFrames.map { Double($0.time) }.sorted()
            let intervals = zip(times, times.dropFirst()).map { $1 - $0 }.filter { $0 > 0 }.sorted()
            let usual = intervals.isEmpty ? nil : intervals[intervals.count / 2]
            let end = videoFrames.map { frame in
                let shown = Double(frame.shown)
                return Double(frame.time) + (usual.map { shown > 2 * $0 ? $0 : shown } ?? shown)
            }.max()
            return end.map { $0 * timeBase } ?? -.infinity
        }

        var any: Double { Swift.max(audio, video) }
    }

    /// `packetEnds`' read from where a seek left the file to its end. A video packet without a
    /// duration lasts one frame at the stream's rate, and one without a pts (MPEG-PS's last)
    /// is shown as long after its dts as the packets before it were.
    private func readEnds(video info: VideoStreamInfo, limit: Int) -> PacketEnds? {
        var check = PresentationCheck(for: info)
        let packet = Packet()
        var ends = PacketEnds()
        ends.timeBase = av_q2d(stream(info.index).pointee.time_base)
        var reorderDelay: Int64 = 0
        for _ in 0..<limit {
            guard read(into: packet) else {
                ends.outliers = check.outliers
                return ends.videoFrames.isEmpty ? nil : ends
            }
            let stream = self.stream(packet.streamIndex)
            let isVideo = packet.streamIndex == info.index
            if isVideo {
                check.repair(packet)
                if let pts = packet.pts, !packet.isDiscarded { ends.videoPts.append(pts) }
                if let pts = packet.pts, let dts = packet.dts { reorderDelay = Swift.max(reorderDelay, pts.clampedMinus(dts)) }
            }
            let type = stream.pointee.codecpar.pointee.codec_type
            // A sample the file was cut short in is not shown (a player drops it).
            guard type == AVMEDIA_TYPE_VIDEO || type == AVMEDIA_TYPE_AUDIO, !packet.isCorrupt,
                  let time = packet.pts ?? packet.dts.map({ $0.clampedPlus(isVideo ? reorderDelay : 0) }) else { continue }
            if isVideo {
                ends.videoFrames.append((time, info.shownTicks(ofPacketDuration: packet.duration)))
            } else {
                ends.audio = Swift.max(ends.audio, (Double(time) + Double(Swift.max(packet.duration, 0))) * av_q2d(stream.pointee.time_base))
            }
        }
        return nil
    }

    /// The frames of a video stream whose packets carry no timestamps at all (a raw .h264 or
    /// .hevc stream, whose length only its frames give), counted from the file's start up to
    /// `MediaLimits.maxDuration` at 1000 fps; nil when its packets have timestamps.
    /// Reading starts over at byte 0: probing has read the first packets already
    /// (`undecodableStart`), and a raw stream has nothing but its bytes to seek by.
    func untimedFrames(ofStream index: Int) -> Int? {
        guard av_seek_frame(context, -1, 0, AVSEEK_FLAG_BYTE) >= 0 else { return nil }
        let packet = Packet()
        var frames = 0
        while frames <= Int(MediaLimits.maxDuration) * 1000, read(into: packet) {
            guard packet.streamIndex == index else { continue }
            guard packet.pts == nil, packet.dts == nil else { return nil }
            frames += 1
        }
        return frames > 0 ? frames : nil
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

extension Int64 {
    /// `self + other`, held at Int64's ends instead of trapping: a damaged file's timestamps may
    /// be anywhere in its range.
    func clampedPlus(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }

    /// `self - other`, held at Int64's ends instead of trapping.
    func clampedMinus(_ other: Int64) -> Int64 {
        let (difference, overflow) = subtractingReportingOverflow(other)
        return overflow ? (other < 0 ? .max : .min) : difference
    }
}
