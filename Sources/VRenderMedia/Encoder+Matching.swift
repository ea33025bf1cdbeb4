internal import CFFmpeg
import VRenderCore

/// An encoder that continues a copied stream (`concat`'s smart rendering: only the frames
/// around a cut are encoded again, the whole groups of pictures between are copied): what a
/// decoder of the copied stream must meet unchanged comes from that stream's own setup.
extension Encoder {
    /// Opens `encoder` ("libx264", "libx265") with `setup`'s codec, size, pixel format,
    /// profile, level, colours (primaries, transfer, matrix, range, chroma siting), sample
    /// aspect and field order (`avcodec_parameters_to_context`), in the stream's own time base,
    /// at `frameRate`. `options` are the encoder's own (preset, crf, x264-params). No global
    /// header: each keyframe carries its parameter sets in band, as Annex B.
    public static func matching(_ setup: CodecSetup, encoder name: String, frameRate: Rational,
                                options: [String: String]) throws -> Encoder {
        guard let codec = avcodec_find_encoder_by_name(name) else {
            throw VRenderError(.runtime, subject: name, reason: "this FFmpeg has no \(name) encoder")
        }
        guard codec.pointee.id == setup.parameters.pointee.codec_id else {
            throw VRenderError(.runtime, subject: name, reason: "does not encode \(setup.codecName)")
        }
        guard let context = avcodec_alloc_context3(codec) else { fatalError("avcodec_alloc_context3: out of memory") }
        let encoder = Encoder(context: context, name: name)
        try check(avcodec_parameters_to_context(context, setup.parameters), "avcodec_parameters_to_context")
        // What the copied stream's setup says of its own encoding is not asked of this one:
        // its parameter sets (the new ones go in band), its bit rate (the quality is `options`').
        av_freep(&context.pointee.extradata)
        context.pointee.extradata_size = 0
        context.pointee.bit_rate = 0
        context.pointee.codec_tag = 0
        context.pointee.time_base = setup.timeBase
        context.pointee.pkt_timebase = setup.timeBase
        context.pointee.framerate = AVRational(num: Int32(frameRate.numerator), den: Int32(frameRate.denominator))
        context.pointee.max_b_frames = 0
        context.pointee.flags |= Int32(bitPattern: AV_CODEC_FLAG_CLOSED_GOP)
        var dictionary: OpaquePointer?
        for (key, value) in options { av_dict_set(&dictionary, key, value, 0) }
        let opened = avcodec_open2(context, codec, &dictionary)
        av_dict_free(&dictionary)
        if opened < 0 {
            throw VRenderError(.runtime, subject: name, reason: "cannot encode like \(setup.path)'s \(setup.codecName) "
                               + "(\(setup.pixelFormatName)): \(FFmpegError.describe(opened))")
        }
        return encoder
    }
}

extension CodecSetup {
    /// FFmpeg's name of the codec ("h264", "hevc").
    public var codecName: String { String(cString: avcodec_get_name(parameters.pointee.codec_id)) }

    /// FFmpeg's name of the pixel format ("yuv420p").
    public var pixelFormatName: String {
        av_get_pix_fmt_name(AVPixelFormat(rawValue: parameters.pointee.format)).map { String(cString: $0) } ?? "unknown"
    }

    /// True when the pictures are coded as fields (as probing's decode found them): an encoder
    /// continuing the stream would have to match how each field is coded, which is not asked of it.
    public var isInterlaced: Bool {
        let order = parameters.pointee.field_order
        return order != AV_FIELD_PROGRESSIVE && order != AV_FIELD_UNKNOWN
    }

    /// The codec's profile and level numbers (FFmpeg's), -99 when unknown.
    public var profileAndLevel: (profile: Int, level: Int) {
        (Int(parameters.pointee.profile), Int(parameters.pointee.level))
    }
}

extension Frame {
    /// The frame's presentation time as the decoder places it (best effort), in the stream's
    /// time base; nil when it has none.
    public var decodedTimestamp: Int64? { bestEffortTimestamp }
}

extension Packet {
    /// The packet's bytes (a copy).
    public var bytes: [UInt8] {
        guard let data = pointer.pointee.data, pointer.pointee.size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: Int(pointer.pointee.size)))
    }

    /// Replaces the packet's bytes with `bytes`, keeping its times, flags and side data.
    public func replaceBytes(_ bytes: [UInt8]) throws {
        guard let buffer = av_buffer_alloc(bytes.count + Int(AV_INPUT_BUFFER_PADDING_SIZE)) else {
            fatalError("av_buffer_alloc: out of memory")
        }
        let data = UnsafeMutableRawPointer(buffer.pointee.data!)
        data.initializeMemory(as: UInt8.self, repeating: 0, count: Int(buffer.pointee.size))
        bytes.withUnsafeBytes { source in
            if let base = source.baseAddress { data.copyMemory(from: base, byteCount: bytes.count) }
        }
        av_buffer_unref(&pointer.pointee.buf)
        pointer.pointee.buf = buffer
        pointer.pointee.data = buffer.pointee.data
        pointer.pointee.size = Int32(bytes.count)
    }
}
