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
        /// Seconds its packet decodes before it shows (pts − dts: the B-frame reorder delay
        /// of its group), 0 when the container stores no decoding time.
        package var delay = 0.0

        package init(time: Double, clean: Bool, delay: Double = 0) {
            self.time = time
            self.clean = clean
            self.delay = delay
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
        var candidate: Keyframe?
        while demuxer.read(into: packet) {
            defer { packet.unref() }
            guard packet.streamIndex == stream, let pts = packet.pts else { continue }
            let time = Double(pts) * base
            if packet.isKeyframe {
                if let candidate { found.append(candidate) }
                candidate = Keyframe(time: time, clean: true, delay: packet.dts.map { Double(pts - $0) * base } ?? 0)
            } else if time < candidate?.time ?? -.infinity {
                candidate?.clean = false
            }
        }
        if let candidate { found.append(candidate) }
        return found.sorted { $0.time < $1.time }
    }
}
