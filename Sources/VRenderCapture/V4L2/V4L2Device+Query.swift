#if canImport(Glibc)
import Glibc
#endif
internal import CV4L2
import VRenderCore
import VRenderMedia

/// What VIDIOC_QUERYCAP says about a node (its own device capabilities, not the whole card's).
struct V4L2Capabilities {
    var driver: String
    var card: String
    var busInfo: String
    var capabilities: UInt32

    var canCapture: Bool { capabilities & UInt32(V4L2_CAP_VIDEO_CAPTURE) != 0 }
    var canStream: Bool { capabilities & UInt32(V4L2_CAP_STREAMING) != 0 }
    var isMultiplanarOnly: Bool { !canCapture && capabilities & UInt32(V4L2_CAP_VIDEO_CAPTURE_MPLANE) != 0 }
    var canOutput: Bool { capabilities & UInt32(V4L2_CAP_VIDEO_OUTPUT) != 0 }
    var isMultiplanarOutputOnly: Bool { !canOutput && capabilities & UInt32(V4L2_CAP_VIDEO_OUTPUT_MPLANE) != 0 }
    /// read()/write() I/O: what a device offering no streaming can still be fed by.
    var canReadWrite: Bool { capabilities & UInt32(V4L2_CAP_READWRITE) != 0 }
}

/// The formats a device offers that vrender can read, and the fourcc behind each.
struct V4L2FormatList {
    var formats: [CaptureFormat] = []
    /// The fourcc to ask for each pixel format (MJPEG when a device lists both MJPG and JPEG).
    var fourccs: [CapturePixelFormat: UInt32] = [:]
    /// Fourccs the device offers that vrender does not convert (for error messages).
    var unsupported: [String] = []
}

/// One control's description from VIDIOC_QUERYCTRL.
struct V4L2ControlInfo {
    var id: UInt32
    var name: String
    var type: UInt32
    var minimum: Int
    var maximum: Int
    var step: Int
    var defaultValue: Int
    var flags: UInt32

    /// A control that can be set now (not disabled, read-only or inactive for another setting).
    var isWritable: Bool {
        flags & UInt32(V4L2_CTRL_FLAG_DISABLED | V4L2_CTRL_FLAG_READ_ONLY | V4L2_CTRL_FLAG_INACTIVE) == 0
    }
}

extension CapturePixelFormat {
    /// The pixel format vrender reads for a V4L2 fourcc, if any.
    init?(fourcc: UInt32) {
        switch fourcc {
        case VR_V4L2_PIX_FMT_YUYV: self = .yuyv
        case VR_V4L2_PIX_FMT_NV12: self = .nv12
        case VR_V4L2_PIX_FMT_YUV420: self = .yuv420p
        case VR_V4L2_PIX_FMT_MJPEG, VR_V4L2_PIX_FMT_JPEG: self = .mjpeg
        default: return nil
        }
    }

    /// The fourcc to ask a device for (MJPG for Motion JPEG).
    var fourcc: UInt32 {
        switch self {
        case .yuyv: VR_V4L2_PIX_FMT_YUYV
        case .nv12: VR_V4L2_PIX_FMT_NV12
        case .yuv420p: VR_V4L2_PIX_FMT_YUV420
        case .mjpeg: VR_V4L2_PIX_FMT_MJPEG
        }
    }

    /// How an uncompressed picture of this format lies in a buffer; nil for Motion JPEG.
    var rawLayout: RawPictureConverter.Layout? {
        switch self {
        case .yuyv: .yuyv
        case .nv12: .nv12
        case .yuv420p: .yuv420p
        case .mjpeg: nil
        }
    }
}

/// "YUYV", "MJPG": a fourcc as the four characters it packs (little-endian).
func fourccName(_ fourcc: UInt32) -> String {
    let bytes = (0..<4).map { UInt8(truncatingIfNeeded: fourcc >> (8 * $0)) }
    return String(decoding: bytes, as: UTF8.self).trimmingTrailingSpaces
}

/// A NUL-terminated C `char[N]` imported as a tuple, as a String.
func string<Tuple>(fromCArray tuple: Tuple) -> String {
    withUnsafeBytes(of: tuple) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
}

private extension String {
    var trimmingTrailingSpaces: String {
        var result = self
        while result.last == " " { result.removeLast() }
        return result
    }
}

/// Sizes offered from a stepwise or continuous range: common camera sizes that fit it.
private let standardSizes: [(Int, Int)] = [
    (160, 120), (320, 180), (320, 240), (640, 360), (640, 480), (800, 600), (1024, 768),
    (1280, 720), (1280, 960), (1920, 1080), (2560, 1440), (3840, 2160),
]
/// Rates offered from a stepwise or continuous interval range, besides its fastest.
private let standardRates = [5, 10, 15, 24, 25, 30, 50, 60, 120]

