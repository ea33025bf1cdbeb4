internal import CFFmpeg
import VRenderCore

/// Owns a decoding `AVCodecContext` for one stream of a `Demuxer`. Confined to one thread.
public final class Decoder {
    let context: UnsafeMutablePointer<AVCodecContext>
    /// The stream's time base: frame timestamps are in it.
    public let timeBase: Rational
    public let streamIndex: Int
    /// Packets the codec rejected as damaged, plus frames it flagged as damaged.
    public private(set) var damaged = 0
    /// A frame shell obtained but not filled by the last receive.
    private var spare: Frame?

    /// `avcodec_parameters_to_context` + `avcodec_open2`, with frame and slice threading.
    public convenience init(demuxer: Demuxer, streamIndex: Int, threads: Int = 0) throws {
        let stream = demuxer.stream(streamIndex)
        guard let parameters = stream.pointee.codecpar else {
            throw VRenderError.input(demuxer.path, "stream \(streamIndex) has no codec parameters")
        }
        try self.init(parameters: parameters, timeBase: stream.pointee.time_base, streamIndex: streamIndex,
                      path: demuxer.path, threads: threads)
    }

    /// A decoder for the stream `setup` was copied from, on any thread (the demuxer may be gone).
    public convenience init(setup: CodecSetup, threads: Int = 0) throws {
        try self.init(parameters: setup.parameters, timeBase: setup.timeBase, streamIndex: setup.streamIndex,
                      path: setup.path, threads: threads)
    }

    private init(parameters: UnsafeMutablePointer<AVCodecParameters>, timeBase: AVRational, streamIndex: Int,
                 path: String, threads: Int) throws {
        guard let codec = avcodec_find_decoder(parameters.pointee.codec_id) else {
            throw VRenderError.input(path, "no decoder for codec '\(String(cString: avcodec_get_name(parameters.pointee.codec_id)))'")
        }
        guard let context = avcodec_alloc_context3(codec) else { fatalError("avcodec_alloc_context3: out of memory") }
        self.context = context
        self.streamIndex = streamIndex
        self.timeBase = Rational(Int(timeBase.num), Int(timeBase.den))
        try check(avcodec_parameters_to_context(context, parameters), "avcodec_parameters_to_context")
        context.pointee.pkt_timebase = timeBase
        context.pointee.thread_count = Int32(threads)
        context.pointee.thread_type = FF_THREAD_FRAME | FF_THREAD_SLICE
        // A picture over the budget (a size change mid-stream) is refused as damaged, not allocated.
        context.pointee.max_pixels = Int64(MediaLimits.maxPixels)
        try check(avcodec_open2(context, codec, nil), "avcodec_open2(\(String(cString: codec.pointee.name)))")
    }

    deinit {
        var context: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&context)
    }

    /// Sends one packet (nil flushes) and hands every frame the codec returns to `output`.
    /// `makeFrame` supplies the frame shells to decode into (usually from a pool).
    /// Damaged data is counted in `damaged` and skipped, never thrown: a file with a few bad
    /// packets still exports.
    public func decode(_ packet: Packet?, makeFrame: () -> Frame, output: (Frame) throws -> Void) throws {
        while true {
            let sent = avcodec_send_packet(context, packet?.pointer)
            switch try codecStatusCountingDamage(sent, "avcodec_send_packet") {
            case .again:
                // The codec wants us to take frames out before it accepts more input.
                try drain(makeFrame: makeFrame, output: output)
                continue
            case .ok, .endOfStream:
                try drain(makeFrame: makeFrame, output: output)
                return
            }
        }
    }

    private func drain(makeFrame: () -> Frame, output: (Frame) throws -> Void) throws {
        while true {
            let frame = spare ?? makeFrame()
            spare = nil
            let received = avcodec_receive_frame(context, frame.pointer)
            guard try codecStatusCountingDamage(received, "avcodec_receive_frame") == .ok else {
                spare = frame  // unused: keep it for the next call instead of allocating again
                return
            }
            if frame.isDamaged { damaged += 1 }
            try output(frame)
        }
    }

    /// Like `codecStatus`, but damaged input (INVALIDDATA and friends) is counted and reported
    /// as "nothing more now" instead of thrown. Only an out-of-memory class of failure throws.
    private func codecStatusCountingDamage(_ result: Int32, _ function: String) throws -> CodecStatus {
        do {
            return try codecStatus(result, function)
        } catch {
            if error.code == -ENOMEM { throw error }
            damaged += 1
            return .endOfStream
        }
    }

    /// Forgets everything decoded so far (`avcodec_flush_buffers`): the next packet is decoded
    /// as by a decoder just opened, so a decoder reused for another stream of the same setup
    /// (`CodecSetup.decodesAlike`) carries nothing of the last one over. `damaged` keeps counting.
    public func reset() {
        avcodec_flush_buffers(context)
    }

    /// When true, frames no other frame refers to (H.264 `nal_ref_idc` 0, HEVC's sub-layer
    /// non-reference pictures: most B-frames) are dropped unread (`AVDISCARD_NONREF`): for
    /// packets decoded only as references for frames after them, as smart rendering's before
    /// its cut. Takes effect from the next packet sent.
    public var skipsNonReferenceFrames: Bool {
        get { context.pointee.skip_frame == AVDISCARD_NONREF }
        set { context.pointee.skip_frame = newValue ? AVDISCARD_NONREF : AVDISCARD_DEFAULT }
    }

    /// A decoded frame's timestamp in seconds (best effort: pts, else dts-derived), nil if none.
    public func seconds(of frame: Frame) -> Double? {
        frame.bestEffortTimestamp.map { Double($0) * timeBase.doubleValue }
    }
}
