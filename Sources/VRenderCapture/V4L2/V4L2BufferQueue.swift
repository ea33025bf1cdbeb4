#if canImport(Glibc)
import Glibc
#endif
internal import CV4L2

/// The driver's capture buffers, mapped into this process (V4L2 memory-mapped streaming I/O).
///
/// Owns the mappings (`mmap` / `munmap`) and releases the driver's buffers (VIDIOC_REQBUFS with
/// count 0) when it goes; keeps its device open until then. Confined to the capture thread.
final class V4L2BufferQueue {
    struct Mapping {
        let start: UnsafeMutableRawPointer
        let length: Int
    }

    let device: V4L2Device
    private(set) var mappings: [Mapping] = []

    /// VIDIOC_REQBUFS (mmap, `count` buffers; the driver may grant another number), then
    /// VIDIOC_QUERYBUF and `mmap` for each. Needs at least two buffers: with one, every frame
    /// that arrives while the previous one is being converted is lost.
    init(device: V4L2Device, count: Int) throws(V4L2Error) {
        self.device = device
        var request = v4l2_requestbuffers()
        request.count = UInt32(count)
        request.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        request.memory = V4L2_MEMORY_MMAP.rawValue
        try device.ioctl(.requestBuffers, &request)
        guard request.count >= 2 else {
            throw V4L2Error(call: "VIDIOC_REQBUFS (got \(request.count) buffers, need 2)", code: ENOMEM, device: device.path)
        }
        for index in 0..<request.count {
            var buffer = Self.describe(index: Int(index))
            try device.ioctl(.queryBuffer, &buffer)
            let start = try device.map(length: Int(buffer.length), offset: buffer.m.offset)
            mappings.append(Mapping(start: start, length: Int(buffer.length)))
        }
    }

    deinit {
        for mapping in mappings { munmap(mapping.start, mapping.length) }
        var release = v4l2_requestbuffers()
        release.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        release.memory = V4L2_MEMORY_MMAP.rawValue
        _ = try? device.ioctl(.requestBuffers, &release)  // best effort: closing the node frees them too
    }

    var count: Int { mappings.count }

    /// A `v4l2_buffer` naming one mmap capture buffer.
    static func describe(index: Int) -> v4l2_buffer {
        var buffer = v4l2_buffer()
        buffer.index = UInt32(index)
        buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        buffer.memory = V4L2_MEMORY_MMAP.rawValue
        return buffer
    }

    /// VIDIOC_QBUF: hands buffer `index` back to the driver to fill.
    func enqueue(_ index: Int) throws(V4L2Error) {
        var buffer = Self.describe(index: index)
        try device.ioctl(.queueBuffer, &buffer)
    }

    /// VIDIOC_QBUF for every buffer (after REQBUFS, or after STREAMOFF took them all back).
    func enqueueAll() throws(V4L2Error) {
        for index in 0..<mappings.count { try enqueue(index) }
    }

    /// VIDIOC_DQBUF: the next filled buffer, or nil when none is ready yet (EAGAIN).
    func dequeue() throws(V4L2Error) -> v4l2_buffer? {
        var buffer = Self.describe(index: 0)
        guard try device.ioctl(.dequeueBuffer, &buffer) != .wouldBlock else { return nil }
        return buffer
    }

    /// The bytes of buffer `index`: `used` of them, or its whole mapping when `used` is 0.
    func bytes(of index: Int, used: Int) -> UnsafeRawBufferPointer {
        let mapping = mappings[index]
        let count = used > 0 ? min(used, mapping.length) : mapping.length
        return UnsafeRawBufferPointer(start: mapping.start, count: count)
    }

    /// VIDIOC_STREAMON.
    func streamOn() throws(V4L2Error) {
        var type = Int32(bitPattern: V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue)
        try device.ioctl(.streamOn, &type)
    }

    /// VIDIOC_STREAMOFF: stops capture and takes every buffer back from the driver.
    func streamOff() throws(V4L2Error) {
        var type = Int32(bitPattern: V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue)
        try device.ioctl(.streamOff, &type)
    }
}
