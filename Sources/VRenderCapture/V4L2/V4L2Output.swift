#if canImport(Glibc)
import Glibc
#endif
internal import CV4L2
import VRenderCore
import VRenderMedia

/// What an output device and vrender agreed on: the picture layout, size and rate it is fed at,
/// and how (`--v4l2-out`'s report).
public struct NegotiatedOutput: Sendable, Equatable, CustomStringConvertible {
    public var device: String
    /// The driver and card ("v4l2loopback 'vrender'", "vivid 'vivid'").
    public var driver: String
    public var pixelFormat: CapturePixelFormat
    /// The fourcc as the device names it ("YU12", "YUYV").
    public var fourcc: String
    public var width: Int
    public var height: Int
    /// The rate the device says it shows (VIDIOC_G_PARM), nil when it says none.
    public var deviceRate: Rational?
    /// "mmap streaming, 4 buffers" or "write()".
    public var io: String
    /// Why this format, in words.
    public var reason: String

    public var description: String {
        let rate = deviceRate.map { ", the device runs at \(FormatRule.fps($0)) fps" } ?? ""
        return "\(device) (\(driver)): \(fourcc) \(width)x\(height) by \(io)\(rate); \(reason)"
    }
}

/// How frames reach a V4L2 output device (`--v4l2-io`).
public enum OutputIO: String, Sendable, CaseIterable {
    /// Memory-mapped streaming where the device offers it, else `write()`; v4l2loopback
    /// `write()` (see `V4L2Output`).
    case auto
    /// VIDIOC_QBUF/DQBUF of mapped buffers (what vivid's output needs).
    case mmap
    /// `write()` of whole pictures (the kernel copies each; v4l2loopback takes both).
    case write
}

