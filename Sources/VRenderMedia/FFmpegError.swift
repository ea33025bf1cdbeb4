internal import CFFmpeg
import Synchronization
import VRenderCore

/// A failed FFmpeg call: the function's name, its return code and `av_strerror`'s text.
public struct FFmpegError: Error, CustomStringConvertible, Sendable {
    public let function: String
    public let code: Int32
    public let message: String

    init(_ function: String, code: Int32) {
        self.function = function
        self.code = code
        self.message = FFmpegError.describe(code)
    }

    static func describe(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        if av_strerror(code, &buffer, buffer.count) < 0 {
            return "error \(code)"
        }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    public var description: String { "\(function): \(message)" }

    /// True for "end of file" (AVERROR_EOF).
    public var isEndOfFile: Bool { code == vr_averror_eof() }
}

/// The one chokepoint for FFmpeg return codes: negative means failure, as every libav* call
/// documents. Returns the non-negative value for calls that return a count or an index.
@discardableResult
@inline(__always)
func check(_ result: Int32, _ function: @autoclosure () -> String) throws(FFmpegError) -> Int32 {
    if result < 0 { throw FFmpegError(function(), code: result) }
    return result
}

/// What `avcodec_send_*` / `avcodec_receive_*` may answer besides an error, named as in
/// avcodec.h. EAGAIN and EOF are states of the codec, not failures.
enum CodecStatus {
    /// The call did its job.
    case ok
    /// AVERROR(EAGAIN): for send, "receive output first"; for receive, "send more input first".
    case again
    /// AVERROR_EOF: the codec was flushed and has nothing more to give.
    case endOfStream
}

@inline(__always)
func codecStatus(_ result: Int32, _ function: @autoclosure () -> String) throws(FFmpegError) -> CodecStatus {
    if result >= 0 { return .ok }
    if result == vr_averror_eagain() { return .again }
    if result == vr_averror_eof() { return .endOfStream }
    throw FFmpegError(function(), code: result)
}

/// Silences FFmpeg's own logging (vrender reports problems itself, naming the file), or lets
/// warnings through for `--verbose`.
public enum FFmpegLog {
    /// Whether a level was chosen already, by `configure` or by the first file opened.
    private static let configured = Mutex(false)

    public static func configure(verbose: Bool) {
        configured.withLock { configured in
            configured = true
            av_log_set_level(verbose ? AV_LOG_WARNING : AV_LOG_QUIET)
        }
    }

    /// Library default, applied when a file is first opened: quiet, unless a program already
    /// chose with `configure`.
    static func applyDefault() {
        configured.withLock { configured in
            guard !configured else { return }
            configured = true
            av_log_set_level(AV_LOG_QUIET)
        }
    }
}
