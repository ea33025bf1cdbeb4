internal import CFFmpeg
import VRenderCore

/// Owns an input `AVFormatContext` (`avformat_open_input` / `avformat_close_input`) and reads
/// its packets. Confined to one thread.
public final class Demuxer {
    public let path: String
    let context: UnsafeMutablePointer<AVFormatContext>
    /// Each stream's picture size as the container's header states it, before any decoding
    /// (which may replace a size it refuses with 0x0): what `MediaLimits` is checked against.
    let claimedSizes: [(width: Int, height: Int)]
    /// What FFmpeg calls back through while the context is open (released after `deinit` closes it).
    private let input: LocalInput
    /// Ticks taken off a video stream's timestamps as read, where `AVFMT_FLAG_GENPTS` filled its
    /// presentation times in (`storesDecodingTimesOnly`): its decoder's reorder delay.
    private var reorderShift: [Int: Int64] = [:]

    /// How much `init` reads before returning.
    public enum StreamInfo: Sendable {
        /// `avformat_find_stream_info`: decodes the first pictures and sound of each stream.
        case found
        /// Only the container's header, when it is a whole QuickTime/MP4 one (its `moov` lists
        /// every stream's samples): its sample descriptions hold every codec parameter a packet
        /// copy needs, and a take already probed needs no second decode of its start (1,000
        /// one-second takes spent a third of their copy there). Other files are still
        /// searched: a transport stream's parameters are known only from its packets, and a
        /// fragmented take's (vrender's own recordings) first times differ without the search.
        case headerWhenComplete
    }

    /// Opens the local file `path` (never a URL: `LocalInput`) and reads enough to know its
    /// streams (`avformat_find_stream_info`, or only the header: `StreamInfo`). `length`: read
    /// only the file's first `length` bytes.
    public init(path: String, readingFirst length: Int64? = nil, streamInfo: StreamInfo = .found) throws(FFmpegError) {
        self.path = path
        FFmpegLog.applyDefault()
        CorruptPacketLog.install()
        input = LocalInput(path: path, readingFirst: length)
        let opened = try input.open()
        CorruptPacketLog.watch(opened)
        if Self.storesDecodingTimesOnly(opened) { opened.pointee.flags |= AVFMT_FLAG_GENPTS }
        claimedSizes = (0..<Int(opened.pointee.nb_streams)).map { index in
            // FFmpeg fills `streams[0..<nb_streams]`, each with its `codecpar`.
            let parameters = opened.pointee.streams[index]!.pointee.codecpar.pointee
            return (Int(parameters.width), Int(parameters.height))
        }
        do {
            if streamInfo == .found || !Self.headerIsComplete(opened) { try Self.findStreamInfo(opened) }
        } catch {
            CorruptPacketLog.forget(opened)
            var closing: UnsafeMutablePointer<AVFormatContext>? = opened
            avformat_close_input(&closing)
            throw error
        }
        self.context = opened
    }

    /// Filled in, an AVI's presentation times start one frame per reordered picture after its
    /// decoding times (XVID's first picture at 1/30 s, its sound at 0), though the file states
    /// both streams start at 0 and FFmpeg's `start_time` says so. The first video packet read
    /// (a keyframe) says by how much; every later one is shifted back as much, so the pictures
    /// keep the place the file states for them.
    private func shiftReordered(_ packet: Packet) {
        let index = packet.streamIndex
        guard context.pointee.flags & AVFMT_FLAG_GENPTS != 0,
              stream(index).pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO else { return }
        let shift = reorderShift[index] ?? {
            let first = packet.isKeyframe ? Swift.max((packet.pts ?? 0) - (packet.dts ?? 0), 0) : 0
            reorderShift[index] = first
            return first
        }()
        guard shift > 0 else { return }
        packet.pts = packet.pts.map { $0 - shift }
        packet.dts = packet.dts.map { $0 - shift }
    }

    /// `avformat_find_stream_info`, which decodes a few pictures of each stream: with the
    /// decoders' `max_pixels` at the budget, so that a header stating a huge picture fails
    /// there instead of allocating it.
    private static func findStreamInfo(_ context: UnsafeMutablePointer<AVFormatContext>) throws(FFmpegError) {
        var options = [OpaquePointer?](repeating: nil, count: Int(context.pointee.nb_streams))
        for index in options.indices { av_dict_set(&options[index], "max_pixels", String(MediaLimits.maxPixels), 0) }
        defer { for index in options.indices { av_dict_free(&options[index]) } }
        try check(options.withUnsafeMutableBufferPointer { avformat_find_stream_info(context, $0.baseAddress) },
                  "avformat_find_stream_info")
    }

    /// Containers that give a video packet only its decoding time: AVI states none for a
    /// reordered stream's I- and P-frames. A muxer given such a packet sets its presentation time
    /// to its decoding time, so a copy of XVID with B-frames showed its frames out of order
    /// (two at one time). With `AVFMT_FLAG_GENPTS` (`ffmpeg -fflags +genpts`) reading fills
    /// them in from the next packets' decoding times; packets that have one are untouched.
    private static func storesDecodingTimesOnly(_ context: UnsafeMutablePointer<AVFormatContext>) -> Bool {
        String(cString: context.pointee.iformat.pointee.name) == "avi"
    }

