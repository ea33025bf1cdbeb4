/// Where a stream copy may cut a take: its video keyframes that start a closed group of
/// pictures. A keyframe is clean when no packet after it in decoding order, up to the next
/// keyframe, shows before it (open-GOP leading pictures refer to the group before, so a copy
/// starting there would show broken or missing frames). Reads packets only, decodes nothing.
package enum KeyframeScan {
    /// Presentation times (seconds, the file's own clock) of the clean keyframes of stream
    /// `stream`, in order.
    package static func cleanKeyframes(path: String, stream: Int) throws -> [Double] {
        let demuxer = try Demuxer(path: path)
        let base = demuxer.timeBase(ofStream: stream).doubleValue
        let packet = Packet()
        var clean: [Double] = []
        var candidate: (pts: Int64, clean: Bool)?
        while demuxer.read(into: packet) {
            defer { packet.unref() }
            guard packet.streamIndex == stream, let pts = packet.pts else { continue }
            if packet.isKeyframe {
                if let candidate, candidate.clean { clean.append(Double(candidate.pts) * base) }
                candidate = (pts, true)
            } else if let current = candidate, pts < current.pts {
                candidate = (current.pts, false)
            }
        }
        if let candidate, candidate.clean { clean.append(Double(candidate.pts) * base) }
        return clean.sorted()
    }
}