extension V4L2Device {
    /// VIDIOC_QUERYCAP.
    func queryCapabilities() throws(V4L2Error) -> V4L2Capabilities {
        var capability = v4l2_capability()
        try ioctl(.queryCapabilities, &capability)
        // device_caps describes this node; capabilities covers every node of the card.
        let hasDeviceCaps = capability.capabilities & UInt32(V4L2_CAP_DEVICE_CAPS) != 0
        return V4L2Capabilities(driver: string(fromCArray: capability.driver), card: string(fromCArray: capability.card),
                                busInfo: string(fromCArray: capability.bus_info),
                                capabilities: hasDeviceCaps ? capability.device_caps : capability.capabilities)
    }

    /// VIDIOC_G_FMT: the current capture format (fourcc, size, bytes per line).
    func currentFormat() throws(V4L2Error) -> v4l2_pix_format {
        var format = v4l2_format()
        format.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        try ioctl(.getFormat, &format)
        return format.fmt.pix
    }

    /// VIDIOC_G_PARM: the current frame rate, if the driver reports one.
    func currentFrameRate() throws(V4L2Error) -> Rational? {
        var parameters = v4l2_streamparm()
        parameters.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        guard try ioctlIfSupported(.getParameters, &parameters) != nil else { return nil }
        let interval = parameters.parm.capture.timeperframe
        guard interval.numerator > 0, interval.denominator > 0 else { return nil }
        return Rational(Int(interval.denominator), Int(interval.numerator)).reduced()
    }

    /// VIDIOC_G_INPUT + VIDIOC_ENUMINPUT: the selected input's name ("Webcam 0", "HDMI 0").
    func currentInputName() throws(V4L2Error) -> String? {
        var index: Int32 = 0
        guard try ioctlIfSupported(.getInput, &index) != nil else { return nil }
        var input = v4l2_input()
        input.index = UInt32(bitPattern: index)
        guard try ioctlIfSupported(.enumerateInput, &input) != nil else { return nil }
        return string(fromCArray: input.name)
    }

    /// VIDIOC_ENUM_FMT, then VIDIOC_ENUM_FRAMESIZES and VIDIOC_ENUM_FRAMEINTERVALS for each format
    /// vrender can read.
    ///
    /// A stepwise or continuous size range (a capture card's or HDMI input's scaler) offers the
    /// standard sizes up to the current (native) size: larger ones would only be upscaled. A
    /// `requestedSize` inside the range (`--size`) is offered too, whatever it is.
    /// A device that cannot enumerate intervals runs at its current rate (VIDIOC_G_PARM), and
    /// then only sizes up to the current one are offered, for the same reason.
    func enumerateFormats(requestedSize: (width: Int, height: Int)? = nil) throws(V4L2Error) -> V4L2FormatList {
        var list = V4L2FormatList()
        let current = try? currentFormat()
        let currentRate = try currentFrameRate()
        var index: UInt32 = 0
        while true {
            var description = v4l2_fmtdesc()
            description.index = index
            description.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            guard try ioctlIfSupported(.enumerateFormat, &description) != nil else { break }
            index += 1
            guard let pixelFormat = CapturePixelFormat(fourcc: description.pixelformat) else {
                list.unsupported.append(fourccName(description.pixelformat))
                continue
            }
            // Prefer MJPG to JPEG when a device lists both for the same thing.
            if list.fourccs[pixelFormat] != nil { continue }
            list.fourccs[pixelFormat] = description.pixelformat
            let currentSize = current.map { (Int($0.width), Int($0.height)) }
            for (width, height) in try frameSizes(fourcc: description.pixelformat, current: currentSize,
                                                  requested: requestedSize.map { ($0.width, $0.height) }) {
                let rates: [Rational]
                if let enumerated = try frameRates(fourcc: description.pixelformat, width: width, height: height) {
                    rates = enumerated
                } else {
                    if let currentSize, width * height > currentSize.0 * currentSize.1 { continue }
                    rates = currentRate.map { [$0] } ?? []
                }
                list.formats.append(CaptureFormat(pixelFormat: pixelFormat, width: width, height: height, frameRates: rates))
            }
        }
        return list
    }