    /// A QuickTime/MP4 header that lists every stream's samples (not fragmented: each stream
    /// states its sample count): every stream's parameters come from its sample description.
    private static func headerIsComplete(_ context: UnsafeMutablePointer<AVFormatContext>) -> Bool {
        guard String(cString: context.pointee.iformat.pointee.name).hasPrefix("mov,") else { return false }
        return (0..<Int(context.pointee.nb_streams)).allSatisfy { context.pointee.streams[$0]!.pointee.nb_frames > 0 }
    }

    deinit {
        CorruptPacketLog.forget(context)
        var context: UnsafeMutablePointer<AVFormatContext>? = context
        avformat_close_input(&context)
    }

    func stream(_ index: Int) -> UnsafeMutablePointer<AVStream> {
        context.pointee.streams[index]!   // FFmpeg fills `streams[0..<nb_streams]`; callers pass a stream's index
    }

    func bestStream(_ type: AVMediaType) -> Int? {
        let index = av_find_best_stream(context, type, -1, -1, nil, 0)
        return index >= 0 ? Int(index) : nil
    }

    /// Every stream's kind ("video", "audio", "subtitle", ...) and codec name ("aac"), in stream
    /// order: what a file vrender wrote itself (a chunked export's sound) is checked against.
    public var streamCodecs: [(kind: String, codec: String)] {
        (0..<Int(context.pointee.nb_streams)).map { index in
            let parameters = stream(index).pointee.codecpar.pointee
            return (Self.name(of: parameters.codec_type), String(cString: avcodec_get_name(parameters.codec_id)))
        }
    }

    /// FFmpeg's name of a kind of stream ("video", "audio"), "unknown" for none.
    static func name(of type: AVMediaType) -> String {
        av_get_media_type_string(type).map { String(cString: $0) } ?? "unknown"
    }

    /// FFmpeg's name of stream `index`'s pixel format ("yuv420p"), "unknown" for none: what
    /// probing records, and what a take opened again is compared with (`difference(from:)`).
    func pixelFormatName(ofStream index: Int) -> String {
        av_get_pix_fmt_name(AVPixelFormat(rawValue: stream(index).pointee.codecpar.pointee.format)).map { String(cString: $0) } ?? "unknown"
    }

    /// Time base of stream `index`.
    public func timeBase(ofStream index: Int) -> Rational {
        let base = stream(index).pointee.time_base
        return Rational(Int(base.num), Int(base.den))
    }

    /// How long one coded audio frame of stream `index` plays, in the stream's time base
    /// (AAC: 1024 samples), whatever shorter duration the container gives a take's last packet
    /// to trim it; nil when the codec's frames vary in size.
    public func audioFrameDuration(ofStream index: Int) -> Int64? {
        let parameters = stream(index).pointee.codecpar.pointee
        guard parameters.frame_size > 0, parameters.sample_rate > 0 else { return nil }
        return av_rescale_q(Int64(parameters.frame_size), AVRational(num: 1, den: parameters.sample_rate),
                            stream(index).pointee.time_base)
    }

    /// Reads the next packet into `packet` (`av_read_frame`). Returns false at the end of the
    /// file. A read error in the middle of a file also ends it: what was read so far is kept,
    /// and the caller counts the file as damaged via `hitReadError`.
    public func read(into packet: Packet) -> Bool {
        packet.unref()
        let result = av_read_frame(context, packet.pointer)
        if result == vr_averror_eof() { return false }
        if result < 0 {
            hitReadError = true
            return false
        }
        shiftReordered(packet)
        return true
    }

    /// Moves reading to the keyframe of stream `index` at or before `seconds` (in the file's
    /// own clock), as the container's index places it (`av_seek_frame`, backward). Returns
    /// false when the container cannot seek; where reading then stands is undefined. The
    /// caller checks where it landed: some containers land late.
    public func seek(stream index: Int, toSeconds seconds: Double) -> Bool {
        let timestamp = Int64((seconds / timeBase(ofStream: index).doubleValue).rounded(.down))
        return av_seek_frame(context, Int32(index), timestamp, AVSEEK_FLAG_BACKWARD) >= 0
    }

    /// Packets FFmpeg found corrupt while reading this file so far (probing included), whether
    /// or not the flag reached a packet read (`CorruptPacketLog`).
    public var corruptPacketsFound: Int { CorruptPacketLog.entries(for: context).count }

    /// When the first of them was, in seconds of the file's clock (nil: none, or no time).
    public var firstCorruptPacketSeconds: Double? {
        CorruptPacketLog.entries(for: context).compactMap { entry -> Double? in
            guard let dts = entry.dts, entry.stream >= 0, entry.stream < Int(context.pointee.nb_streams) else { return nil }
            return Double(dts) * timeBase(ofStream: entry.stream).doubleValue
        }.min()
    }

    /// True when reading stopped at damaged data rather than at the end of the file.
    public private(set) var hitReadError = false

    /// The container's metadata tags (`creation_time`, `comment`, `major_brand`, …) as FFmpeg
    /// reads them from the file's header.
    public var metadata: [String: String] {
        var tags: [String: String] = [:]
        var entry: UnsafeMutablePointer<AVDictionaryEntry>?
        while let next = av_dict_get(context.pointee.metadata, "", entry, AV_DICT_IGNORE_SUFFIX) {
            tags[String(cString: next.pointee.key)] = String(cString: next.pointee.value)
            entry = next
        }
        return tags
    }
}
