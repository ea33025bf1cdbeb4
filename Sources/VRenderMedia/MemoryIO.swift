internal import CFFmpeg
import Glibc

/// An FFmpeg I/O context (`AVIOContext`) over bytes in memory, seekable, which a muxer writes
/// and a demuxer then reads back: a whole small file that never touches the disk
/// (`OutputContainer`'s read-back of a copy). Confined to one thread.
final class MemoryIO {
    let context: UnsafeMutablePointer<AVIOContext>
    private(set) var bytes: [UInt8] = []
    private var position = 0

    private static let bufferSize = 16 * 1024
    /// A read-back holds a header and a few packets; anything larger is refused, not grown.
    private static let maximumSize = 64 * 1024 * 1024

    /// An empty file to write, or `bytes` to read.
    init?(reading bytes: [UInt8]? = nil) {
        guard let context = CustomIO.makeContext(bufferSize: Self.bufferSize, writable: bytes == nil,
                                                 read: Self.readCall, write: Self.writeCall, seek: Self.seekCall) else {
            return nil
        }
        self.context = context
        self.bytes = bytes ?? []
        context.pointee.opaque = Unmanaged.passUnretained(self).toOpaque()
    }

    /// Writes out what is buffered (a writer's last step before `bytes` is read).
    func flush() {
        if context.pointee.write_flag != 0 { avio_flush(context) }
    }

    deinit {
        CustomIO.free(context)
    }

    /// Opens `bytes` as a file is opened (`avformat_open_input`, its header read) and hands the
    /// demuxing context to `body`; nil when they are not a file FFmpeg can read.
    static func withInput<T>(_ bytes: [UInt8], _ body: (UnsafeMutablePointer<AVFormatContext>) -> T) -> T? {
        guard let io = MemoryIO(reading: bytes) else { return nil }
        return withExtendedLifetime(io) {
            var opened: UnsafeMutablePointer<AVFormatContext>? = avformat_alloc_context()
            opened?.pointee.pb = io.context
            // On failure avformat_open_input frees the context (never a custom I/O context).
            guard avformat_open_input(&opened, nil, nil, nil) >= 0, let context = opened else { return nil }
            defer {
                var closing: UnsafeMutablePointer<AVFormatContext>? = context
                avformat_close_input(&closing)
            }
            return body(context)
        }
    }

    private static func owner(_ opaque: UnsafeMutableRawPointer?) -> MemoryIO {
        // `init` set `opaque` to this object before FFmpeg could call back through the context.
        Unmanaged<MemoryIO>.fromOpaque(opaque!).takeUnretainedValue()
    }

    private static let readCall: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32 = { opaque, buffer, size in
        let io = owner(opaque)
        let count = Swift.min(Int(size), io.bytes.count - io.position)
        guard count > 0, let buffer else { return vr_averror_eof() }
        io.bytes.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress! + io.position, count: count) }
        io.position += count
        return Int32(count)
    }

    private static let writeCall: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32 = { opaque, buffer, size in
        let io = owner(opaque)
        let count = Int(size)
        guard let buffer, io.position + count <= maximumSize else { return -ENOSPC }
        if io.bytes.count < io.position + count { io.bytes += repeatElement(0, count: io.position + count - io.bytes.count) }
        io.bytes.withUnsafeMutableBufferPointer { ($0.baseAddress! + io.position).update(from: buffer, count: count) }
        io.position += count
        return size
    }

    private static let seekCall: @convention(c) (UnsafeMutableRawPointer?, Int64, Int32) -> Int64 = { opaque, offset, whence in
        let io = owner(opaque)
        if whence & AVSEEK_SIZE != 0 { return Int64(io.bytes.count) }
        let target = CustomIO.seekTarget(offset: offset, whence: whence, position: Int64(io.position)) { Int64(io.bytes.count) }
        guard target >= 0, target <= Int64(maximumSize) else { return target < 0 ? target : Int64(-EINVAL) }
        io.position = Int(target)
        return target
    }
}
