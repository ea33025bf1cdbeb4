internal import CFFmpeg
import Synchronization
// For ThreadSanitizer builds: VRenderCore's `Mutex` then shadows Synchronization's, which TSan
// cannot follow (VRenderCore/TSanMutex.swift); without it TSan reported a race on `entries`.
import VRenderCore

/// Counts, per demuxer, the packets FFmpeg's demuxing layer found corrupt. The flag on a
/// packet (`Packet.isCorrupt`) does not always survive to `av_read_frame`: a transport stream's
/// H.264 goes through a parser, and a damaged piece that holds no frame start is merged into
/// its neighbours with the flag dropped. FFmpeg still says so, as the warning "Packet corrupt
/// (stream = N, dts = T)" logged against the demuxer's context: this log callback counts those
/// warnings by context, then hands every message to FFmpeg's own printer (which applies the
/// level `FFmpegLog` set, so nothing more is printed than before).
/// It also counts the errors logged against a watched decoder (`watchErrors`): what
/// `ffmpeg -v error` would print decoding the same packets (`KeyframeScan.startDecodesCleanly`).
enum CorruptPacketLog {
    /// One warning: the stream and decoding time (in the stream's time base) it names.
    struct Entry: Sendable, Equatable {
        let stream: Int
        let dts: Int64?
    }

    /// Context address -> its warnings. Typed by inference (see VRenderCore/TSanMutex.swift).
    private static let entries = Mutex([Int: [Entry]]())
    private static let installed = Mutex(false)
    /// Decoder context address -> errors logged against it.
    private static let errors = Mutex([Int: Int]())

    /// Installs the callback once per process (idempotent, from any thread).
    static func install() {
        installed.withLock { installed in
            guard !installed else { return }
            installed = true
            setCallback()
        }
    }

    /// Starts counting for a demuxer context just opened (only watched contexts are counted,
    /// so an address FFmpeg reuses never inherits another file's warnings).
    static func watch(_ context: UnsafeMutableRawPointer) {
        entries.withLock { $0[Int(bitPattern: context)] = [] }
    }

    /// Warnings logged so far against the demuxer context at `context`.
    static func entries(for context: UnsafeMutableRawPointer) -> [Entry] {
        entries.withLock { $0[Int(bitPattern: context)] ?? [] }
    }

    /// Forgets a context being closed (its address may be reused).
    static func forget(_ context: UnsafeMutableRawPointer) {
        _ = entries.withLock { $0.removeValue(forKey: Int(bitPattern: context)) }
    }

    /// Starts counting the errors logged against a decoder context (`forgetErrors` when done).
    static func watchErrors(_ context: UnsafeMutableRawPointer) {
        errors.withLock { $0[Int(bitPattern: context)] = 0 }
    }

    /// Errors logged so far against the watched context at `context`; forgets it.
    static func forgetErrors(_ context: UnsafeMutableRawPointer) -> Int {
        errors.withLock { $0.removeValue(forKey: Int(bitPattern: context)) ?? 0 }
    }

    private static let prefix = Array("Packet corrupt".utf8CString.dropLast())

    /// The callback. The warning is formatted here (its arguments can be read once) and handed
    /// on as text; every other message goes to FFmpeg's printer untouched. A closure literal,
    /// so that Swift spells the platform's `va_list` itself.
    private static func setCallback() {
        av_log_set_callback { context, level, format, arguments in
            guard let arguments else { return }
            if let context, level <= AV_LOG_ERROR {
                CorruptPacketLog.errors.withLock { counts in counts[Int(bitPattern: context)]? += 1 }
            }
            guard let context, let format, level == AV_LOG_WARNING,
                  strncmp(format, CorruptPacketLog.prefix, CorruptPacketLog.prefix.count) == 0 else {
                av_log_default_callback(context, level, format, arguments)
                return
            }
            var buffer = [CChar](repeating: 0, count: 256)
            _ = vsnprintf(&buffer, buffer.count, format, arguments)
            let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            CorruptPacketLog.entries.withLock { $0[Int(bitPattern: context)]?.append(CorruptPacketLog.parse(text)) }
            buffer.withUnsafeBufferPointer { formatted in
                withVaList([formatted.baseAddress!]) { av_log_default_callback(context, level, "%s", $0) }
            }
        }
    }

    /// "Packet corrupt (stream = 0, dts = 311011)." -> stream 0, dts 311011 ("NOPTS": nil).
    static func parse(_ text: String) -> Entry {
        func number(after label: String) -> Int64? {
            guard let range = text.range(of: label) else { return nil }
            return Int64(text[range.upperBound...].prefix { $0 == "-" || $0.isNumber })
        }
        return Entry(stream: Int(number(after: "stream = ") ?? -1), dts: number(after: "dts = "))
    }
}
