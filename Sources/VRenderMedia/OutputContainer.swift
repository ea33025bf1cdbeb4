internal import CFFmpeg
import VRenderCore

/// What an output container can hold, asked of FFmpeg's muxer itself. `avformat_query_codec`
/// is not enough: it says yes to VP9, AV1 and Opus in .mov, which the muxer then refuses in
/// `avformat_write_header`. So each question is a dry run of the real muxer's set-up
/// (`avformat_init_output`) writing into memory.
public struct OutputContainer: Sendable {
    /// FFmpeg's short name: "mov", "mp4", "matroska", "webm".
    public let name: String
    /// The path whose extension chose the container.
    public let path: String

    /// The container for `path`'s extension (`av_guess_format`).
    public init(path: String) throws {
        guard let format = av_guess_format(nil, path, nil) else {
            throw VRenderError.output(path, "unknown container for this file extension (use .mov, .mp4, .mkv or .webm)")
        }
        self.name = String(cString: format.pointee.name)
        self.path = path
    }

    /// The QuickTime family (.mov, .mp4, .m4v): display matrices, `hvc1`, faststart.
    public var isQuickTimeFamily: Bool { ["mov", "mp4", "ipod", "ismv"].contains(name) }

    /// True when the container stores a display matrix, so a rotation can stay metadata.
    /// FFmpeg 5.1's Matroska/WebM muxer writes none: pixels must be turned upright there.
    public var carriesRotation: Bool { isQuickTimeFamily }

    /// True for WebM: only VP8/VP9/AV1 video and Vorbis/Opus audio.
    public var isWebM: Bool { name == "webm" }

    /// Nil when the muxer accepts a stream copy of stream `index` of the file at `source`, and
    /// a reader gets it back as it went in; otherwise why not, in words.
    public func refusalToCopy(stream index: Int, of source: String) -> String? {
        guard let demuxer = try? Demuxer(path: source) else { return "\(source) cannot be read" }
        let input = demuxer.stream(index)
        let codec = String(cString: avcodec_get_name(input.pointee.codecpar.pointee.codec_id))
        let accepted = dryRun { context in
            guard let stream = avformat_new_stream(context, nil) else { return false }
            guard avcodec_parameters_copy(stream.pointee.codecpar, input.pointee.codecpar) >= 0 else { return false }
            stream.pointee.codecpar.pointee.codec_tag = Muxer.copyTag(for: input.pointee.codecpar, in: context.pointee.oformat)
            stream.pointee.time_base = input.pointee.time_base
            return true
        }
        guard accepted else { return "a .\(fileExtension) file (\(name)) cannot hold \(codec)" }
        // The dry run checks the setup, not what a reader gets back (`readBackLoss`).
        return readBackLoss(stream: index, of: demuxer).map {
            "a .\(fileExtension) file (\(name)) cannot hold \(codec) as it is: written and read back, \($0)"
        }
    }

    private var fileExtension: String {
        path.split(separator: ".").last.map(String.init)?.lowercased() ?? name
    }

    /// Sets up the real muxer on a memory buffer with the streams `addStreams` adds, and says
    /// whether it accepted them (`avformat_init_output` checks codecs and tags; some muxers check
    /// only when the header is written: WebM takes VP8/VP9/AV1 video only).
    private func dryRun(_ addStreams: (UnsafeMutablePointer<AVFormatContext>) -> Bool) -> Bool {
        var context: UnsafeMutablePointer<AVFormatContext>?
        guard avformat_alloc_output_context2(&context, nil, nil, path) >= 0, let context else { return false }
        defer {
            if let pb = context.pointee.pb {
                var buffer: UnsafeMutablePointer<UInt8>?
                _ = avio_close_dyn_buf(pb, &buffer)
                av_free(buffer)
                context.pointee.pb = nil
            }
            avformat_free_context(context)
        }
        guard addStreams(context), avio_open_dyn_buf(&context.pointee.pb) >= 0 else { return false }
        return avformat_init_output(context, nil) >= 0 && avformat_write_header(context, nil) >= 0
    }
}
