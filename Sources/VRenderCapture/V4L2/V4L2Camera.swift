#if canImport(Glibc)
import Glibc
#endif
internal import CV4L2
import VRenderCore
import VRenderMedia

/// A V4L2 camera (`--device /dev/videoN`): memory-mapped streaming capture into 4:2:0 frames.
///
/// Setup (in `init`): open, VIDIOC_QUERYCAP, enumerate formats, choose with `FormatRule`,
/// VIDIOC_S_FMT, lock the interval with VIDIOC_S_PARM, VIDIOC_REQBUFS + mmap + VIDIOC_QBUF.
/// `start()` is VIDIOC_STREAMON; `nextFrame(into:)` polls, dequeues, converts and re-queues.
///
/// Ownership: the camera owns the device node and its buffers and is used by one thread at a
/// time; handing it to the capture thread transfers it (hence `@unchecked Sendable`, as `Frame`).
// @unchecked Sendable: one thread at a time owns the camera (see above).
package final class V4L2Camera: CaptureSource, @unchecked Sendable {
    package let path: String
    package let name: String
    package private(set) var format: NegotiatedFormat
    package let isLive = true
    /// Driver and card from VIDIOC_QUERYCAP ("vivid", "vivid").
    package let driver: String
    package let card: String
    /// Everything the device offered that vrender can read, as the format rule saw it.
    package let offeredFormats: [CaptureFormat]
    /// The outcomes of the request's position, lens, zoom and torch, applied during setup.
    package private(set) var initialOutcomes: [InitialControlOutcome] = []

    /// Buffers the driver flagged V4L2_BUF_FLAG_ERROR (or empty, or undecodable): skipped, and
    /// counted in the next frame's `droppedBefore` through the sequence gap they leave.
    package internal(set) var errorBuffers = 0
    /// Times streaming was restarted because no frame came within the poll timeout.
    package internal(set) var restarts = 0
    /// Frames the device dropped (sequence gaps), over the camera's life.
    package var droppedFrames: Int { clock.droppedFrames }
    /// The first frame's timestamp (CLOCK_MONOTONIC: see `timing(of:)`).
    package var monotonicOrigin: Double? { clock.origin }

    let device: V4L2Device
    let buffers: V4L2BufferQueue
    let picture: PictureLayout
    lazy var rawConverter = RawPictureConverter()
    var mjpegDecoder: MJPEGDecoder?

    var streaming = false
    var buffersQueued = false
    /// Set once the device is gone (ENODEV): every later `nextFrame` returns nil.
    var ended = false
    /// Frame times, drops and the stall timeout, from the buffers' timestamps and sequence numbers.
    var clock: V4L2FrameClock

    var controls = ControlState()

    /// Buffers asked of the driver: enough to ride out a slow conversion or encoder hiccup of a
    /// few frame periods without the driver running dry.
    static let bufferCount = 6
    /// Streaming restarts tried within one `nextFrame` before giving up.
    static let maximumRestarts = 4

    /// Opens `path` and sets it up for `request` (see the type's comment).
    ///
    /// - Throws: `VRenderError.input(path, …)` for a missing node ("no such device"), a node that
    ///   is not a V4L2 capture device, a busy device or missing permission;
    ///   `VRenderError.option("--size", …)` for a size the device does not offer.
    package convenience init(path: String, request: CaptureRequest) throws {
        try self.init(path: path, request: request, pixelFormats: Set(CapturePixelFormat.allCases))
    }

    /// Like `init(path:request:)`, considering only `pixelFormats` of what the device offers
    /// (to force YUYV or MJPEG on a camera that offers both, e.g. for a `--pixel-format` option).
    package init(path: String, request: CaptureRequest, pixelFormats: Set<CapturePixelFormat>) throws {
        self.path = path
        do {
            device = try V4L2Device(path: path)
            let capabilities = try device.queryCapabilities()
            try Self.checkUsable(capabilities, path: path)
            driver = capabilities.driver
            card = capabilities.card

            var offered = try device.enumerateFormats(requestedSize: request.size)
            let readable = Set(offered.formats.map(\.pixelFormat))
            offered.formats.removeAll { !pixelFormats.contains($0.pixelFormat) }
            guard !offered.formats.isEmpty else {
                let wanted = CapturePixelFormat.allCases.filter(pixelFormats.contains).map(\.rawValue)
                let has = CapturePixelFormat.allCases.filter(readable.contains).map(\.rawValue) + offered.unsupported
                throw VRenderError.input(path, "offers no format vrender can capture as \(wanted.joined(separator: ", ")); it offers: "
                                         + (has.isEmpty ? "nothing" : has.joined(separator: ", ")))
            }
            offeredFormats = offered.formats
            let chosen = try FormatRule.choose(from: offered.formats, for: request, device: path)
            guard let fourcc = offered.fourccs[chosen.pixelFormat] else {
                throw VRenderError(.runtime, subject: path, reason: "the format rule chose \(chosen.pixelFormat.rawValue), which the device did not list")
            }
            (format, picture) = try Self.configure(device, chosen: chosen, fourcc: fourcc)
            clock = V4L2FrameClock(frameRate: format.frameRate.doubleValue)
            buffers = try V4L2BufferQueue(device: device, count: Self.bufferCount)
            try buffers.enqueueAll()
            buffersQueued = true

            let input = try device.currentInputName()
            let card = capabilities.card
            name = input.map { "\(card) (\($0)): \(path)" } ?? "\(card): \(path)"
            if format.pixelFormat == .mjpeg { mjpegDecoder = try MJPEGDecoder() }
            try discoverControls()
        } catch let error as V4L2Error {
            throw error.userError
        }
        if request.position == .front {
            initialOutcomes.append(InitialControlOutcome(
                option: "--position", outcome: .unsupported("front camera: \(path) is a single camera; capturing from it as it is")))
        }
        for (option, control) in request.startingControls {
            initialOutcomes.append(InitialControlOutcome(option: option, outcome: apply(control, at: 0)))
        }
    }

    /// VIDIOC_STREAMON (re-queueing the buffers first when a `stop()` took them back). Frame
    /// times count from the first frame after this call.
    package func start() throws {
        guard !streaming, !ended else { return }
        do {
            if !buffersQueued {
                try buffers.enqueueAll()
                buffersQueued = true
            }
            try buffers.streamOn()
        } catch {
            throw error.userError
        }
        streaming = true
        clock.startStream()
    }

    /// VIDIOC_STREAMOFF. Errors are ignored: stopping a device that is gone has nothing to undo.
    package func stop() {
        guard streaming else { return }
        try? buffers.streamOff()
        streaming = false
        buffersQueued = false
    }

    deinit { stop() }

    // MARK: setup

    private static func checkUsable(_ capabilities: V4L2Capabilities, path: String) throws {
        if capabilities.isMultiplanarOnly {
            throw VRenderError.input(path, "is a multi-planar capture device (\(capabilities.driver)), which vrender does not support yet")
        }
        guard capabilities.canCapture else {
            throw VRenderError.input(path, "is not a video capture device (\(capabilities.driver) '\(capabilities.card)': an output or metadata node?)")
        }
        guard capabilities.canStream else {
            throw VRenderError.input(path, "does not support streaming I/O, which vrender needs")
        }
    }

    /// VIDIOC_S_FMT with the chosen format, then VIDIOC_S_PARM to lock its frame interval, and
    /// what the driver actually set (it may adjust both).
    private static func configure(_ device: V4L2Device, chosen: NegotiatedFormat,
                                  fourcc: UInt32) throws -> (NegotiatedFormat, PictureLayout) {
        var requested = v4l2_format()
        requested.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        requested.fmt.pix.width = UInt32(chosen.width)
        requested.fmt.pix.height = UInt32(chosen.height)
        requested.fmt.pix.pixelformat = fourcc
        requested.fmt.pix.field = V4L2_FIELD_NONE.rawValue
        try device.ioctl(.setFormat, &requested)
        let pix = requested.fmt.pix
        guard pix.pixelformat == fourcc else {
            throw VRenderError.input(device.path, "asked for \(fourccName(fourcc)), the driver set \(fourccName(pix.pixelformat))")
        }
        var result = chosen
        if Int(pix.width) != chosen.width || Int(pix.height) != chosen.height {
            result.reason += "; the driver set \(pix.width)x\(pix.height)"
            result.width = Int(pix.width)
            result.height = Int(pix.height)
        }
        let layout = PictureLayout(pix, pixelFormat: chosen.pixelFormat)

        var parameters = v4l2_streamparm()
        parameters.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        let canSetInterval = try device.ioctlIfSupported(.getParameters, &parameters) != nil
            && parameters.parm.capture.capability & UInt32(V4L2_CAP_TIMEPERFRAME) != 0
        if canSetInterval {
            // timeperframe is the interval: 1/fps, i.e. the rate's fraction upside down.
            parameters.parm.capture.timeperframe = v4l2_fract(numerator: UInt32(chosen.frameRate.denominator),
                                                              denominator: UInt32(chosen.frameRate.numerator))
            try device.ioctl(.setParameters, &parameters)
        }
        if let actual = try device.currentFrameRate() {
            if abs(actual.doubleValue - chosen.frameRate.doubleValue) > chosen.frameRate.doubleValue * FormatRule.tolerance {
                result.reason += "; the driver runs it at \(FormatRule.fps(actual)) fps"
            }
            result.frameRate = actual
        } else if !canSetInterval {
            result.reason += "; the driver cannot lock a frame interval"
        }
        return (result, layout)
    }
}

/// How a captured buffer's picture is laid out (from VIDIOC_S_FMT's answer).
struct PictureLayout {
    var width: Int
    var height: Int
    var bytesPerLine: Int
    var sizeImage: Int
    var raw: RawPictureConverter.Layout?
    var fullRange: Bool

    init(_ pix: v4l2_pix_format, pixelFormat: CapturePixelFormat) {
        width = Int(pix.width)
        height = Int(pix.height)
        sizeImage = Int(pix.sizeimage)
        raw = pixelFormat.rawLayout
        // Some drivers leave bytesperline 0 for planar formats: rows are then packed.
        let packedLine = pixelFormat == .yuyv ? width * 2 : width
        bytesPerLine = pix.bytesperline > 0 ? Int(pix.bytesperline) : packedLine
        fullRange = pix.quantization == V4L2_QUANTIZATION_FULL_RANGE.rawValue
    }
}
