internal import CFFmpeg
import Glibc
import VRenderCore

/// Owns an output `AVFormatContext` writing to a file vrender created itself (a descriptor:
/// `AtomicFile.open()` or `FolderHandle.createExclusive`), in the container chosen by
/// `formatPath`'s extension (so a temporary file can be written in the final file's format).
/// FFmpeg never opens a file by name here: its I/O goes through `DescriptorIO`, and a muxer
/// that reopens its output (the QuickTime muxer moving its index to the front) gets another
/// context on the same descriptor; any other name is refused. Confined to one thread.
public final class Muxer {
    let context: UnsafeMutablePointer<AVFormatContext>
    /// The name the file is known by (its temporary's, for an export).
    public let path: String
    /// What errors name: `path`, or the file the user asked for when `path` is its hidden
    /// temporary file.
    public let subject: String
    /// What the chosen container can hold and needs (QuickTime family, rotation, ...).
    public let container: OutputContainer
    var sourceTimeBases: [AVRational] = []
    private var headerWritten = false
    /// The file the muxer writes; the muxer's own duplicate, closed when it finishes.
    private let descriptor: Int32
    /// The main context (`pb`) once the header is written.
    private var output: DescriptorIO?
    /// Contexts the muxer opened itself through `io_open` (reading the file back), until it
    /// closes them through `io_close2`.
    private var reopened: [DescriptorIO] = []

    /// `avformat_alloc_output_context2` with the format guessed from `formatPath`, writing to
    /// `descriptor` (duplicated: the caller keeps its own). `path`: the file's name, for
    /// messages; `reportingAs`: the name errors give the file (the output an export's temporary
    /// file becomes).
    public init(descriptor: Int32, path: String, formatPath: String, reportingAs: String? = nil) throws {
        container = try OutputContainer(path: formatPath)
        guard let format = av_guess_format(nil, formatPath, nil) else {
            throw VRenderError.output(formatPath, "unknown container for this file extension")
        }
        var context: UnsafeMutablePointer<AVFormatContext>?
        // The URL is a name only: `io_open` below answers the muxer's reopening of it.
        try check(FileNames.withPlatformPath(path) { avformat_alloc_output_context2(&context, format, nil, $0) },
                  "avformat_alloc_output_context2")
        // `check` threw unless FFmpeg returned 0, which it does only with a context.
        guard let context else { throw FFmpegError("avformat_alloc_output_context2", code: -ENOMEM) }
        let copy = dup(descriptor)
        guard copy >= 0 else {
            let failure = SystemError.last   // before `avformat_free_context` can change it
            avformat_free_context(context)
            throw VRenderError.output(reportingAs ?? path, failure.reason("cannot write"))
        }
        self.context = context
        self.descriptor = copy
        self.path = path
        self.subject = reportingAs ?? path
        self.context.pointee.opaque = Unmanaged.passUnretained(self).toOpaque()
        self.context.pointee.io_open = Self.openCall
        self.context.pointee.io_close2 = Self.closeCall
    }

    deinit {
        if output != nil { _ = closeOutput() }
        for io in reopened { _ = io.close() }
        avformat_free_context(context)
        close(descriptor)
    }

