import VRenderCore
import VRenderMedia

extension SmartRender {
    /// The smart render of `takes` (the timeline's pieces, trimmed and cut) into `container`,
    /// or why there is none: the export is then transcoded, as before, and the plan says why.
    static func make(_ takes: [MediaInfo], container: OutputContainer) -> (render: SmartRender?, refusal: String?) {
        let first = takes[0].video
        guard ["h264", "hevc"].contains(first.codecName) else {
            return (nil, "smart rendering re-encodes only H.264 and HEVC, and the takes are \(first.codecName)")
        }
        guard container.isQuickTimeFamily || container.name == "matroska" else {
            return (nil, "smart rendering writes .mp4, .mov or .mkv, not .\(container.path.fileExtension)")
        }
        let codec: NALFormat.Codec = first.codecName == "h264" ? .h264 : .hevc
        guard let format = NALFormat(codec: codec, extradata: first.extradata) else {
            return (nil, "smart rendering needs the takes' parameter sets, and their \(first.codecName) setup holds none it can read")
        }
        if let variable = takes.first(where: { $0.video.averageFrameRate != nil }) {
            return (nil, "smart rendering needs a constant frame rate, and \(variable.path) varies")
        }
        if let refusal = setupRefusal(takes[0]) { return (nil, refusal) }
        var pieces: [Piece] = []
        var scans: [String: [KeyframeScan.Keyframe]] = [:]
        for (index, take) in takes.enumerated() {
            if scans[take.path] == nil {
                guard let keyframes = try? KeyframeScan.keyframes(path: take.path, stream: take.video.index) else {
                    return (nil, "the keyframes of \(take.path) cannot be read")
                }
                scans[take.path] = keyframes
            }
            guard let piece = piece(take, number: takes.takeNumbers[index], index: index, keyframes: scans[take.path] ?? []) else {
                return (nil, "take \(takes.takeNumbers[index]) (\(take.path)) has no clean keyframe to decode its first cut from")
            }
            pieces.append(piece)
        }
        guard pieces.contains(where: { $0.spans.contains { $0.kind == .copy } }) else {
            return (nil, "no whole group of pictures lies between the cuts (no clean keyframe inside a trim), so nothing could be copied")
        }
        return (SmartRender(pieces: pieces, encoder: codec == .h264 ? "libx264" : "libx265", format: format), nil)
    }

    /// Pixel formats the encoders take as they are (x264 and x265 as Debian builds them).
    private static let pixelFormats = ["yuv420p", "yuvj420p", "yuv422p", "yuv444p", "yuv420p10le", "yuv422p10le"]

    /// Why the first take's stream cannot be continued by an encoder: fields, a pixel format
    /// the encoder cannot take, or no encoder at all (every take has its setup: `CopyCompatibility`).
    private static func setupRefusal(_ take: MediaInfo) -> String? {
        guard let demuxer = try? openDemuxer(take.path), let setup = try? CodecSetup(of: demuxer, stream: take.video.index) else {
            return "\(take.path) cannot be read again"
        }
        if setup.isInterlaced { return "\(take.path) is interlaced, and re-encoded frames would not match its field coding" }
        if !pixelFormats.contains(setup.pixelFormatName) {
            return "\(take.path) is \(setup.pixelFormatName), which the encoder would not keep"
        }
        return nil
    }

    /// Piece `index` (of take `number`) in spans: re-encoded from its start to its first clean
    /// keyframe, copied to its last clean keyframe, re-encoded from there to its end. A cut
    /// within half a frame of a clean keyframe is on it; a piece with no clean keyframe inside
    /// is re-encoded whole. Nil when no clean keyframe comes at or before its start.
    private static func piece(_ take: MediaInfo, number: Int, index: Int, keyframes: [KeyframeScan.Keyframe]) -> Piece? {
        let rate = take.video.frameRate.doubleValue, half = 0.5 / rate
        let offset = take.trim?.start ?? 0
        let length = take.duration
        // Clean keyframes on the piece's clock (0: its first picture).
        let clean = keyframes.filter(\.clean).map { $0.time - take.video.startTime }
        let delay = keyframes.map(\.delay).max() ?? 0
        let span = { (kind: SmartSpan.Kind, start: Double, end: Double) in
            SmartSpan(take: number, piece: index, kind: kind, start: offset + start, end: offset + end,
                      frames: Int(((end - start) * rate).rounded()))
        }
        guard take.trim != nil else {
            return Piece(spans: [span(.copy, 0, length)], offset: offset, decodeFrom: offset, tailDecodeFrom: offset + length, delay: delay)
        }
        guard let decodeFrom = clean.last(where: { $0 < half }) else { return nil }
        let copyStart = clean.first { $0 > -half && $0 < length - half }.map { $0 < half ? 0 : $0 }
        let copyEnd = clean.last { $0 < length + half }.map { $0 > length - half ? length : $0 }
        var spans: [SmartSpan] = []
        var tailFrom = offset + length
        if let copyStart, let copyEnd, copyEnd > copyStart + half {
            if copyStart > 0 { spans.append(span(.encode, 0, copyStart)) }
            let prefixEnd = copyEnd < length ? decodingPrefixEnd(take, keyframe: copyEnd, length: length) : length
            let end = prefixEnd > length - half ? length : prefixEnd
            spans.append(span(.copy, copyStart, end))
            if end < length { spans.append(span(.encode, end, length)) }
            tailFrom = offset + copyEnd
        } else {
            spans.append(span(.encode, 0, length))
        }
        return Piece(spans: spans, offset: offset, decodeFrom: offset + decodeFrom, tailDecodeFrom: tailFrom, delay: delay)
    }

    /// Where the copy of a piece's last group of pictures (from its clean `keyframe`, seconds
    /// on the piece's clock) can end short of the piece's `length`: its packets are copied in
    /// decoding order for as long as they show the group's first pictures and no other (a
    /// prefix of decoding order holds every reference of its frames), so only the frames from
    /// there to the out-point, those that refer to pictures after it, are re-encoded, not the
    /// whole stretch from the keyframe. `keyframe` when the packets cannot be read.
    private static func decodingPrefixEnd(_ take: MediaInfo, keyframe: Double, length: Double) -> Double {
        let rate = take.video.frameRate.doubleValue, stream = take.video.index
        guard let demuxer = try? openDemuxer(take.path),
              demuxer.seek(stream: stream, toSeconds: take.video.startTime + keyframe + 0.25 / rate) else { return keyframe }
        let base = demuxer.timeBase(ofStream: stream).doubleValue
        let packet = Packet()
        var (end, count, latest) = (keyframe, 0, -1)
        while demuxer.read(into: packet) {
            defer { packet.unref() }
            guard packet.streamIndex == stream, let pts = packet.pts else { continue }
            let frame = Int(((Double(pts) * base - take.video.startTime - keyframe) * rate).rounded())
            // The seek must land on the keyframe itself; the next keyframe ends the group.
            if count == 0, frame != 0 || !packet.isKeyframe { return keyframe }
            if count > 0, packet.isKeyframe { break }
            (latest, count) = (max(latest, frame), count + 1)
            let shown = keyframe + Double(count) / rate
            if shown > length + 0.5 / rate { break }
            if latest == count - 1 { end = shown }
        }
        return end
    }
}