/// A V4L2 output device fed frames (`vrender camera --v4l2-out`): v4l2loopback, which readers
/// see as a camera, or vivid's output node looped to its capture node inside the kernel.
///
/// Opening negotiates: the node must be a single-planar video output; the layout is the first
/// of `preferences` the device lists (yuv420p first: readers get the camera's bytes unchanged),
/// set with VIDIOC_S_FMT at the camera's size, which the device must keep (a device locked to
/// another size, as vivid's is by its DV timings, is an error naming the size it runs). The rate
/// is asked with VIDIOC_S_PARM where the device takes one. Frames go through memory-mapped
/// streaming I/O (VIDIOC_QBUF/DQBUF: vivid refuses `write()`), or `write()` where a device offers
/// only that. Confined to one thread.
package final class V4L2Output {
    package let format: NegotiatedOutput
    /// Buffers asked of the driver. v4l2loopback's readers map the writer's buffers: the more
    /// there are, the longer a shown one rests before it is refilled, so a late reader's copy
    /// is not torn (it grants at most its `max_buffers`, 2 by default).
    static let bufferCount = 8
    /// How long a device may keep every buffer before the writer gives up on it.
    static let stallMilliseconds: Int32 = 3000

    private let device: V4L2Device
    private let layout: RawPictureConverter.Layout
    private let bytesPerLine: Int
    /// Bytes of one picture, as `bytesused` says: computed, not the driver's `sizeimage`, which
    /// v4l2loopback may round up to whole pages (and ffmpeg's reader drops a buffer whose size
    /// is not the picture's).
    private let pictureBytes: Int
    /// nil: the device takes `write()`.
    private let buffers: V4L2BufferQueue?
    /// Buffers not with the driver, ready to fill.
    private var idle: [Int]
    private var streaming = false
    private let converter = RawPictureConverter()
    /// The picture `write()` sends, for a device without streaming.
    private var staging: UnsafeMutableRawBufferPointer?

    /// Opens and configures `path` for `width`×`height` pictures at `frameRate`.
    /// - Throws: `VRenderError.input(path, …)` for a missing, busy or wrong-kind node (a
    ///   capture device), a device offering none of `preferences`, or one that keeps another size.
    package init(path: String, width: Int, height: Int, frameRate: Rational,
                 preferences: [CapturePixelFormat] = [.yuv420p, .yuyv, .nv12], io asked: OutputIO = .auto) throws {
        let device: V4L2Device
        let capabilities: V4L2Capabilities
        do {
            device = try V4L2Device(path: path)
            capabilities = try device.queryCapabilities()
        } catch { throw error.userError }
        try Self.checkUsable(capabilities, path: path)
        let streams = try Self.streams(asked, capabilities, path: path)
        self.device = device
        let offered = try Self.offeredFormats(device)
        guard let chosen = preferences.first(where: { $0.isRaw && (offered.isEmpty || offered[$0] != nil) }),
              let layout = chosen.rawLayout else {
            let names = offered.values.map(fourccName).sorted().joined(separator: ", ")
            throw VRenderError.input(path, "takes none of the formats vrender writes (YU12, YUYV, NV12); it lists \(names)")
        }
        let fourcc = offered[chosen] ?? chosen.fourcc
        let pix = try Self.setFormat(device, fourcc: fourcc, width: width, height: height)
        self.layout = layout
        bytesPerLine = pix.bytesperline > 0 ? Int(pix.bytesperline) : (chosen == .yuyv ? 2 * width : width)
        pictureBytes = RawPictureConverter.requiredBytes(layout: layout, width: width, height: height, bytesPerLine: bytesPerLine)
        let rate = Self.setRate(device, frameRate)
        var io = "write()"
        do {
            if streams {
                let queue = try V4L2BufferQueue(device: device, count: Self.bufferCount, type: V4L2_BUF_TYPE_VIDEO_OUTPUT)
                buffers = queue
                idle = Array((0..<queue.count).reversed())
                io = "mmap streaming, \(queue.count) buffers"
            } else {
                buffers = nil
                idle = []
                staging = .allocate(byteCount: pictureBytes, alignment: 64)
            }
        } catch { throw error.userError }
        let preferred = preferences.first == chosen ? "the first choice" : "\(preferences.first?.rawValue ?? "?") is not offered"
        let reason = chosen == .yuv420p ? "4:2:0 as rendered: readers get the camera's bytes" : preferred
        format = NegotiatedOutput(device: path, driver: "\(capabilities.driver) '\(capabilities.card)'", pixelFormat: chosen,
                                  fourcc: fourccName(fourcc), width: width, height: height, deviceRate: rate, io: io,
                                  reason: reason)
    }

    deinit {
        stop()
        staging?.deallocate()
    }

    /// Shows `frame` (the camera's size, 4:2:0) next, stamped `time` seconds. Blocks while the
    /// device holds every buffer; a device that keeps them all for `stallMilliseconds` is an error.
    /// A buffer is taken back, filled and queued at once (a copy), so the device never holds it
    /// half written for long: the caller paces before it renders, never between.
    package func send(_ frame: Frame, time: Double) throws {
        do {
            guard let buffers else { return try write(frame) }
            let index = try idle.popLast() ?? reclaim(buffers)
            try converter.write(frame, into: buffers.writableBytes(of: index, used: 0), layout: layout, bytesPerLine: bytesPerLine)
            try buffers.enqueue(index, bytesUsed: pictureBytes, time: time)
            if !streaming {
                try buffers.streamOn()
                streaming = true
            }
        } catch let error as V4L2Error {
            throw error.userError
        }
    }

    /// Stops streaming (the driver takes back every buffer). Safe to call twice.
    package func stop() {
        guard streaming, let buffers else { return }
        streaming = false
        try? buffers.streamOff()
    }

    /// Waits for the device to hand back a buffer it has shown.
    private func reclaim(_ buffers: V4L2BufferQueue) throws -> Int {
        while true {
            if let shown = try buffers.dequeue() { return Int(shown.index) }
            guard try device.pollWritable(timeoutMilliseconds: Self.stallMilliseconds) != nil else {
                throw VRenderError(.runtime, subject: device.path,
                                   reason: "the device kept every buffer for \(Self.stallMilliseconds / 1000) s: it stopped taking frames")
            }
        }
    }

    /// `write()` of one whole picture, for a device without streaming I/O (or `--v4l2-io write`).
    /// The node is non-blocking: a device with no room says EAGAIN, and the write is tried
    /// again once `poll` says it has room. (Not `poll` first: v4l2loopback answers a writer's
    /// poll only once it has written.)
    private func write(_ frame: Frame) throws {
        guard let staging else { return }
        try converter.write(frame, into: staging, layout: layout, bytesPerLine: bytesPerLine)
        while true {
            do throws(SystemError) {
                try Syscall.writeAll(device.descriptor, UnsafeRawBufferPointer(rebasing: staging[0..<pictureBytes]))
                return
            } catch where error.code == EAGAIN || error.code == EWOULDBLOCK {
                guard try device.pollWritable(timeoutMilliseconds: Self.stallMilliseconds) != nil else {
                    throw VRenderError(.runtime, subject: device.path,
                                       reason: "the device took no picture for \(Self.stallMilliseconds / 1000) s")
                }
            } catch {
                throw V4L2Error(call: "write", code: error.code, device: device.path).userError
            }
        }
    }

    // MARK: negotiation

    /// Whether frames go by streaming I/O (else `write()`), as asked and as the device offers.
    ///
    /// `auto` writes to v4l2loopback: its output VIDIOC_DQBUF (0.12.7) hands back the buffer
    /// queued last, so a streaming writer fills one buffer over and over while readers copy it
    /// (a reader slowed by a busy machine recorded torn frames: the top of one frame, the rest of
    /// the next), whereas `write()` fills its buffers in turn and readers read the newest whole one.
    private static func streams(_ asked: OutputIO, _ capabilities: V4L2Capabilities, path: String) throws -> Bool {
        switch asked {
        case .auto:
            if capabilities.driver == "v4l2 loopback" && capabilities.canReadWrite { return false }
            return capabilities.canStream
        case .mmap:
            guard capabilities.canStream else { throw VRenderError.input(path, "offers no streaming I/O (--v4l2-io mmap); try write") }
            return true
        case .write:
            guard capabilities.canReadWrite else { throw VRenderError.input(path, "takes no write() (--v4l2-io write); try mmap") }
            return false
        }
    }

    private static func checkUsable(_ capabilities: V4L2Capabilities, path: String) throws {
        let kind = "\(capabilities.driver) '\(capabilities.card)'"
        if capabilities.isMultiplanarOutputOnly {
            throw VRenderError.input(path, "is a multi-planar output device (\(kind)), which vrender does not feed")
        }
        guard capabilities.canOutput else {
            let what = capabilities.canCapture ? "a video capture device" : "not a video output device"
            throw VRenderError.input(path, "is \(what) (\(kind)); --v4l2-out needs an output node: v4l2loopback's device, "
                                     + "or vivid's output node (`v4l2-ctl --list-devices` lists them)")
        }
        guard capabilities.canStream || capabilities.canReadWrite else {
            throw VRenderError.input(path, "takes frames neither by streaming I/O nor by write() (\(kind))")
        }
    }

    /// VIDIOC_ENUM_FMT on the output side: the layouts vrender writes, with the fourcc the device
    /// lists for each. Empty when the device lists nothing (some loopbacks before a format is set).
    private static func offeredFormats(_ device: V4L2Device) throws -> [CapturePixelFormat: UInt32] {
        var offered: [CapturePixelFormat: UInt32] = [:]
        do {
            for index in 0..<64 {
                var description = v4l2_fmtdesc()
                description.index = UInt32(index)
                description.type = V4L2_BUF_TYPE_VIDEO_OUTPUT.rawValue
                guard try device.ioctlIfSupported(.enumerateFormat, &description) != nil else { break }
                if let pixelFormat = CapturePixelFormat(fourcc: description.pixelformat), pixelFormat.isRaw {
                    offered[pixelFormat] = offered[pixelFormat] ?? description.pixelformat
                }
            }
        } catch { throw error.userError }
        return offered
    }

    /// VIDIOC_S_FMT on the output side; the device must keep the fourcc and size.
    private static func setFormat(_ device: V4L2Device, fourcc: UInt32, width: Int, height: Int) throws -> v4l2_pix_format {
        var requested = v4l2_format()
        requested.type = V4L2_BUF_TYPE_VIDEO_OUTPUT.rawValue
        requested.fmt.pix.width = UInt32(width)
        requested.fmt.pix.height = UInt32(height)
        requested.fmt.pix.pixelformat = fourcc
        requested.fmt.pix.field = V4L2_FIELD_NONE.rawValue
        do { try device.ioctl(.setFormat, &requested) } catch { throw error.userError }
        let pix = requested.fmt.pix
        guard pix.pixelformat == fourcc, Int(pix.width) == width, Int(pix.height) == height else {
            throw VRenderError.input(device.path, "asked for \(fourccName(fourcc)) \(width)x\(height), the device set "
                                     + "\(fourccName(pix.pixelformat)) \(pix.width)x\(pix.height) (run with --size \(pix.width)x\(pix.height))")
        }
        return pix
    }

    /// VIDIOC_S_PARM with the frame interval where the device takes one, then what it runs at.
    private static func setRate(_ device: V4L2Device, _ rate: Rational) -> Rational? {
        var parameters = v4l2_streamparm()
        parameters.type = V4L2_BUF_TYPE_VIDEO_OUTPUT.rawValue
        guard (try? device.ioctlIfSupported(.getParameters, &parameters)) != nil else { return nil }
        if parameters.parm.output.capability & UInt32(V4L2_CAP_TIMEPERFRAME) != 0 {
            var asked = parameters
            asked.parm.output.timeperframe = v4l2_fract(numerator: UInt32(rate.denominator), denominator: UInt32(rate.numerator))
            // vivid's output says it takes a rate and then refuses S_PARM (ENOTTY): its DV
            // timings set the rate. What the device runs at is read back either way.
            if (try? device.ioctl(.setParameters, &asked)) != nil { parameters = asked }
            _ = try? device.ioctlIfSupported(.getParameters, &parameters)
        }
        let interval = parameters.parm.output.timeperframe
        guard interval.numerator > 0, interval.denominator > 0 else { return nil }
        return Rational(Int(interval.denominator), Int(interval.numerator)).reduced()
    }
}
