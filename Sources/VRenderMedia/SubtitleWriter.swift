internal import CFFmpeg
import Foundation
import VRenderCore

/// Makes the packets of one output text-subtitle stream from takes' subtitle streams: each
/// cue decoded (`avcodec_decode_subtitle2` gives every text codec's cue as an ASS line),
/// cut to its take's span, moved to where the take starts in the output and encoded in the
/// output's codec (`avcodec_encode_subtitle`), so mov_text, SubRip and ASS convert freely.
/// Packets are in milliseconds. Confined to one thread.
public final class SubtitleWriter {
    let encoder: UnsafeMutablePointer<AVCodecContext>
    /// The output's subtitle codec ("mov_text", "subrip", "ass", "webvtt").
    public let codecName: String
    /// Where each cue is encoded (one cue fits: FFmpeg's text encoders refuse longer), reused.
    private var encoded = [UInt8](repeating: 0, count: 1 << 16)

    /// An encoder of `codec` whose styles are those the decoder of stream `styleStream` of
    /// `stylePath` declares (its ASS header), the first take with subtitles.
    public convenience init(codec: String, stylePath: String, styleStream: Int, globalHeader: Bool) throws {
        let demuxer = try Self.open(stylePath)
        let decoder = try Self.decoder(for: demuxer, stream: styleStream)
        defer { Self.free(decoder) }
        var header: String?
        if let bytes = decoder.pointee.subtitle_header, decoder.pointee.subtitle_header_size > 0 {
            header = String(decoding: UnsafeBufferPointer(start: bytes, count: Int(decoder.pointee.subtitle_header_size)), as: UTF8.self)
        }
        do {
            try self.init(codec: codec, header: header, globalHeader: globalHeader)
        } catch {
            throw VRenderError.input(stylePath, "its subtitles cannot be written as \(codec) (\(error))")
        }
    }

