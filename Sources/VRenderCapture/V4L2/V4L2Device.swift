#if canImport(Glibc)
import Glibc
#endif
internal import CV4L2
import VRenderCore

/// An ioctl request: its code and the name errors print.
struct V4L2Request: Sendable {
    let name: StaticString
    let code: UInt

    static let queryCapabilities = V4L2Request(name: "VIDIOC_QUERYCAP", code: VR_VIDIOC_QUERYCAP)
    static let enumerateFormat = V4L2Request(name: "VIDIOC_ENUM_FMT", code: VR_VIDIOC_ENUM_FMT)
    static let enumerateFrameSizes = V4L2Request(name: "VIDIOC_ENUM_FRAMESIZES", code: VR_VIDIOC_ENUM_FRAMESIZES)
    static let enumerateFrameIntervals = V4L2Request(name: "VIDIOC_ENUM_FRAMEINTERVALS", code: VR_VIDIOC_ENUM_FRAMEINTERVALS)
    static let getFormat = V4L2Request(name: "VIDIOC_G_FMT", code: VR_VIDIOC_G_FMT)
    static let setFormat = V4L2Request(name: "VIDIOC_S_FMT", code: VR_VIDIOC_S_FMT)
    static let getParameters = V4L2Request(name: "VIDIOC_G_PARM", code: VR_VIDIOC_G_PARM)
    static let setParameters = V4L2Request(name: "VIDIOC_S_PARM", code: VR_VIDIOC_S_PARM)
    static let requestBuffers = V4L2Request(name: "VIDIOC_REQBUFS", code: VR_VIDIOC_REQBUFS)
    static let queryBuffer = V4L2Request(name: "VIDIOC_QUERYBUF", code: VR_VIDIOC_QUERYBUF)
    static let queueBuffer = V4L2Request(name: "VIDIOC_QBUF", code: VR_VIDIOC_QBUF)
    static let dequeueBuffer = V4L2Request(name: "VIDIOC_DQBUF", code: VR_VIDIOC_DQBUF)
    static let streamOn = V4L2Request(name: "VIDIOC_STREAMON", code: VR_VIDIOC_STREAMON)
    static let streamOff = V4L2Request(name: "VIDIOC_STREAMOFF", code: VR_VIDIOC_STREAMOFF)
    static let queryControl = V4L2Request(name: "VIDIOC_QUERYCTRL", code: VR_VIDIOC_QUERYCTRL)
    static let getControl = V4L2Request(name: "VIDIOC_G_CTRL", code: VR_VIDIOC_G_CTRL)
    static let setControl = V4L2Request(name: "VIDIOC_S_CTRL", code: VR_VIDIOC_S_CTRL)
    static let getInput = V4L2Request(name: "VIDIOC_G_INPUT", code: VR_VIDIOC_G_INPUT)
    static let enumerateInput = V4L2Request(name: "VIDIOC_ENUMINPUT", code: VR_VIDIOC_ENUMINPUT)
}

/// What a system call answered when it did not fail. EAGAIN is a state of a non-blocking
/// descriptor ("nothing ready yet"), not an error, so it is a value here.
enum SyscallOutcome: Equatable {
    case done(Int32)
    case wouldBlock
}

/// Owns one open V4L2 device node (`open` / `close`), opened non-blocking so a dequeue never
/// hangs the capture thread: waiting is `poll`'s job, with a timeout.
///
/// The open goes through `Syscall.open`; every later system call on the node through `perform`,
/// the one chokepoint that retries EINTR (`Syscall.retrying`), returns EAGAIN as `.wouldBlock`
/// and throws `V4L2Error` otherwise. Confined to one thread (the owner's).
final class V4L2Device {
    let path: String
    let descriptor: Int32

