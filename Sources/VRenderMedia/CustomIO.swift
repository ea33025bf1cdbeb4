internal import CFFmpeg
import Glibc

/// What vrender's own FFmpeg I/O contexts share (`DescriptorIO` over a file it opened,
/// `MemoryIO` over bytes in memory): an `AVIOContext` with a buffer of its own, whose callbacks
/// find their Swift owner through the context's opaque pointer, and FFmpeg's seek arithmetic.
enum CustomIO {
    typealias Transfer = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32
    typealias Seek = @convention(c) (UnsafeMutableRawPointer?, Int64, Int32) -> Int64

    /// A context calling `read`, `write` and `seek`; nil when memory runs out. Its owner sets
    /// `opaque` to itself once it exists: FFmpeg calls nothing before then.
    static func makeContext(bufferSize: Int, writable: Bool, read: Transfer, write: Transfer,
                            seek: Seek) -> UnsafeMutablePointer<AVIOContext>? {
        guard let buffer = av_malloc(bufferSize) else { return nil }
        guard let context = avio_alloc_context(buffer.assumingMemoryBound(to: UInt8.self), Int32(bufferSize),
                                               writable ? 1 : 0, nil, read, write, seek) else {
            av_free(buffer)
            return nil
        }
        return context
    }

    /// Frees a context `makeContext` made, with its buffer (FFmpeg may have replaced it).
    static func free(_ context: UnsafeMutablePointer<AVIOContext>) {
        av_freep(&context.pointee.buffer)
        var freed: UnsafeMutablePointer<AVIOContext>? = context
        avio_context_free(&freed)
    }

    /// The position a seek callback is asked for (`whence`: SEEK_SET, SEEK_CUR or SEEK_END, maybe
    /// with AVSEEK_FORCE), or a negative error: an unknown `whence`, a position before the
    /// start, or `size()`'s own error. `size` is asked only for SEEK_END. (AVSEEK_SIZE, a
    /// question rather than a move, is each owner's to answer first.)
    static func seekTarget(offset: Int64, whence: Int32, position: Int64, size: () -> Int64) -> Int64 {
        let target: Int64
        switch whence & ~AVSEEK_FORCE {
        case SEEK_SET: target = offset
        case SEEK_CUR: target = position + offset
        case SEEK_END:
            let end = size()
            guard end >= 0 else { return end }
            target = end + offset
        default: return Int64(-EINVAL)
        }
        return target >= 0 ? target : Int64(-EINVAL)
    }
}
