internal import CFFmpeg
import Glibc
import VRenderCore

/// How a file vrender reads reaches FFmpeg: as the local file of that name, and nothing else.
///
/// FFmpeg reads a name as a URL: `http://host/a.mov` fetches it, `pipe:0` reads standard input,
/// `subfile,,start,0,end,9,,:a.mov` reads part of another file. A concat list's entry, or a take
/// named so, was opened that way (an `http://` entry, whose decoy local path passed the existence
/// check, exported a remote video). So every input is opened:
/// - by the URL `file:` and its absolute path, so that no name, `a:b.mov` or `http:x.mov`
///   included, is read as a protocol;
/// - with `protocol_whitelist=file` (`subfile,file` for vrender's own read of a file's first
///   bytes), which whatever the open leads to inherits;
/// - through `io_open`, which opens that one URL for the context vrender opened and refuses
///   every other file a demuxer asks for: an HLS or DASH playlist's segments, an IMF package's
///   assets, a QuickTime reference; and an ffconcat script, whose demuxer opens its files
///   without `io_open`, is refused once FFmpeg names its format. An input is one file, never
///   one that names others;
/// - after opening the file itself without waiting (`O_NONBLOCK`) and checking it is a regular
///   file (a FIFO in a list, or a take swapped for one, would block FFmpeg's open for good), and
///   through that descriptor (`/proc/self/fd/N`), so the file checked is the file read.
///
/// The Demuxer keeps its `LocalInput` for as long as its context lives: FFmpeg calls back
/// through the context's `opaque` (an image is opened again for each packet read).
final class LocalInput {
    /// The URL FFmpeg is given, as the bytes it sees (NUL-terminated): set by `open`.
    private(set) var url: [CChar] = []
    let whitelist: String
    /// The file as the user named it (absolute), and its prefix to read (`readingFirst`).
    private let file: String
    private let length: Int64?
    /// The file, opened and checked by `open` (-1 before); FFmpeg reads it through `/proc`.
    private var descriptor: Int32 = -1
    /// The context the URL is opened for; a context a demuxer nests inside it (an HLS
    /// segment's) may share `opaque`, and is refused.
    private var context: UnsafeMutablePointer<AVFormatContext>?
    /// A demuxer asked for another file and was refused: what a failed open is reported as.
    private var refusedAnother = false

