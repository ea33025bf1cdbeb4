import VRenderCore
import VRenderMedia

/// Re-encodes one span of a smart render: decodes the take from a clean keyframe at or
/// before the span, encodes the frames inside it with the copied stream's codec and setup
/// (`Encoder.matching`), and returns the packets in the copied stream's form (`NALFormat`),
/// timed on the take's own clock: each frame keeps its pts, and decodes the copied stream's
/// reorder delay before it shows.
struct SpanEncoder {
    let render: SmartRender
    let take: MediaInfo

    /// The packets of `span` (seconds on the take's clock), decoded from `decodeFrom`, in the
    /// take's video time base, in decoding order.
    func encode(_ span: SmartSpan, decodeFrom: Double, delay: Double) throws -> [Packet] {
        let demuxer = try openDemuxer(take.path)
        let stream = take.video.index
        let base = demuxer.timeBase(ofStream: stream)
        let half = 0.5 / take.video.frameRate.doubleValue
        // The take's clock is the file's, less where its video starts before any trim.
        let origin = take.fileVideoStart
        // Seeking backward lands on the keyframe at or before the time asked: asked a little
        // after the clean one, so a rounding error does not land a group early.
        guard demuxer.seek(stream: stream, toSeconds: origin + decodeFrom + half / 2) else {
            throw VRenderError.input(take.path, "cannot seek to \(TakeTrim.text(decodeFrom)) s to re-encode from its keyframe")
        }
        let decoder = try Decoder(demuxer: demuxer, streamIndex: stream)
        let setup = try CodecSetup(of: demuxer, stream: stream)
        let options = render.encoderOptions(frames: span.frames, profile: setup.profileAndLevel.profile, level: setup.profileAndLevel.level)
        let encoder = try Encoder.matching(setup, encoder: render.encoder, frameRate: take.video.frameRate, options: options)
        let frameTicks = Int64((1 / (take.video.frameRate.doubleValue * base.doubleValue)).rounded())
        let delayTicks = Int64((delay / base.doubleValue).rounded())
        var packets: [Packet] = []
        var done = false
        let collect = { (packet: Packet) throws in
            try packet.replaceBytes(render.format.packed(annexB: packet.bytes))
            packet.dts = packet.pts.map { $0 - delayTicks }
            packet.duration = frameTicks
            packets.append(packet)
        }
        let encodeFrame = { (frame: Frame) throws in
            guard !done, let pts = frame.decodedTimestamp else { return }
            let time = Double(pts) * base.doubleValue - origin
            if time < span.start - half { return }
            if time >= span.end - half { done = true; return }
            frame.prepareForEncoding(pts: pts)
            try encoder.encode(frame, makePacket: Packet.init, output: collect)
        }
        let packet = Packet()
        while !done, demuxer.read(into: packet) {
            guard packet.streamIndex == stream else { continue }
            // Frames shown before the span are decoded only as references for the frames in
            // it: the B-frames nothing refers to (about a third of a B-frame stream's) are
            // skipped, which saves a third of the decoding from the keyframe to the cut.
            decoder.skipsNonReferenceFrames = packet.pts.map { Double($0) * base.doubleValue - origin < span.start - half } ?? false
            try decoder.decode(packet, makeFrame: Frame.init, output: encodeFrame)
        }
        if !done { try decoder.decode(nil, makeFrame: Frame.init, output: encodeFrame) }
        try encoder.encode(nil, makePacket: Packet.init, output: collect)
        guard packets.count == span.frames else {
            throw VRenderError.input(take.path, "re-encoding \(TakeTrim.text(span.start))–\(TakeTrim.text(span.end)) s gave "
                                     + "\(packets.count) frames, not \(span.frames): its frames are not where its rate puts them")
        }
        return packets
    }
}