    /// An encoder of `codec` whose styles `header` (an ASS header) declares.
    init(codec: String, header: String?, globalHeader: Bool) throws {
        guard let found = avcodec_find_encoder_by_name(codec), let context = avcodec_alloc_context3(found) else {
            throw VRenderError.output(codec, "no \(codec) subtitle encoder in this FFmpeg")
        }
        encoder = context
        codecName = codec
        context.pointee.time_base = AVRational(num: 1, den: 1000)
        if globalHeader { context.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
        if let header {
            let bytes = Array(header.utf8)
            context.pointee.subtitle_header = av_mallocz(bytes.count + 1)?.assumingMemoryBound(to: UInt8.self)
            context.pointee.subtitle_header?.update(from: bytes, count: bytes.count)
            context.pointee.subtitle_header_size = Int32(bytes.count)
        }
        try check(avcodec_open2(context, found, nil), "avcodec_open2(\(codec))")
    }

    deinit { Self.free(encoder) }

    /// The cues of stream `index` of `path` within source seconds `start ..< start + length`
    /// (the take's span), each cut to it and placed at `offset` + its time in the take.
    public func cues(of path: String, stream index: Int, from start: Double, length: Double,
                     at offset: Double) throws -> [Packet] {
        let demuxer = try Self.open(path)
        for other in 0..<Int(demuxer.context.pointee.nb_streams) where other != index {
            demuxer.stream(other).pointee.discard = AVDISCARD_ALL  // only the subtitles are read
        }
        let decoder = try Self.decoder(for: demuxer, stream: index)
        defer { Self.free(decoder) }
        let timeBase = demuxer.timeBase(ofStream: index).doubleValue
        var packets: [Packet] = []
        let input = Packet()
        while demuxer.read(into: input) {
            guard input.streamIndex == index, let pts = input.pts else { continue }
            var subtitle = AVSubtitle()
            var got: Int32 = 0
            guard avcodec_decode_subtitle2(decoder, &subtitle, &got, input.pointer) >= 0, got != 0 else { continue }
            defer { avsubtitle_free(&subtitle) }
            let cueStart = Double(pts) * timeBase
            let shown = input.duration > 0 ? Double(input.duration) * timeBase : Double(subtitle.end_display_time) / 1000
            let from = Swift.max(cueStart - start, 0)
            let to = Swift.min(cueStart + (shown > 0 ? shown : length) - start, length)
            guard subtitle.num_rects > 0, to > from else { continue }
            if let packet = encode(&subtitle, from: offset + from, to: offset + to) { packets.append(packet) }
        }
        return packets
    }

    /// One cue shown from `from` to `to` seconds of the output, encoded; nil when the encoder
    /// gives nothing for it.
    func encode(_ subtitle: inout AVSubtitle, from: Double, to: Double) -> Packet? {
        let startMs = Int64((from * 1000).rounded()), endMs = Int64((to * 1000).rounded())
        guard endMs > startMs else { return nil }
        subtitle.pts = startMs * 1000  // AV_TIME_BASE
        subtitle.start_display_time = 0
        subtitle.end_display_time = UInt32(endMs - startMs)
        let encoder = self.encoder
        let size = encoded.withUnsafeMutableBufferPointer {
            avcodec_encode_subtitle(encoder, $0.baseAddress, Int32($0.count), &subtitle)
        }
        guard size > 0 else { return nil }
        let packet = Packet()
        guard av_new_packet(packet.pointer, size) >= 0 else { fatalError("av_new_packet: out of memory") }
        encoded.withUnsafeBufferPointer { packet.pointer.pointee.data.update(from: $0.baseAddress!, count: Int(size)) }
        packet.pts = startMs
        packet.dts = startMs
        packet.duration = endMs - startMs
        packet.pointer.pointee.flags |= AV_PKT_FLAG_KEY
        return packet
    }

    static func open(_ path: String) throws -> Demuxer {
        do {
            return try Demuxer(path: path)
        } catch {
            throw VRenderError.input(path, "cannot be read for its subtitles (\(error.message))")
        }
    }

    static func decoder(for demuxer: Demuxer, stream index: Int) throws -> UnsafeMutablePointer<AVCodecContext> {
        let stream = demuxer.stream(index)
        guard let parameters = stream.pointee.codecpar else {
            throw VRenderError.input(demuxer.path, "subtitle stream \(index) has no codec parameters")
        }
        guard let codec = avcodec_find_decoder(parameters.pointee.codec_id), let context = avcodec_alloc_context3(codec) else {
            throw VRenderError.input(demuxer.path, "no decoder for its subtitle stream \(index)")
        }
        context.pointee.pkt_timebase = stream.pointee.time_base
        do {
            try check(avcodec_parameters_to_context(context, parameters), "avcodec_parameters_to_context")
            try check(avcodec_open2(context, codec, nil), "avcodec_open2")
        } catch {
            free(context)
            throw VRenderError.input(demuxer.path, "its subtitle stream \(index) cannot be decoded (\(error))")
        }
        return context
    }

    static func free(_ context: UnsafeMutablePointer<AVCodecContext>) {
        var pointer: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&pointer)
    }
}

extension Muxer {
    /// Adds the stream `writer`'s packets go to (its label: `setLabel`).
    public func addStream(subtitles writer: SubtitleWriter) throws -> Int {
        guard let stream = avformat_new_stream(context, nil) else { fatalError("avformat_new_stream: out of memory") }
        try check(avcodec_parameters_from_context(stream.pointee.codecpar, writer.encoder), "avcodec_parameters_from_context")
        stream.pointee.time_base = writer.encoder.pointee.time_base
        sourceTimeBases.append(writer.encoder.pointee.time_base)
        return Int(stream.pointee.index)
    }

    /// Adds a chapter from `start` to `end` seconds of the output; call before `writeHeader`
    /// (the QuickTime muxer makes its chapter track there).
    public func addChapter(start: Double, end: Double, title: String) {
        guard let memory = av_mallocz(MemoryLayout<AVChapter>.size),
              let grown = av_realloc_array(context.pointee.chapters, Int(context.pointee.nb_chapters) + 1,
                                           MemoryLayout<UnsafeMutablePointer<AVChapter>?>.size) else {
            fatalError("addChapter: out of memory")
        }
        let chapter = memory.assumingMemoryBound(to: AVChapter.self)
        let count = Int(context.pointee.nb_chapters)
        chapter.pointee.id = Int64(count + 1)
        chapter.pointee.time_base = AVRational(num: 1, den: 1000)
        chapter.pointee.start = Int64((start * 1000).rounded())
        chapter.pointee.end = Int64((end * 1000).rounded())
        if !title.isEmpty { av_dict_set(&chapter.pointee.metadata, "title", title, 0) }
        let table = grown.assumingMemoryBound(to: UnsafeMutablePointer<AVChapter>?.self)
        table[count] = chapter
        context.pointee.chapters = table
        context.pointee.nb_chapters += 1
    }
}
