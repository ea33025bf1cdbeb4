import VRenderCore
import VRenderMedia

/// Re-encodes every span of a smart render with one encoder (`Encoder.matching`, the copied
/// stream's codec and setup): each span is decoded from a clean keyframe at or before it and
/// starts on a forced IDR picture of its own, with its parameter sets in band, so it depends on
/// nothing before it. One encoder, not one a span: x265 takes about 0.14 s of CPU to start, and
/// an export with ten trims has about twenty spans.
///
/// The encoder holds its last few frames until more come (frame threads, lookahead), so a
/// span's packets are complete only once the next span is fed, or the encoder flushed after
/// the last. Spans are asked for in timeline order (`SmartPieceCopy`), which is the order they
/// are fed in; at most the span after the one asked for is held here.
///
/// Packets come back in the copied stream's form (`NALFormat`), timed on their take's clock:
/// each frame keeps its pts, and decodes the copied stream's reorder delay before it shows.
/// Confined to the copying thread, as `StreamCopy` is.
final class SpanEncodings {
    /// A span to re-encode: piece (`ExportPlan.takes`) and its index in `Piece.spans`.
    struct Key: Hashable { var piece: Int; var span: Int }

    private let render: SmartRender
    private let takes: [MediaInfo]
    /// Every re-encoded span, in timeline order, and how many have been fed.
    private let order: [Key]
    private var fed = 0
    private var encoder: Encoder?
    /// The frames fed whose packets have not come out yet, oldest first: no B-frames, so the
    /// packets come out in the order the frames went in.
    private var waiting: [(key: Key, pts: Int64, frameTicks: Int64, delayTicks: Int64)] = []
    private var packets: [Key: [Packet]] = [:]
    /// The encoder's own clock: frame n at n frames, whichever take it came from.
    private var encoderFrames: Int64 = 0
    private var encoderFrameTicks: Int64 = 1

    init(_ render: SmartRender, takes: [MediaInfo]) {
        self.render = render
        self.takes = takes
        order = render.pieces.enumerated().flatMap { piece, value in
            value.spans.indices.filter { value.spans[$0].kind == .encode }.map { Key(piece: piece, span: $0) }
        }
    }

    /// The packets of span `key` (`Piece.spans[key.span]` of piece `key.piece`), in decoding
    /// order, in its take's video time base.
    func packets(_ key: Key) throws -> [Packet] {
        let span = render.pieces[key.piece].spans[key.span]
        while packets[key, default: []].count < span.frames {
            if fed < order.count {
                try feed(order[fed])
                fed += 1
            } else if let encoder {
                try encoder.encode(nil, makePacket: Packet.init, output: collect)
                self.encoder = nil
            } else {
                break
            }
        }
        let result = packets.removeValue(forKey: key) ?? []
        guard result.count == span.frames else {
            throw VRenderError.input(takes[key.piece].path, "re-encoding \(TakeTrim.text(span.start))–\(TakeTrim.text(span.end)) s "
                                     + "gave \(result.count) frames, not \(span.frames)")
        }
        return result
    }

    /// Decodes span `key` from its clean keyframe and sends its frames to the encoder, the
    /// first as an IDR picture.
    private func feed(_ key: Key) throws {
        let piece = render.pieces[key.piece], span = piece.spans[key.span], take = takes[key.piece]
        let demuxer = try openDemuxer(take.path)
        let stream = take.video.index
        let base = demuxer.timeBase(ofStream: stream)
        let half = 0.5 / take.video.frameRate.doubleValue
        // The take's clock is the file's, less where its video starts before any trim.
        let origin = take.fileVideoStart
        // The first span decodes from the clean keyframe before the cut, a later one from the
        // keyframe of the group whose first pictures are copied. Seeking backward lands on the
        // keyframe at or before the time asked: asked a little after the clean one, so a
        // rounding error does not land a group early.
        let decodeFrom = key.span == 0 ? piece.decodeFrom : piece.tailDecodeFrom
        guard demuxer.seek(stream: stream, toSeconds: origin + decodeFrom + half / 2) else {
            throw VRenderError.input(take.path, "cannot seek to \(TakeTrim.text(decodeFrom)) s to re-encode from its keyframe")
        }
        let decoder = try Decoder(demuxer: demuxer, streamIndex: stream)
        let encoder = try self.encoder ?? openEncoder(demuxer, take: take)
        let frameTicks = Int64((1 / (take.video.frameRate.doubleValue * base.doubleValue)).rounded())
        let delayTicks = Int64((piece.delay / base.doubleValue).rounded())
        var sent = 0, done = false
        let encodeFrame = { (frame: Frame) throws in
            guard !done, let pts = frame.decodedTimestamp else { return }
            let time = Double(pts) * base.doubleValue - origin
            if time < span.start - half { return }
            if time >= span.end - half { done = true; return }
            self.waiting.append((key, pts, frameTicks, delayTicks))
            frame.prepareForEncoding(pts: self.encoderFrames * self.encoderFrameTicks, keyframe: sent == 0)
            self.encoderFrames += 1
            sent += 1
            try encoder.encode(frame, makePacket: Packet.init, output: self.collect)
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
        guard sent == span.frames else {
            throw VRenderError.input(take.path, "re-encoding \(TakeTrim.text(span.start))–\(TakeTrim.text(span.end)) s found "
                                     + "\(sent) frames, not \(span.frames): its frames are not where its rate puts them")
        }
    }

    /// The one encoder, set up from the first span's take (every take of a smart render has
    /// the same codec setup: `SmartRender+Plan`).
    private func openEncoder(_ demuxer: Demuxer, take: MediaInfo) throws -> Encoder {
        let setup = try CodecSetup(of: demuxer, stream: take.video.index)
        let profileAndLevel = setup.profileAndLevel
        let encoder = try Encoder.matching(setup, encoder: render.encoder, frameRate: take.video.frameRate,
                                           options: render.encoderOptions(profile: profileAndLevel.profile, level: profileAndLevel.level,
                                                                                   width: take.video.width))
        // The encoder runs in the stream's time base (`Encoder.matching`).
        let base = demuxer.timeBase(ofStream: take.video.index)
        encoderFrameTicks = max(Int64((1 / (take.video.frameRate.doubleValue * base.doubleValue)).rounded()), 1)
        self.encoder = encoder
        return encoder
    }

    /// Takes a packet out of the encoder: the oldest frame waiting is the one it encodes.
    private func collect(_ packet: Packet) throws {
        guard !waiting.isEmpty else {
            throw VRenderError(.runtime, subject: render.encoder, reason: "gave more packets than it was given frames")
        }
        let frame = waiting.removeFirst()
        try packet.replaceBytes(render.format.packed(annexB: packet.bytes))
        packet.pts = frame.pts
        packet.dts = frame.pts - frame.delayTicks
        packet.duration = frame.frameTicks
        packets[frame.key, default: []].append(packet)
    }
}
