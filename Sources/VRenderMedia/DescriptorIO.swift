internal import CFFmpeg
import Glibc
import VRenderCore

/// An FFmpeg I/O context (`AVIOContext`) over a file vrender opened itself, so that FFmpeg never
/// opens an output by name: the file was created exclusively, without following links
/// (`AtomicFile`, `FolderHandle.createExclusive`), and FFmpeg writes exactly that file.
///
/// It keeps its own position and uses `pread`/`pwrite`, so two contexts on one file (the
/// QuickTime muxer reads the file back through a second one to move its index to the front)
/// never disturb each other's place. It holds its own duplicate of the descriptor. Confined to
/// the muxer's thread, as the muxer is.
///
/// A descriptor that cannot seek (a pipe, a FIFO, a socket: `vrender camera -o -`) is written in
/// order with `write`, and the context says it cannot seek, so muxers write what a stream needs.
final class DescriptorIO {
    let context: UnsafeMutablePointer<AVIOContext>
    private let descriptor: Int32
    private var position: Int64 = 0
    /// True for a pipe, FIFO or socket (`lseek` fails with ESPIPE).
    private let isStream: Bool

    private static let bufferSize = 64 * 1024

    /// A context reading, or writing too when `writable`, the file `descriptor` refers to (the
    /// descriptor is duplicated: the caller keeps and closes its own).
    static func open(_ descriptor: Int32, writable: Bool) throws(SystemError) -> DescriptorIO {
        let copy = dup(descriptor)
        guard copy >= 0 else { throw SystemError.last }
        guard let io = DescriptorIO(copy: copy, writable: writable) else {
            Glibc.close(copy)
            throw SystemError(code: ENOMEM)   // FFmpeg could not allocate the context or its buffer
        }
        return io
    }

    private init?(copy: Int32, writable: Bool) {
        descriptor = copy
        isStream = lseek(copy, 0, SEEK_CUR) < 0 && SystemError.last.code == ESPIPE
        guard let context = CustomIO.makeContext(bufferSize: Self.bufferSize, writable: writable,
                                                 read: Self.readCall, write: Self.writeCall, seek: Self.seekCall) else {
            return nil
        }
        self.context = context
        context.pointee.opaque = Unmanaged.passUnretained(self).toOpaque()
        if isStream { context.pointee.seekable = 0 }
    }

    /// Flushes what is buffered and frees the context. Returns FFmpeg's error for a failed write
    /// (flushed now or earlier), else 0.
    func close() -> Int32 {
        if context.pointee.write_flag != 0 { avio_flush(context) }
        let error = context.pointee.error
        CustomIO.free(context)
        Glibc.close(descriptor)
        return error
    }

    private static func owner(_ opaque: UnsafeMutableRawPointer?) -> DescriptorIO {
        // `init` set `opaque` to this object before FFmpeg could call back through the context.
        Unmanaged<DescriptorIO>.fromOpaque(opaque!).takeUnretainedValue()
    }

    private static let readCall: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32 = { opaque, buffer, size in
        let io = owner(opaque)
        guard let buffer else { return -EINVAL }
        do throws(SystemError) {
            let count = try Syscall.pread(io.descriptor, into: UnsafeMutableRawBufferPointer(start: buffer, count: Int(size)), at: io.position)
            if count == 0 { return vr_averror_eof() }
            io.position += Int64(count)
            return Int32(count)
        } catch {
            return -error.code
        }
    }

    private static let writeCall: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32 = { opaque, buffer, size in
        let io = owner(opaque)
        guard let buffer else { return -EINVAL }
        do throws(SystemError) {
            try Syscall.writeAll(io.descriptor, UnsafeRawBufferPointer(start: buffer, count: Int(size)),
                                 at: io.isStream ? nil : io.position)
        } catch {
            return -error.code
        }
        io.position += Int64(size)
        return size
    }

    private static let seekCall: @convention(c) (UnsafeMutableRawPointer?, Int64, Int32) -> Int64 = { opaque, offset, whence in
        let io = owner(opaque)
        if io.isStream { return Int64(-ESPIPE) }
        if whence & AVSEEK_SIZE != 0 { return io.fileSize() }
        let target = CustomIO.seekTarget(offset: offset, whence: whence, position: io.position, size: io.fileSize)
        if target >= 0 { io.position = target }
        return target
    }

    /// The file's size, or a negative error.
    private func fileSize() -> Int64 {
        var info = stat()
        return fstat(descriptor, &info) == 0 ? Int64(info.st_size) : Int64(-SystemError.last.code)
    }
}