    /// `path` as the local file it names; `length`: only its first `length` bytes (FFmpeg's
    /// `subfile` protocol shows the demuxer a prefix of the file without copying it).
    init(path: String, readingFirst length: Int64? = nil) {
        // No current directory (removed under us): `file:` still keeps a relative name a file.
        file = FileNames.fromCurrentDirectory(path) ?? path
        self.length = length
        whitelist = length == nil ? "file" : "subfile,file"
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// The file opened read-only without waiting and checked to be a regular file (or a block
    /// device: a disk image); the URL reads it through its descriptor. A file that cannot be
    /// opened here is left to FFmpeg's open, which reports why as it always has.
    private func holdFile() throws(FFmpegError) -> String {
        guard let opened = try? Syscall.open(file, O_RDONLY | O_NONBLOCK | O_CLOEXEC) else { return file }
        var info = stat()
        let kind = fstat(opened, &info) == 0 ? info.st_mode & S_IFMT : 0
        guard kind == S_IFREG || kind == S_IFBLK else {
            Glibc.close(opened)
            throw FFmpegError("avformat_open_input", code: Self.notAFile)
        }
        descriptor = opened
        // An ffconcat script opens its files in read_header, before the check after the open
        // could refuse it (and relative to /proc/self/fd/, where "3" is a descriptor of ours):
        // its signature is what FFmpeg's concat probe matches.
        var head = [UInt8](repeating: 0, count: Self.concatSignature.count)
        if head.withUnsafeMutableBytes({ try? Syscall.pread(opened, into: $0, at: 0) }) == head.count,
           head == Self.concatSignature {
            throw FFmpegError("avformat_open_input", code: Self.namesOtherFiles)
        }
        return "/proc/self/fd/\(opened)"
    }

    private static let concatSignature = Array("ffconcat version ".utf8)

    /// `avformat_open_input` of the URL into a new context, with the whitelist and the
    /// `io_open` above. On failure FFmpeg has freed the context.
    func open() throws(FFmpegError) -> UnsafeMutablePointer<AVFormatContext> {
        let local = "file:" + (try holdFile())
        let text = length.map { "subfile,,start,0,end,\($0),,:" + local } ?? local
        url = FileNames.withPlatformPath(text) { Array(UnsafeBufferPointer(start: $0, count: strlen($0) + 1)) }
        guard let context = avformat_alloc_context() else { throw FFmpegError("avformat_alloc_context", code: -ENOMEM) }
        context.pointee.opaque = Unmanaged.passUnretained(self).toOpaque()
        context.pointee.io_open = Self.openCall
        self.context = context
        var options: OpaquePointer?
        av_dict_set(&options, "protocol_whitelist", whitelist, 0)
        defer { av_dict_free(&options) }
        var opening: UnsafeMutablePointer<AVFormatContext>? = context
        let code = url.withUnsafeBufferPointer { avformat_open_input(&opening, $0.baseAddress, nil, &options) }
        guard code >= 0, let opened = opening else {
            self.context = nil
            let reported = refusedAnother ? Self.namesOtherFiles : code < 0 ? code : vr_averror_invaliddata()
            throw FFmpegError("avformat_open_input", code: reported)
        }
        // The concat demuxer opens its script's files in contexts of its own, without `io_open`.
        if Self.scriptDemuxers.contains(String(cString: opened.pointee.iformat.pointee.name)) {
            var closing: UnsafeMutablePointer<AVFormatContext>? = opened
            avformat_close_input(&closing)
            self.context = nil
            throw FFmpegError("avformat_open_input", code: Self.namesOtherFiles)
        }
        return opened
    }

    /// Demuxers that read the files a script names through contexts `io_open` does not see.
    private static let scriptDemuxers: Set<String> = ["concat"]

    /// What a refused open answers: EPERM, which reading a local file does not give otherwise
    /// (a file that cannot be read is EACCES), so `Probe.explain` can say why.
    static let namesOtherFiles = -EPERM
    /// What a FIFO, socket, character device or folder answers: ESPIPE, which no open of a
    /// regular file gives.
    static let notAFile = -ESPIPE

    /// FFmpeg opening a file for a context: the input's own URL for the context it was opened
    /// into, read only, through the protocol whitelist (as FFmpeg's default `io_open` does);
    /// anything else is refused (`namesOtherFiles`).
    private static let openCall: @convention(c) (UnsafeMutablePointer<AVFormatContext>?, UnsafeMutablePointer<UnsafeMutablePointer<AVIOContext>?>?,
                                                 UnsafePointer<CChar>?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Int32 = { format, pb, url, flags, options in
        guard let format, let pb, let url, let owner = format.pointee.opaque else { return LocalInput.namesOtherFiles }
        // `open()` set `opaque` to the input; a context a demuxer nests inside it may copy `opaque`.
        let input = Unmanaged<LocalInput>.fromOpaque(owner).takeUnretainedValue()
        guard format == input.context, flags & AVIO_FLAG_WRITE == 0,
              input.url.withUnsafeBufferPointer({ strcmp($0.baseAddress!, url) }) == 0 else {
            input.refusedAnother = true
            return LocalInput.namesOtherFiles
        }
        guard let options else {
            var own: OpaquePointer?
            av_dict_set(&own, "protocol_whitelist", input.whitelist, 0)
            defer { av_dict_free(&own) }
            return avio_open2(pb, url, flags, &format.pointee.interrupt_callback, &own)
        }
        av_dict_set(options, "protocol_whitelist", input.whitelist, 0)
        return avio_open2(pb, url, flags, &format.pointee.interrupt_callback, options)
    }
}
