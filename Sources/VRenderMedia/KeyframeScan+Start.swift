internal import CFFmpeg
import VRenderCore

/// The first pictures of a take that no decoder can show: a file cut inside a group of
/// pictures (a byte-cut transport stream, a recording that began mid-stream) starts with frames
/// whose keyframe is gone, and one cut at an open-GOP keyframe (H.264 `open-gop`, HEVC CRA)
/// keeps the leading pictures after it that show before it and refer to the group cut away.
/// Players skip them, so the take starts at that keyframe: a copy drops them and the sound
/// before it, and a decoder's output before it is not used.
public struct UndecodableStart: Sendable, Equatable, Codable {
    /// Video packets before the first keyframe, in decoding order.
    public var beforeKeyframe: Int
    /// Packets after that keyframe, before the next one, that show before it.
    public var leading: Int
    /// Seconds from the stream's first picture (as the file states it) to the keyframe.
    public var keyframeSeconds: Double
    /// Whether the keyframe and the packets after it (`KeyframeScan.checkedPackets`) decode
    /// without the decoder logging an error: a copy from there plays cleanly. False for an open
    /// GOP's I-frame whose next pictures still name pictures cut away (x264's `mmco` failures).
    public var decodesCleanly: Bool

    public var frames: Int { beforeKeyframe + leading }

    /// "open GOP cut", "cut inside a group of pictures": how the plan names the cause.
    public var cause: String {
        switch (beforeKeyframe > 0, leading > 0) {
        case (false, _): "open GOP cut: leading pictures refer to frames cut away"
        case (true, false): "cut inside a group of pictures: its keyframe is gone"
        case (true, true): "cut inside a group of pictures: its keyframe is gone, and the next one's leading pictures refer to frames cut away"
        }
    }
}

extension KeyframeScan {
    /// Video packets after the first keyframe read to find its leading pictures and decoded to
    /// check it (HEVC puts every leading picture first; x264's come within its B-frame run).
    static let checkedPackets = 32
    /// Video packets read looking for a first keyframe before giving up (a stream with no
    /// keyframe flags at all, periodic intra refresh, is left as it is).
    static let keyframeSearch = 1200
}

extension Demuxer {
    /// Reads the video's first packets (from wherever opening left reading: the file's start)
    /// for what `UndecodableStart` describes; nil when the first packet is a keyframe with no
    /// leading pictures, or no keyframe comes within `KeyframeScan.keyframeSearch` packets.
    /// Returns the keyframe's pts too (the stream's time base). Reading stands anywhere after.
    func undecodableStart(of video: VideoStreamInfo) -> (start: UndecodableStart, keyframePts: Int64)? {
        var before = 0
        var group: [Packet] = []   // the keyframe and the packets after it
        let packet = Packet()
        while demuxerRead(into: packet, video: video.index) {
            if group.isEmpty {
                guard packet.isKeyframe, packet.pts != nil else {
                    before += 1
                    if before >= KeyframeScan.keyframeSearch { return nil }
                    continue
                }
            } else if packet.isKeyframe || group.count > KeyframeScan.checkedPackets {
                break
            }
            let kept = Packet()
            guard (try? kept.reference(packet)) != nil else { break }
            group.append(kept)
        }
        guard let keyPts = group.first?.pts else { return nil }
        let leading = group.dropFirst().filter { ($0.pts ?? keyPts) < keyPts }
        guard before > 0 || !leading.isEmpty else { return nil }
        let seconds = Swift.max(Double(keyPts) * video.timeBase.doubleValue - video.startTime, 0)
        let shown = group.filter { ($0.pts ?? keyPts) >= keyPts }
        let start = UndecodableStart(beforeKeyframe: before, leading: leading.count, keyframeSeconds: seconds,
                                     decodesCleanly: decodesCleanly(shown, stream: video.index))
        return (start, keyPts)
    }

    /// The next packet of stream `video`; false at the end (or a read error).
    private func demuxerRead(into packet: Packet, video: Int) -> Bool {
        while read(into: packet) {
            if packet.streamIndex == video { return true }
        }
        return false
    }

    /// Whether `packets`, from a keyframe on, decode into pictures with no error logged: what
    /// `ffmpeg -v error` would print for a copy that starts with them. One thread, so that the
    /// decoder logs against the one context watched.
    private func decodesCleanly(_ packets: [Packet], stream: Int) -> Bool {
        guard let decoder = try? Decoder(demuxer: self, streamIndex: stream, threads: 1) else { return false }
        let context = UnsafeMutableRawPointer(decoder.context)
        CorruptPacketLog.watchErrors(context)
        var pictures = 0
        for packet in packets.map(Optional.some) + [nil] {
            try? decoder.decode(packet, makeFrame: { Frame() }, output: { _ in pictures += 1 })
        }
        let errors = CorruptPacketLog.forgetErrors(context)
        return pictures > 0 && errors == 0 && decoder.damaged == 0
    }
}

extension VideoStreamInfo {
    /// Starts the stream at its first decodable keyframe (pts `pts`, in its time base): what
    /// comes before it is not part of the take.
    mutating func startAtDecodableKeyframe(_ start: UndecodableStart, pts: Int64) {
        let shift = Swift.max(Double(pts) * timeBase.doubleValue - startTime, 0)
        startTime += shift
        duration = Swift.max(duration - shift, 0)
        undecodableStart = start
    }
}
