internal import CFFmpeg
import VRenderCore

/// Which video codec to encode with. `auto` is the seed's rule: HEVC when an HEVC encoder
/// opens, H.264 otherwise.
public enum VideoCodecChoice: String, Sendable, CaseIterable {
    case auto, hevc, h264
    /// FFV1, lossless: outputs can be compared bit for bit.
    case ffv1
    /// VP9 and AV1: what a .webm file can hold.
    case vp9, av1

    /// True for codecs that take x264/x265's preset and crf.
    public var takesRateControl: Bool { [.auto, .hevc, .h264].contains(self) }

    /// Encoders to try, in order. Hardware encoders are looked up by name but fail to open on
    /// most machines, so candidates are chosen by actually opening them.
    package var candidates: [String] {
        switch self {
        case .auto: return ["libx265", "libx264"]
        case .hevc: return ["libx265"]
        case .h264: return ["libx264"]
        case .ffv1: return ["ffv1"]
        case .vp9: return ["libvpx-vp9"]
        case .av1: return ["libsvtav1", "libaom-av1"]
        }
    }

    /// Encoder options besides size and rate, per encoder: fast settings that keep quality
    /// (x264/x265 take `preset`/`crf`; libvpx and libaom a CPU budget and constant quality).
    /// `lowLatency`: every frame leaves the encoder as soon as it is encoded (no B-frames, no
    /// look-ahead), so a capture killed mid-take loses only what it had not yet handed over.
    /// `fixedKeyframes`: a keyframe every `gop` frames and nowhere else, closed GOPs (chunked
    /// exports: every chunk starts a GOP where an unchunked encode would). `threads` > 0 caps
    /// x265's thread pool too (FFmpeg passes no count on to it). `tuning`: a delivery preset's
    /// B-frames, closed GOPs and (x264) profile.
    func options(encoder: String, preset: String, crf: Int?, lowLatency: Bool = false,
                 fixedKeyframes gop: Int? = nil, threads: Int = 0, tuning: VideoTuning? = nil) -> [String: String] {
        let quality = crf.map { ["crf": String($0)] } ?? [:]
        let tuned = (tuning?.bFrames.map { ["bframes=\($0)"] } ?? []) + (tuning?.keyframeInterval == nil ? [] : ["open-gop=0"])
        switch encoder {
        case "libx264":
            // ultrafast already has no B-frames and no rate look-ahead (said again so that a
            // slower preset keeps them off); x264's frame threads delay output by a few frames,
            // well inside the half-second bound, and keep its throughput. x264 clamps
            // min-keyint to half of keyint: without scene cuts, keyint alone places them.
            var params = lowLatency ? ["bframes=0", "rc-lookahead=0"] : []
            if let gop { params += ["keyint=\(gop)", "scenecut=0", "open-gop=0"] }
            params += tuned
            let x264 = params.isEmpty ? [:] : ["x264-params": params.joined(separator: ":")]
            let profile = tuning?.profile.map { ["profile": $0] } ?? [:]
            return ["preset": preset].merging(x264) { $1 }.merging(profile) { $1 }.merging(quality) { $1 }
        case "libx265":
            // Not x265's zerolatency tune: it forces one frame thread, ~40% slower at 720p on
            // 2 cores; x265's own frame-thread count delays output by only a few frames.
            var params = ["log-level=error"] + (lowLatency ? ["bframes=0", "rc-lookahead=0"] : [])
            if let gop { params += ["keyint=\(gop)", "min-keyint=\(gop)", "scenecut=0", "open-gop=0"] }
            if threads > 0 { params.append("pools=\(threads)") }
            params += tuned
            return ["preset": preset, "x265-params": params.joined(separator: ":")].merging(quality) { $1 }
        case "ffv1": return ["slicecrc": "1"]
        case "libvpx-vp9": return ["deadline": "good", "cpu-used": "5", "row-mt": "1", "crf": String(crf ?? 32)]
        case "libsvtav1": return ["preset": "10", "crf": String(crf ?? 35)]
        case "libaom-av1": return ["cpu-used": "8", "row-mt": "1", "crf": String(crf ?? 32)]
        default: return [:]
        }
    }
}