    /// `open(path, O_RDWR | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)`, then `fstat`: a `--device`
    /// that is not a character device (a file, a FIFO) is refused before any ioctl reaches it,
    /// and a terminal never becomes the process's controlling one. Non-blocking, so a FIFO
    /// without a writer cannot hang the open.
    init(path: String) throws(V4L2Error) {
        self.path = path
        let descriptor: Int32
        do throws(SystemError) {
            descriptor = try Syscall.open(path, O_RDWR | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        } catch {
            throw V4L2Error(call: "open", code: error.code, device: path)
        }
        var status = stat()
        do {
            _ = try Self.perform("fstat", device: path) { fstat(descriptor, &status) }
        } catch {
            close(descriptor)
            throw error
        }
        guard status.st_mode & S_IFMT == S_IFCHR else {
            close(descriptor)
            throw V4L2Error(call: "fstat", code: ENOTTY, device: path)
        }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// The chokepoint: runs `body` (a system call returning -1 and setting errno on failure).
    @inline(__always)
    static func perform(_ call: @autoclosure () -> String, device: String,
                        _ body: () -> Int32) throws(V4L2Error) -> SyscallOutcome {
        do throws(SystemError) {
            return .done(try Syscall.retrying(body))
        } catch {
            if error.code == EAGAIN || error.code == EWOULDBLOCK { return .wouldBlock }
            throw V4L2Error(call: call(), code: error.code, device: device)
        }
    }

    /// `ioctl(fd, request, &argument)` through `vr_v4l2_ioctl` (which also retries EINTR).
    @discardableResult
    func ioctl<Argument>(_ request: V4L2Request, _ argument: inout Argument) throws(V4L2Error) -> SyscallOutcome {
        let descriptor = descriptor
        return try withUnsafeMutablePointer(to: &argument) { (pointer) throws(V4L2Error) -> SyscallOutcome in
            try Self.perform(request.name.description, device: path) {
                vr_v4l2_ioctl(descriptor, request.code, pointer)
            }
        }
    }

    /// Like `ioctl`, but "this index/control/feature does not exist" (EINVAL, and ENOTTY for an
    /// ioctl the driver lacks) is nil: the normal end of an enumeration.
    func ioctlIfSupported<Argument>(_ request: V4L2Request, _ argument: inout Argument) throws(V4L2Error) -> SyscallOutcome? {
        do {
            return try ioctl(request, &argument)
        } catch where error.code == EINVAL || error.code == ENOTTY {
            return nil
        }
    }

    /// `poll` for a readable frame. Returns the returned events, or nil when `timeout`
    /// (milliseconds) passed with nothing ready.
    func pollReadable(timeoutMilliseconds timeout: Int32) throws(V4L2Error) -> Int16? {
        try poll(for: Int16(POLLIN), timeoutMilliseconds: timeout)
    }

    /// `poll` for room to hand an output device a picture (a shown buffer to dequeue, or room
    /// for a `write`). As `pollReadable`.
    func pollWritable(timeoutMilliseconds timeout: Int32) throws(V4L2Error) -> Int16? {
        try poll(for: Int16(POLLOUT), timeoutMilliseconds: timeout)
    }

    private func poll(for events: Int16, timeoutMilliseconds timeout: Int32) throws(V4L2Error) -> Int16? {
        var entry = pollfd(fd: descriptor, events: events, revents: 0)
        let outcome = try Self.perform("poll", device: path) { Glibc.poll(&entry, 1, timeout) }
        guard case .done(let ready) = outcome, ready > 0 else { return nil }
        return entry.revents
    }

    /// `mmap` of a driver buffer (shared, read-write, as V4L2 streaming I/O requires).
    func map(length: Int, offset: UInt32) throws(V4L2Error) -> UnsafeMutableRawPointer {
        var mapped: UnsafeMutableRawPointer?
        _ = try Self.perform("mmap", device: path) {
            let address = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, off_t(offset))
            guard let address, address != MAP_FAILED else { return -1 }
            mapped = address
            return 0
        }
        guard let mapped else { throw V4L2Error(call: "mmap", code: EAGAIN, device: path) }
        return mapped
    }
}
