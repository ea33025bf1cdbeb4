internal import CFFmpeg
import VRenderCore

/// One stream's codec setup (`AVCodecParameters` and time base), copied out of its demuxer so
/// that it outlives it and can open a decoder on another thread (`Decoder(setup:)`): a stream
/// copy's audio check decodes a take while the next one is already being read.
// @unchecked Sendable: the parameters are copied in `init` and never changed, so threads only read them.
public final class CodecSetup: @unchecked Sendable {
    let parameters: UnsafeMutablePointer<AVCodecParameters>
    let timeBase: AVRational
    /// The file and the stream the setup was copied from (named by a decoder's errors).
    public let path: String
    public let streamIndex: Int

    /// The setup of stream `index` of `demuxer` (`avcodec_parameters_copy`).
    public init(of demuxer: Demuxer, stream index: Int) throws {
        let stream = demuxer.stream(index)
        guard let source = stream.pointee.codecpar else {
            throw VRenderError.input(demuxer.path, "stream \(index) has no codec parameters")
        }
        guard let parameters = avcodec_parameters_alloc() else { fatalError("avcodec_parameters_alloc: out of memory") }
        self.parameters = parameters
        timeBase = stream.pointee.time_base
        path = demuxer.path
        streamIndex = index
        try check(avcodec_parameters_copy(parameters, source), "avcodec_parameters_copy")
    }

    deinit {
        var parameters: UnsafeMutablePointer<AVCodecParameters>? = parameters
        avcodec_parameters_free(&parameters)
    }

    /// Whether a decoder opened with this audio setup decodes `other`'s stream exactly as one
    /// opened with `other` would, once flushed (`Decoder.reset`): every field a decoder is
    /// given (`avcodec_parameters_to_context`) is the same, but for AAC's bit rate, which its
    /// decoder never reads and each file states as its own average. False for any stream
    /// but audio: only audio decoders are reused.
    public func decodesAlike(_ other: CodecSetup) -> Bool {
        let a = parameters.pointee, b = other.parameters.pointee
        guard a.codec_type == AVMEDIA_TYPE_AUDIO, b.codec_type == AVMEDIA_TYPE_AUDIO, a.codec_id == b.codec_id,
              a.codec_tag == b.codec_tag, a.format == b.format, a.profile == b.profile, a.level == b.level,
              a.bit_rate == b.bit_rate || a.codec_id == AV_CODEC_ID_AAC,
              a.bits_per_coded_sample == b.bits_per_coded_sample, a.bits_per_raw_sample == b.bits_per_raw_sample,
              a.sample_rate == b.sample_rate, a.block_align == b.block_align, a.frame_size == b.frame_size,
              a.initial_padding == b.initial_padding, a.trailing_padding == b.trailing_padding,
              a.seek_preroll == b.seek_preroll, timeBase.num == other.timeBase.num, timeBase.den == other.timeBase.den
        else { return false }
        return withUnsafePointer(to: a.ch_layout) { left in
            withUnsafePointer(to: b.ch_layout) { right in av_channel_layout_compare(left, right) == 0 }
        } && extradata == other.extradata
    }

    /// The codec's setup bytes (AAC's AudioSpecificConfig), empty when the stream has none.
    private var extradata: [UInt8] {
        let count = Int(parameters.pointee.extradata_size)
        guard count > 0, let bytes = parameters.pointee.extradata else { return [] }
        return Array(UnsafeBufferPointer(start: bytes, count: count))
    }
}