    /// FFmpeg reopening the output (the QuickTime muxer's `faststart` reads it back): another
    /// context on the same file. Any other name is refused: an output never leads a muxer to
    /// open a second file.
    private static let openCall: @convention(c) (UnsafeMutablePointer<AVFormatContext>?, UnsafeMutablePointer<UnsafeMutablePointer<AVIOContext>?>?,
                                                 UnsafePointer<CChar>?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Int32 = { format, pb, url, flags, _ in
        guard let format, let pb, let url, let own = format.pointee.url, strcmp(url, own) == 0 else { return -EPERM }
        guard let owner = format.pointee.opaque else { return -EPERM }   // set with `io_open`, in `init`
        let muxer = Unmanaged<Muxer>.fromOpaque(owner).takeUnretainedValue()
        let io: DescriptorIO
        do throws(SystemError) { io = try DescriptorIO.open(muxer.descriptor, writable: flags & AVIO_FLAG_WRITE != 0) } catch { return -error.code }
        muxer.reopened.append(io)
        pb.pointee = io.context
        return 0
    }

    private static let closeCall: @convention(c) (UnsafeMutablePointer<AVFormatContext>?, UnsafeMutablePointer<AVIOContext>?) -> Int32 = { format, pb in
        guard let format, let pb, let owner = format.pointee.opaque else { return 0 }
        let muxer = Unmanaged<Muxer>.fromOpaque(owner).takeUnretainedValue()
        guard let index = muxer.reopened.firstIndex(where: { $0.context == pb }) else { return 0 }
        return muxer.reopened.remove(at: index).close()
    }

    /// Closes the main context, flushing what it still buffers; FFmpeg's error or 0.
    private func closeOutput() -> Int32 {
        guard let output else { return 0 }
        self.output = nil
        context.pointee.pb = nil
        return output.close()
    }

    /// True when the container wants codec headers out of band (`AVFMT_GLOBALHEADER`).
    public var needsGlobalHeader: Bool { context.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 }

    /// Adds a stream fed by `encoder` (`avcodec_parameters_from_context`). Returns its index.
    public func addStream(from encoder: Encoder) throws -> Int {
        guard let stream = avformat_new_stream(context, nil) else { fatalError("avformat_new_stream: out of memory") }
        try check(avcodec_parameters_from_context(stream.pointee.codecpar, encoder.context), "avcodec_parameters_from_context")
        stream.pointee.time_base = encoder.context.pointee.time_base
        if encoder.context.pointee.codec_type == AVMEDIA_TYPE_VIDEO {
            stream.pointee.avg_frame_rate = encoder.context.pointee.framerate
        }
        tagForPlayers(stream)
        sourceTimeBases.append(encoder.context.pointee.time_base)
        return Int(stream.pointee.index)
    }

    /// Adds a stream that receives packets copied unchanged from `demuxer`'s stream `index`.
    public func addStream(copying index: Int, of demuxer: Demuxer) throws -> Int {
        let source = demuxer.stream(index)
        guard let stream = avformat_new_stream(context, nil) else { fatalError("avformat_new_stream: out of memory") }
        try check(avcodec_parameters_copy(stream.pointee.codecpar, source.pointee.codecpar), "avcodec_parameters_copy")
        stream.pointee.codecpar.pointee.codec_tag = Self.copyTag(for: source.pointee.codecpar, in: context.pointee.oformat)
        stream.pointee.time_base = source.pointee.time_base
        stream.pointee.avg_frame_rate = source.pointee.avg_frame_rate
        // The pixel shape the container states wins over the codec's, as players read it (a DV
        // .avi's 10:11 over the bitstream's 8:9); both are written so every muxer keeps it.
        if source.pointee.sample_aspect_ratio.num > 0, source.pointee.sample_aspect_ratio.den > 0 {
            stream.pointee.sample_aspect_ratio = source.pointee.sample_aspect_ratio
            stream.pointee.codecpar.pointee.sample_aspect_ratio = source.pointee.sample_aspect_ratio
        }
        tagForPlayers(stream)
        sourceTimeBases.append(source.pointee.time_base)
        return Int(stream.pointee.index)
    }

    /// The codec tag a copied stream keeps: the source's own when it means the same codec in
    /// this container (ProRes 4444 stays `ap4h`: a decoder reads the profile from the tag), or
    /// when the container has no tag of its own for the codec; otherwise 0, so the muxer picks
    /// its tag (an .mkv's `H264` means nothing in .mov).
    static func copyTag(for parameters: UnsafeMutablePointer<AVCodecParameters>,
                        in format: UnsafePointer<AVOutputFormat>) -> UInt32 {
        let tag = parameters.pointee.codec_tag, codec = parameters.pointee.codec_id
        guard tag != 0 else { return 0 }
        guard let tables = format.pointee.codec_tag else { return tag }
        if av_codec_get_id(tables, tag) == codec { return tag }
        var containerTag: UInt32 = 0
        return av_codec_get_tag2(tables, codec, &containerTag) == 0 ? tag : 0
    }

    /// The time base packets of stream `index` are given to `write` in.
    public func sourceTimeBase(ofStream index: Int) -> Rational {
        Rational(Int(sourceTimeBases[index].num), Int(sourceTimeBases[index].den))
    }

    /// Makes the file a function of its packets alone (`AVFMT_FLAG_BITEXACT`): no random
    /// identifiers (Matroska's segment and track UIDs), no library version tag, so the same
    /// export gives the same bytes on every run. Call before `writeHeader`.
    public func writeReproducibly() {
        context.pointee.flags |= AVFMT_FLAG_BITEXACT
    }

    /// Header options for a finished export: .mov/.mp4 get their index (`moov`) moved before
    /// the media data, so a browser or player can start before the whole file has arrived.
    public var finishedFileOptions: [String: String] { finishedFileOptions(editLists: true) }

    /// As `finishedFileOptions`; without edit lists (a web upload's .mp4) the video's B-frame
    /// delay is written as negative composition offsets, so its first picture still shows at 0.
    public func finishedFileOptions(editLists: Bool) -> [String: String] {
        guard container.isQuickTimeFamily else { return [:] }
        return editLists ? ["movflags": "+faststart"] : ["movflags": "+faststart+negative_cts_offsets", "use_editlist": "0"]
    }

    /// HEVC in QuickTime/MP4 must be tagged `hvc1` for Apple's players (FFmpeg picks `hev1`).
    private func tagForPlayers(_ stream: UnsafeMutablePointer<AVStream>) {
        if stream.pointee.codecpar.pointee.codec_id == AV_CODEC_ID_HEVC && container.isQuickTimeFamily {
            stream.pointee.codecpar.pointee.codec_tag = 0x3163_7668  // MKTAG('h','v','c','1')
        }
    }

    /// Stores a display matrix on a stream so players rotate it (`av_stream_new_side_data`).
    public func setDisplayMatrix(_ matrix: [Int32], stream index: Int) {
        precondition(matrix.count == 9)
        guard let data = av_stream_new_side_data(context.pointee.streams[index], AV_PKT_DATA_DISPLAYMATRIX, 36) else { return }
        matrix.withUnsafeBytes { data.update(from: $0.bindMemory(to: UInt8.self).baseAddress!, count: 36) }
    }

    /// Sets a container-level metadata tag (`creation_time`, `comment`, …); call before
    /// `writeHeader`, which writes the tags the container can hold.
    public func setMetadata(_ key: String, _ value: String) {
        av_dict_set(&context.pointee.metadata, key, value, 0)
    }

    /// Gives the muxer its file and writes the container header (`avformat_write_header`).
    /// `options` are the muxer's private options, e.g. `["movflags": "frag_keyframe+empty_moov"]`.
    public func writeHeader(options: [String: String] = [:]) throws {
        if context.pointee.oformat.pointee.flags & AVFMT_NOFILE == 0 {
            let io: DescriptorIO
            do { io = try DescriptorIO.open(descriptor, writable: true) } catch {
                throw VRenderError.output(subject, error.reason("cannot write"))
            }
            output = io
            context.pointee.pb = io.context
        }
        var dictionary: OpaquePointer?
        for (key, value) in options { av_dict_set(&dictionary, key, value, 0) }
        defer { av_dict_free(&dictionary) }
        try writing { try check(avformat_write_header(context, &dictionary), "avformat_write_header") }
        headerWritten = true
    }

    /// Writes a packet of stream `index`, whose timestamps are in that stream's source time base
    /// (the encoder's or the copied stream's), interleaving streams by time
    /// (`av_interleaved_write_frame` takes the packet's data; the packet is left blank).
    public func write(_ packet: Packet, stream index: Int) throws {
        packet.streamIndex = index
        av_packet_rescale_ts(packet.pointer, sourceTimeBases[index], context.pointee.streams[index]!.pointee.time_base)   // `addStream` made stream `index`
        try writing { try check(av_interleaved_write_frame(context, packet.pointer), "av_interleaved_write_frame") }
    }

    /// The output's I/O error once a write failed (a negative errno: -EPIPE when a pipe's reader
    /// went away), else 0.
    public private(set) var lastOutputError: Int32 = 0

    /// Runs a muxer call. When it fails because the file could not be written (the output's
    /// I/O context holds an error: disk full, file too large, folder gone), the error names the
    /// output and the system's reason; other failures (bad timestamps) stay FFmpeg's.
    private func writing(_ call: () throws -> Void) throws {
        do {
            try call()
        } catch {
            guard let io = context.pointee.pb, io.pointee.error < 0 else { throw error }
            lastOutputError = io.pointee.error
            throw VRenderError.output(subject, "cannot write (\(FFmpegError.describe(io.pointee.error)))")
        }
    }

    /// Fragmented QuickTime written with `movflags=frag_custom`: ends the fragment being built
    /// (`av_write_frame(NULL)`) and hands it to the kernel (`avio_flush`), so it survives the
    /// process being killed. Returns the file's size after it: every byte before belongs to a
    /// complete fragment. Throws when the write failed (disk full, file too large, …).
    public func flushFragment() throws -> Int64 {
        try writing {
            try check(av_write_frame(context, nil), "av_write_frame(flush)")
            avio_flush(context.pointee.pb)
            try check(context.pointee.pb.pointee.error, "avio_flush")
        }
        return avio_tell(context.pointee.pb)
    }

    /// Flushes interleaving buffers, writes the index (`av_write_trailer`) and closes the file.
    public func finish() throws {
        guard headerWritten else { return }
        try writing { try check(av_write_trailer(context), "av_write_trailer") }
        // Closing writes what is still buffered: its failure is a write failure too.
        let closed = closeOutput()
        if closed < 0 {
            lastOutputError = closed
            throw VRenderError.output(subject, "cannot write (\(FFmpegError.describe(closed)))")
        }
    }
}

/// Packet timestamp access for the stream-copy path, which shifts packets in time.
extension Packet {
    /// Presentation / decoding timestamps, nil when the packet has none.
    public var pts: Int64? {
        get { pointer.pointee.pts == vr_nopts_value() ? nil : pointer.pointee.pts }
        set { pointer.pointee.pts = newValue ?? vr_nopts_value() }
    }

    public var dts: Int64? {
        get { pointer.pointee.dts == vr_nopts_value() ? nil : pointer.pointee.dts }
        set { pointer.pointee.dts = newValue ?? vr_nopts_value() }
    }

    public var duration: Int64 {
        get { pointer.pointee.duration }
        set { pointer.pointee.duration = newValue }
    }
}
