#if canImport(Glibc)
import Glibc
#endif
internal import CV4L2

/// The driver's buffers of one direction (a camera's capture buffers, or an output device's
/// buffers vrender fills), mapped into this process (V4L2 memory-mapped streaming I/O).
///
/// Owns the mappings (`mmap` / `munmap`) and releases the driver's buffers (VIDIOC_REQBUFS with
/// count 0) when it goes; keeps its device open until then. Confined to the owner's thread.
final class V4L2BufferQueue {
    struct Mapping {
        let start: UnsafeMutableRawPointer
        let length: Int
    }

    let device: V4L2Device
    /// V4L2_BUF_TYPE_VIDEO_CAPTURE or V4L2_BUF_TYPE_VIDEO_OUTPUT.
    let type: v4l2_buf_type
    private(set) var mappings: [Mapping] = []

    /// VIDIOC_REQBUFS (mmap, `count` buffers; the driver may grant another number), then
    /// VIDIOC_QUERYBUF and `mmap` for each. Needs at least two buffers: with one, every frame
    /// that arrives while the previous one is being converted is lost.
    init(device: V4L2Device, count: Int, type: v4l2_buf_type = V4L2_BUF_TYPE_VIDEO_CAPTURE) throws(V4L2Error) {
        self.device = device
        self.type = type
        var request = v4l2_requestbuffers()
        request.count = UInt32(count)
        request.type = type.rawValue
        request.memory = V4L2_MEMORY_MMAP.rawValue
        try device.ioctl(.requestBuffers, &request)
        guard request.count >= 2 else {
            throw V4L2Error(call: "VIDIOC_REQBUFS (got \(request.count) buffers, need 2)", code: ENOMEM, device: device.path)
        }
        for index in 0..<request.count {
            var buffer = describe(index: Int(index))
            try device.ioctl(.queryBuffer, &buffer)
            let start = try device.map(length: Int(buffer.length), offset: buffer.m.offset)
            mappings.append(Mapping(start: start, length: Int(buffer.length)))
        }
    }

    deinit {
        for mapping in mappings { munmap(mapping.start, mapping.length) }
        var release = v4l2_requestbuffers()
        release.type = type.rawValue
        release.memory = V4L2_MEMORY_MMAP.rawValue
        _ = try? device.ioctl(.requestBuffers, &release)  // best effort: closing the node frees them too
    }

    var count: Int { mappings.count }

    /// A `v4l2_buffer` naming one of this queue's mmap buffers.
    func describe(index: Int) -> v4l2_buffer {
        var buffer = v4l2_buffer()
        buffer.index = UInt32(index)
        buffer.type = type.rawValue
        buffer.memory = V4L2_MEMORY_MMAP.rawValue
        return buffer
    }

    /// VIDIOC_QBUF: hands buffer `index` to the driver: a capture buffer to fill, or an output
    /// buffer holding `bytesUsed` bytes of a picture to show, stamped `time` (seconds).
    func enqueue(_ index: Int, bytesUsed: Int = 0, time: Double = 0) throws(V4L2Error) {
        var buffer = describe(index: index)
        if type == V4L2_BUF_TYPE_VIDEO_OUTPUT {
            buffer.bytesused = UInt32(bytesUsed)
            buffer.field = V4L2_FIELD_NONE.rawValue
            buffer.timestamp = timeval(tv_sec: Int(time), tv_usec: Int((time - time.rounded(.down)) * 1e6))
        }
        try device.ioctl(.queueBuffer, &buffer)
    }

    /// VIDIOC_QBUF for every buffer (after REQBUFS, or after STREAMOFF took them all back).
    func enqueueAll() throws(V4L2Error) {
        for index in 0..<mappings.count { try enqueue(index) }
    }

    /// VIDIOC_DQBUF: the next filled capture buffer (or shown output buffer), or nil when none
    /// is ready yet (EAGAIN).
    func dequeue() throws(V4L2Error) -> v4l2_buffer? {
        var buffer = describe(index: 0)
        guard try device.ioctl(.dequeueBuffer, &buffer) != .wouldBlock else { return nil }
        return buffer
    }

    /// The bytes of buffer `index`: `used` of them, or its whole mapping when `used` is 0.
    func bytes(of index: Int, used: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(writableBytes(of: index, used: used))
    }

    /// `bytes(of:used:)`, writable: where an output picture is written.
    func writableBytes(of index: Int, used: Int) -> UnsafeMutableRawBufferPointer {
        let mapping = mappings[index]
        let count = used > 0 ? min(used, mapping.length) : mapping.length
        return UnsafeMutableRawBufferPointer(start: mapping.start, count: count)
    }

    /// VIDIOC_STREAMON.
    func streamOn() throws(V4L2Error) {
        var type = Int32(bitPattern: type.rawValue)
        try device.ioctl(.streamOn, &type)
    }

    /// VIDIOC_STREAMOFF: stops streaming and takes every buffer back from the driver.
    func streamOff() throws(V4L2Error) {
        var type = Int32(bitPattern: type.rawValue)
        try device.ioctl(.streamOff, &type)
    }
}