/// What a delivery preset tells the encoder beyond codec and quality (`concat --for web`).
public struct VideoTuning: Sendable, Equatable {
    /// Peak bit rate (VBV `maxrate`, with a buffer of twice that): the quality setting's ceiling.
    public var maxBitRate: Int?
    /// A closed GOP every this many frames (scene cuts may add keyframes between).
    public var keyframeInterval: Int?
    public var bFrames: Int?
    /// H.264 profile ("high").
    public var profile: String?

    public init(maxBitRate: Int? = nil, keyframeInterval: Int? = nil, bFrames: Int? = nil, profile: String? = nil) {
        (self.maxBitRate, self.keyframeInterval, self.bFrames, self.profile) = (maxBitRate, keyframeInterval, bFrames, profile)
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
    /// Colours the pictures mean, written into the bitstream and the container; nil leaves
    /// them unspecified (capture, whose camera states none).
    public var colour: ColourDescription?
    /// 10-bit 4:2:0 (`yuv420p10le`, HEVC Main 10) instead of 8-bit: HDR stays HDR.
    public var tenBit: Bool = false
    /// Live capture: no B-frames and no look-ahead, so packets leave with their frames.
    public var lowLatency: Bool = false
    /// A keyframe exactly every `keyframeInterval` frames, no scene-cut keyframes, closed
    /// GOPs: what a chunk of a chunked export is encoded with, so that chunks rendered apart
    /// join by stream copy and keyframes sit where they would in one encode.
    public var fixedKeyframes: Bool = false
    /// A delivery preset's bit-rate cap, GOP, B-frames and profile (nil: the encoder's own).
    public var tuning: VideoTuning?

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

    init(context: UnsafeMutablePointer<AVCodecContext>, name: String) {
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
            context.pointee.pix_fmt = settings.tenBit ? AV_PIX_FMT_YUV420P10LE : AV_PIX_FMT_YUV420P
            context.pointee.color_range = AVCOL_RANGE_MPEG
            if let colour = settings.colour {
                context.pointee.color_primaries = AVColorPrimaries(rawValue: UInt32(colour.primaries))
                context.pointee.color_trc = AVColorTransferCharacteristic(rawValue: UInt32(colour.transfer))
                context.pointee.colorspace = AVColorSpace(rawValue: UInt32(colour.matrix))
            }
            if candidate == "libvpx-vp9" || candidate == "libaom-av1" { context.pointee.bit_rate = 0 }
            context.pointee.time_base = AVRational(num: Int32(settings.frameRate.denominator), den: Int32(settings.frameRate.numerator))
            context.pointee.framerate = AVRational(num: Int32(settings.frameRate.numerator), den: Int32(settings.frameRate.denominator))
            context.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
            context.pointee.thread_count = Int32(settings.threads)
            if let interval = settings.keyframeInterval { context.pointee.gop_size = Int32(interval) }
            let fixedGOP = settings.fixedKeyframes ? settings.keyframeInterval : nil
            if let fixedGOP {
                context.pointee.keyint_min = Int32(fixedGOP)
                context.pointee.flags |= Int32(bitPattern: AV_CODEC_FLAG_CLOSED_GOP)
            }
            if globalHeader { context.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
            var options: OpaquePointer?
            if let tuning = settings.tuning { tune(context, tuning) }
            for (key, value) in settings.codec.options(encoder: candidate, preset: settings.preset, crf: settings.crf,
                                                       lowLatency: settings.lowLatency, fixedKeyframes: fixedGOP,
                                                       threads: settings.threads, tuning: settings.tuning) {
                av_dict_set(&options, key, value, 0)
            }
            if candidate == "ffv1" { context.pointee.level = 3 }   // FFV1 version 3: sliced, multithreaded
            let opened = avcodec_open2(context, codec, &options)
            av_dict_free(&options)
            if opened >= 0 { return encoder }
            failures.append("\(candidate): \(FFmpegError.describe(opened))")
        }
        throw VRenderError(.runtime, subject: "--codec \(settings.codec.rawValue)",
                           reason: "no encoder could be opened (\(failures.joined(separator: "; ")))")
    }

    /// A delivery preset's settings every encoder reads from its context: the VBV cap (a buffer
    /// of two seconds at the cap), a closed GOP and the B-frames (x264/x265's own params come
    /// from `VideoCodecChoice.options`).
    private static func tune(_ context: UnsafeMutablePointer<AVCodecContext>, _ tuning: VideoTuning) {
        if let cap = tuning.maxBitRate {
            context.pointee.rc_max_rate = Int64(cap)
            context.pointee.rc_buffer_size = Int32(clamping: cap * 2)
        }
        if let interval = tuning.keyframeInterval {
            context.pointee.gop_size = Int32(interval)
            context.pointee.flags |= Int32(bitPattern: AV_CODEC_FLAG_CLOSED_GOP)
        }
        if let frames = tuning.bFrames { context.pointee.max_b_frames = Int32(frames) }
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

    /// Opus at 48 kHz stereo, for .webm (libopus: interleaved float samples).
    public static func opus(channels: Int = 2, bitRate: Int = 128_000, globalHeader: Bool) throws -> Encoder {
        guard let codec = avcodec_find_encoder_by_name("libopus") else {
            throw VRenderError(.runtime, subject: "audio", reason: "no libopus encoder in this FFmpeg (needed for .webm)")
        }
        guard let context = avcodec_alloc_context3(codec) else { fatalError("avcodec_alloc_context3: out of memory") }
        let encoder = Encoder(context: context, name: "libopus")
        context.pointee.sample_fmt = AV_SAMPLE_FMT_FLT
        context.pointee.sample_rate = 48_000
        av_channel_layout_default(&context.pointee.ch_layout, Int32(channels))
        context.pointee.bit_rate = Int64(bitRate)
        context.pointee.time_base = AVRational(num: 1, den: 48_000)
        if globalHeader { context.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
        try check(avcodec_open2(context, codec, nil), "avcodec_open2(libopus)")
        return encoder
    }

    /// 32-bit float PCM (little-endian) at 48 kHz stereo: an archive's lossless sound.
    public static func pcmFloat(sampleRate: Int = 48_000, channels: Int = 2, globalHeader: Bool) throws -> Encoder {
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_PCM_F32LE) else {
            throw VRenderError(.runtime, subject: "audio", reason: "no pcm_f32le encoder in this FFmpeg")
        }
        guard let context = avcodec_alloc_context3(codec) else { fatalError("avcodec_alloc_context3: out of memory") }
        let encoder = Encoder(context: context, name: "pcm_f32le")
        context.pointee.sample_fmt = AV_SAMPLE_FMT_FLT
        context.pointee.sample_rate = Int32(sampleRate)
        av_channel_layout_default(&context.pointee.ch_layout, Int32(channels))
        context.pointee.time_base = AVRational(num: 1, den: Int32(sampleRate))
        if globalHeader { context.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
        try check(avcodec_open2(context, codec, nil), "avcodec_open2(pcm_f32le)")
        return encoder
    }

    /// Samples the encoder puts before the sound (AAC's 1024 of priming): a container without
    /// edit lists plays them, so the sound is held back by as many to stay in sync.
    public var initialPadding: Int { Int(context.pointee.initial_padding) }

    /// True when the encoder takes interleaved samples (libopus) rather than planar (AAC).
    public var takesInterleavedAudio: Bool { context.pointee.sample_fmt == AV_SAMPLE_FMT_FLT }

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
