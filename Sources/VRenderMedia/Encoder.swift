internal import CFFmpeg
import VRenderCore

/// Which video codec to encode with. `auto` is the seed's rule: HEVC when an HEVC encoder
/// opens, H.264 otherwise.
public enum VideoCodecChoice: String, Sendable, CaseIterable {
    case auto, hevc, h264
    /// FFV1, lossless: outputs can be compared bit for bit.
    case ffv1

    /// True for codecs that take x264/x265's preset and crf.
    var takesRateControl: Bool { self != .ffv1 }

    /// Encoders to try, in order. Hardware encoders are looked up by name but fail to open on
    /// most machines, so candidates are chosen by actually opening them.
    var candidates: [String] {
        switch self {
        case .auto: return ["libx265", "libx264"]
        case .hevc: return ["libx265"]
        case .h264: return ["libx264"]
        case .ffv1: return ["ffv1"]
        }
    }
}

public struct VideoEncoderSettings: Sendable {
    public var codec: VideoCodecChoice
    public var width: Int
    public var height: Int
    public var frameRate: Rational
    /// Constant rate factor; nil uses the encoder's default (x264 23, x265 28).
    public var crf: Int?
    /// x264/x265 preset name.
    public var preset: String
    /// Encoder threads; 0 lets the encoder choose.
    public var threads: Int
    /// Frames between keyframes; nil keeps the encoder's default. Capture sets one second so a
    /// fragmented take loses at most a second when the process dies.
    public var keyframeInterval: Int?

    public init(codec: VideoCodecChoice, width: Int, height: Int, frameRate: Rational,
                crf: Int? = nil, preset: String = "veryfast", threads: Int = 0, keyframeInterval: Int? = nil) {
        self.codec = codec
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.crf = crf
        self.preset = preset
        self.threads = threads
        self.keyframeInterval = keyframeInterval
    }
}

/// Owns an encoding `AVCodecContext` (video or audio). Confined to one thread.
public final class Encoder {
    let context: UnsafeMutablePointer<AVCodecContext>
    /// Name of the encoder that opened ("libx264", "aac", ...).
    public let name: String

    private init(context: UnsafeMutablePointer<AVCodecContext>, name: String) {
        self.context = context
        self.name = name
    }

    deinit {
        var context: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&context)
    }

    /// Opens the first candidate encoder that works. `globalHeader` must be set when the
    /// container keeps codec headers out of band (mov, mp4, mkv: `AVFMT_GLOBALHEADER`).
    public static func video(_ settings: VideoEncoderSettings, globalHeader: Bool) throws -> Encoder {
        var failures: [String] = []
        for candidate in settings.codec.candidates {
            guard let codec = avcodec_find_encoder_by_name(candidate) else {
                failures.append("\(candidate): not built into this FFmpeg")
                continue
            }
            guard let context = avcodec_alloc_context3(codec) else { fatalError("avcodec_alloc_context3: out of memory") }
            let encoder = Encoder(context: context, name: candidate)
            context.pointee.width = Int32(settings.width)
            context.pointee.height = Int32(settings.height)
            context.pointee.pix_fmt = AV_PIX_FMT_YUV420P
            context.pointee.color_range = AVCOL_RANGE_MPEG
            context.pointee.time_base = AVRational(num: Int32(settings.frameRate.denominator), den: Int32(settings.frameRate.numerator))
            context.pointee.framerate = AVRational(num: Int32(settings.frameRate.numerator), den: Int32(settings.frameRate.denominator))
            context.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
            context.pointee.thread_count = Int32(settings.threads)
            if let interval = settings.keyframeInterval { context.pointee.gop_size = Int32(interval) }
            if globalHeader { context.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
            var options: OpaquePointer?
            if settings.codec.takesRateControl {
                av_dict_set(&options, "preset", settings.preset, 0)
                if let crf = settings.crf { av_dict_set(&options, "crf", String(crf), 0) }
            } else {
                context.pointee.level = 3            // FFV1 version 3: sliced, multithreaded
                av_dict_set(&options, "slicecrc", "1", 0)
            }
            if candidate == "libx265" { av_dict_set(&options, "x265-params", "log-level=error", 0) }
            let opened = avcodec_open2(context, codec, &options)
            av_dict_free(&options)
            if opened >= 0 { return encoder }
            failures.append("\(candidate): \(FFmpegError.describe(opened))")
        }
        throw VRenderError(.runtime, subject: "--codec \(settings.codec.rawValue)",
                           reason: "no encoder could be opened (\(failures.joined(separator: "; ")))")
    }

    /// AAC at 48 kHz stereo (the export's one audio format).
    public static func aac(sampleRate: Int = 48_000, channels: Int = 2, bitRate: Int = 160_000,
                           globalHeader: Bool) throws -> Encoder {
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_AAC) else {
            throw VRenderError(.runtime, subject: "audio", reason: "no AAC encoder in this FFmpeg")
        }
        guard let context = avcodec_alloc_context3(codec) else { fatalError("avcodec_alloc_context3: out of memory") }
        let encoder = Encoder(context: context, name: String(cString: codec.pointee.name))
        context.pointee.sample_fmt = AV_SAMPLE_FMT_FLTP
        context.pointee.sample_rate = Int32(sampleRate)
        av_channel_layout_default(&context.pointee.ch_layout, Int32(channels))
        context.pointee.bit_rate = Int64(bitRate)
        context.pointee.time_base = AVRational(num: 1, den: Int32(sampleRate))
        if globalHeader { context.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
        try check(avcodec_open2(context, codec, nil), "avcodec_open2(aac)")
        return encoder
    }

    /// The encoder's time base: frame `pts` must be given in it, packets come out in it.
    public var timeBase: Rational {
        Rational(Int(context.pointee.time_base.num), Int(context.pointee.time_base.den))
    }

    /// Samples per audio frame the encoder expects (1024 for AAC).
    public var frameSize: Int { Int(context.pointee.frame_size) }

    /// Sends one frame (nil flushes) and hands every packet produced to `output`. The frame's
    /// buffers are only referenced, never copied, and the encoder is done with them (or holds
    /// its own reference) when this returns.
    /// `makePacket` supplies a packet for each output; `output` takes ownership of it.
    public func encode(_ frame: Frame?, makePacket: () -> Packet, output: (Packet) throws -> Void) throws {
        while true {
            switch try codecStatus(avcodec_send_frame(context, frame?.pointer), "avcodec_send_frame(\(name))") {
            case .again:
                try drain(makePacket: makePacket, output: output)
            case .ok, .endOfStream:
                try drain(makePacket: makePacket, output: output)
                return
            }
        }
    }

    private func drain(makePacket: () -> Packet, output: (Packet) throws -> Void) throws {
        while true {
            let packet = makePacket()
            guard try codecStatus(avcodec_receive_packet(context, packet.pointer), "avcodec_receive_packet(\(name))") == .ok else {
                return
            }
            try output(packet)
        }
    }
}
