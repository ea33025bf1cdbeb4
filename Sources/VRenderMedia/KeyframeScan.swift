/// Where a stream copy may cut a take: its video keyframes that start a closed group of
/// pictures. A keyframe is clean when no packet after it in decoding order, up to the next
/// keyframe, shows before it (open-GOP leading pictures refer to the group before, so a copy
/// starting there would show broken or missing frames). Reads packets only, decodes nothing.
package enum KeyframeScan {
    /// A keyframe: its presentation time (seconds, the file's own clock), and whether it is
    /// clean (starts a closed group of pictures) or open (leading pictures refer back: an HEVC
    /// CRA, an H.264 recovery point with open GOP).
    package struct Keyframe: Sendable, Equatable {
        package var time: Double
        package var clean: Bool

        package init(time: Double, clean: Bool) {
            self.time = time
            self.clean = clean
        }
    }

    /// Presentation times of the clean keyframes of stream `stream`, in order.
    package static func cleanKeyframes(path: String, stream: Int) throws -> [Double] {
        try keyframes(path: path, stream: stream).filter(\.clean).map(\.time)
    }

    /// Every keyframe of stream `stream`, in presentation order, clean or not.
    package static func keyframes(path: String, stream: Int) throws -> [Keyframe] {
        let demuxer = try Demuxer(path: path)
        let base = demuxer.timeBase(ofStream: stream).doubleValue
        let packet = Packet()
        var found: [Keyframe] = []
        var candidate: (pts: Int64, clean: Bool)?
        while demuxer.read(into: packet) {
            defer { packet.unref() }
            guard packet.streamIndex == stream, let pts = packet.pts else { continue }
            if packet.isKeyframe {
                if let candidate { found.append(Keyframe(time: Double(candidate.pts) * base, clean: candidate.clean)) }
                candidate = (pts, true)
            } else if let current = candidate, pts < current.pts {
                candidate = (current.pts, false)
            }
        }
        if let candidate { found.append(Keyframe(time: Double(candidate.pts) * base, clean: candidate.clean)) }
        return found.sorted { $0.time < $1.time }
    }
}
