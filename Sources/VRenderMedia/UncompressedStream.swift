internal import CFFmpeg
import Glibc
import VRenderCore

/// The containers `vrender camera` streams uncompressed pictures in, each what some reader
/// takes from a pipe: YUV4MPEG2 (ffmpeg, GStreamer's `y4mdec`, Chromium's
/// `--use-file-for-fake-video-capture`), NUT (pictures and float PCM sound together), and bare
/// 4:2:0 planes (`rawvideo`: the reader must be told the size and rate).
public enum UncompressedContainer: String, CaseIterable, Sendable {
    case y4m, nut, rawvideo

    /// A name whose extension makes `av_guess_format` pick the muxer.
    var formatPath: String {
        switch self {
        case .y4m: "stream.y4m"
        case .nut: "stream.nut"
        case .rawvideo: "stream.yuv"
        }
    }

    /// True when the container carries the synthetic microphone's sound beside the pictures.
    public var holdsSound: Bool { self == .nut }

    /// The container a file's name asks for: .nut, or .yuv/.raw (rawvideo); y4m for any other
    /// name and for standard output (`-`), so `-o feed.nut` is never y4m in a .nut.
    public static func implied(by path: String) -> UncompressedContainer {
        switch path.split(separator: "/").last?.split(separator: ".").last?.lowercased() {
        case "nut": .nut
        case "yuv", "raw": .rawvideo
        default: .y4m
        }
    }
}

/// The reader of a pipe went away (EPIPE): not a failure of the writer, which ends cleanly.
public struct OutputReaderGone: Error, Sendable, CustomStringConvertible {
    /// The output that lost its reader ("standard output", a FIFO's path).
    public let output: String
    public var description: String { "\(output): the reader closed it" }
}

/// Writes uncompressed 4:2:0 pictures, and in NUT float PCM sound, to a descriptor (a file, a
/// FIFO, a pipe) through libavformat. A pipe is written in order (`DescriptorIO`), never
/// seeked. Pictures reach y4m by reference (`wrapped_avframe`: no copy) and the others as
/// `rawvideo` packets (one copy). Confined to one thread.
public final class UncompressedStreamWriter {
    private let muxer: Muxer
    private let video: Encoder
    private let videoStream: Int
    private let sound: (encoder: Encoder, stream: Int, frame: Frame, channels: Int)?
    private var samplesWritten: Int64 = 0
    private let packet = Packet()

    /// - Parameters:
    ///   - descriptor: where the stream goes (duplicated: the caller keeps its own).
    ///   - name: what errors call it ("standard output", a path).
    ///   - soundFormat: rate and channels of the sound, for a container that `holdsSound`.
    public init(descriptor: Int32, name: String, container: UncompressedContainer, width: Int, height: Int,
                frameRate: Rational, soundFormat: (rate: Int, channels: Int)?) throws {
        muxer = try Muxer(descriptor: descriptor, path: name, formatPath: container.formatPath)
        muxer.writeReproducibly()
        video = try Self.pictureEncoder(wrapped: container == .y4m, width: width, height: height, frameRate: frameRate)
        videoStream = try muxer.addStream(from: video)
        if let soundFormat, container.holdsSound {
            let encoder = try Self.soundEncoder(rate: soundFormat.rate, channels: soundFormat.channels)
            sound = (encoder, try muxer.addStream(from: encoder), Frame(), soundFormat.channels)
        } else {
            sound = nil
        }
        try writing { try muxer.writeHeader() }
    }

    /// Writes picture number `index` (its time is index / rate).
    public func write(picture frame: Frame, index: Int64) throws {
        frame.prepareForEncoding(pts: index)
        try writing {
            try video.encode(frame, makePacket: { packet }) { try muxer.write($0, stream: videoStream) }
        }
    }

    /// Appends `count` sample frames of interleaved 32-bit float sound, following the last ones.
    public func write(samples: UnsafeRawBufferPointer, count: Int) throws {
        guard let sound, count > 0 else { return }
        let frame = sound.frame.pointer
        av_frame_unref(frame)
        frame.pointee.format = AV_SAMPLE_FMT_FLT.rawValue
        frame.pointee.sample_rate = sound.encoder.context.pointee.sample_rate
        frame.pointee.nb_samples = Int32(count)
        av_channel_layout_default(&frame.pointee.ch_layout, Int32(sound.channels))
        try check(av_frame_get_buffer(frame, 0), "av_frame_get_buffer(sound)")
        let bytes = count * sound.channels * MemoryLayout<Float>.size
        precondition(samples.count >= bytes, "the samples hold fewer than \(count) frames")
        // av_frame_get_buffer succeeded, so plane 0 exists.
        memcpy(frame.pointee.data.0!, samples.baseAddress!, bytes)
        frame.pointee.pts = samplesWritten
        samplesWritten += Int64(count)
        try writing {
            try sound.encoder.encode(sound.frame, makePacket: { packet }) { try muxer.write($0, stream: sound.stream) }
        }
    }

    /// Writes what the muxer still holds and its trailer.
    public func finish() throws {
        try writing { try muxer.finish() }
    }

    /// Runs a write; a reader that went away (EPIPE) becomes `OutputReaderGone`.
    private func writing(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch {
            if muxer.lastOutputError == -EPIPE { throw OutputReaderGone(output: muxer.subject) }
            throw error
        }
    }

    private static func pictureEncoder(wrapped: Bool, width: Int, height: Int, frameRate: Rational) throws -> Encoder {
        let name = wrapped ? "wrapped_avframe" : "rawvideo"
        guard let codec = avcodec_find_encoder_by_name(name), let context = avcodec_alloc_context3(codec) else {
            throw VRenderError(.runtime, subject: "camera stream", reason: "no \(name) encoder in this FFmpeg")
        }
        let encoder = Encoder(context: context, name: name)
        context.pointee.width = Int32(width)
        context.pointee.height = Int32(height)
        context.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        context.pointee.color_range = AVCOL_RANGE_MPEG
        context.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
        context.pointee.time_base = AVRational(num: Int32(frameRate.denominator), den: Int32(frameRate.numerator))
        context.pointee.framerate = AVRational(num: Int32(frameRate.numerator), den: Int32(frameRate.denominator))
        try check(avcodec_open2(context, codec, nil), "avcodec_open2(\(name))")
        return encoder
    }

    private static func soundEncoder(rate: Int, channels: Int) throws -> Encoder {
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_PCM_F32LE), let context = avcodec_alloc_context3(codec) else {
            throw VRenderError(.runtime, subject: "camera stream", reason: "no pcm_f32le encoder in this FFmpeg")
        }
        let encoder = Encoder(context: context, name: "pcm_f32le")
        context.pointee.sample_fmt = AV_SAMPLE_FMT_FLT
        context.pointee.sample_rate = Int32(rate)
        av_channel_layout_default(&context.pointee.ch_layout, Int32(channels))
        context.pointee.time_base = AVRational(num: 1, den: Int32(rate))
        try check(avcodec_open2(context, codec, nil), "avcodec_open2(pcm_f32le)")
        return encoder
    }
}