    private func frameSizes(fourcc: UInt32, current: (Int, Int)?, requested: (Int, Int)?) throws(V4L2Error) -> [(Int, Int)] {
        var size = v4l2_frmsizeenum()
        size.pixel_format = fourcc
        guard try ioctlIfSupported(.enumerateFrameSizes, &size) != nil else {
            return current.map { [$0] } ?? []  // no enumeration: the current size is all we know
        }
        if size.type == V4L2_FRMSIZE_TYPE_DISCRETE.rawValue {
            var sizes: [(Int, Int)] = []
            repeat {
                sizes.append((Int(size.discrete.width), Int(size.discrete.height)))
                size.index += 1
            } while try ioctlIfSupported(.enumerateFrameSizes, &size) != nil
            return sizes
        }
        let range = size.stepwise
        func fits(_ value: Int, _ minimum: UInt32, _ maximum: UInt32, _ step: UInt32) -> Bool {
            value >= Int(minimum) && value <= Int(maximum) && (value - Int(minimum)) % max(1, Int(step)) == 0
        }
        func inRange(_ size: (Int, Int)) -> Bool {
            fits(size.0, range.min_width, range.max_width, range.step_width)
                && fits(size.1, range.min_height, range.max_height, range.step_height)
        }
        let native = current.flatMap { inRange($0) ? $0 : nil }
        var sizes = standardSizes.filter { size in
            inRange(size) && native.map { size.0 <= $0.0 && size.1 <= $0.1 } ?? true
        }
        for extra in [native, requested].compactMap({ $0 }) where inRange(extra) && !sizes.contains(where: { $0 == extra }) {
            sizes.append(extra)
        }
        return sizes
    }

    /// Frame rates at one size, fastest first; nil when the driver cannot enumerate intervals.
    private func frameRates(fourcc: UInt32, width: Int, height: Int) throws(V4L2Error) -> [Rational]? {
        var interval = v4l2_frmivalenum()
        interval.pixel_format = fourcc
        interval.width = UInt32(width)
        interval.height = UInt32(height)
        guard try ioctlIfSupported(.enumerateFrameIntervals, &interval) != nil else { return nil }
        func rate(_ fraction: v4l2_fract) -> Rational? {
            fraction.numerator > 0 && fraction.denominator > 0
                ? Rational(Int(fraction.denominator), Int(fraction.numerator)).reduced() : nil
        }
        var rates: [Rational] = []
        if interval.type == V4L2_FRMIVAL_TYPE_DISCRETE.rawValue {
            repeat {
                if let value = rate(interval.discrete) { rates.append(value) }
                interval.index += 1
            } while try ioctlIfSupported(.enumerateFrameIntervals, &interval) != nil
        } else if let fastest = rate(interval.stepwise.min) {
            let slowest = rate(interval.stepwise.max)?.doubleValue ?? 0
            rates = [fastest] + standardRates.map { Rational($0, 1) }.filter {
                $0.doubleValue < fastest.doubleValue && $0.doubleValue >= slowest
            }
        }
        return rates.sorted { $0.doubleValue > $1.doubleValue }
    }

    /// VIDIOC_QUERYCTRL for one control id; nil when the device has no such control.
    func queryControl(_ id: UInt32) throws(V4L2Error) -> V4L2ControlInfo? {
        var query = v4l2_queryctrl()
        query.id = id
        guard try ioctlIfSupported(.queryControl, &query) != nil,
              query.flags & UInt32(V4L2_CTRL_FLAG_DISABLED) == 0 else { return nil }
        return V4L2ControlInfo(query)
    }

    /// Every control, by VIDIOC_QUERYCTRL with V4L2_CTRL_FLAG_NEXT_CTRL (class headings and
    /// disabled controls left out).
    func allControls() throws(V4L2Error) -> [V4L2ControlInfo] {
        var controls: [V4L2ControlInfo] = []
        var query = v4l2_queryctrl()
        query.id = VR_V4L2_CTRL_FLAG_NEXT_CTRL
        while try ioctlIfSupported(.queryControl, &query) != nil {
            if query.type != V4L2_CTRL_TYPE_CTRL_CLASS.rawValue, query.flags & UInt32(V4L2_CTRL_FLAG_DISABLED) == 0 {
                controls.append(V4L2ControlInfo(query))
            }
            query.id |= VR_V4L2_CTRL_FLAG_NEXT_CTRL
        }
        return controls
    }

    /// VIDIOC_S_CTRL; returns the value the driver kept (it may round to its step).
    @discardableResult
    func setControl(_ id: UInt32, to value: Int) throws(V4L2Error) -> Int {
        var control = v4l2_control(id: id, value: Int32(clamping: value))
        try ioctl(.setControl, &control)
        return Int(control.value)
    }

    /// VIDIOC_G_CTRL.
    func control(_ id: UInt32) throws(V4L2Error) -> Int {
        var control = v4l2_control(id: id, value: 0)
        try ioctl(.getControl, &control)
        return Int(control.value)
    }
}

extension V4L2ControlInfo {
    init(_ query: v4l2_queryctrl) {
        self.init(id: query.id, name: string(fromCArray: query.name), type: query.type,
                  minimum: Int(query.minimum), maximum: Int(query.maximum), step: Int(query.step),
                  defaultValue: Int(query.default_value), flags: query.flags)
    }
}
