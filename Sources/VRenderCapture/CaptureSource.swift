import VRenderCore
import VRenderMedia

/// Pixel layouts a capture device can deliver.
public enum CapturePixelFormat: String, Sendable, Codable, CaseIterable {
    /// Packed 4:2:2 (V4L2_PIX_FMT_YUYV): most webcams' raw format.
    case yuyv
    /// Semi-planar 4:2:0 (V4L2_PIX_FMT_NV12).
    case nv12
    /// Planar 4:2:0 (V4L2_PIX_FMT_YUV420): the synthetic camera's.
    case yuv420p
    /// Motion JPEG: compressed, decoded with libavcodec.
    case mjpeg

    /// Raw formats need no decoding; the format rule prefers them when they reach the rate.
    public var isRaw: Bool { self != .mjpeg }
}

/// A format a device offers: pixel layout, size and the fastest frame rate at that size.
public struct CaptureFormat: Sendable, Equatable, Codable, CustomStringConvertible {
    public var pixelFormat: CapturePixelFormat
    public var width: Int
    public var height: Int
    /// Frame rates the device can run this size at (from its frame-interval enumeration).
    public var frameRates: [Rational]

    public init(pixelFormat: CapturePixelFormat, width: Int, height: Int, frameRates: [Rational]) {
        self.pixelFormat = pixelFormat
        self.width = width
        self.height = height
        self.frameRates = frameRates
    }

    public var maxFrameRate: Double { frameRates.map(\.doubleValue).max() ?? 0 }

    public var description: String {
        "\(pixelFormat.rawValue) \(width)x\(height) @ " + frameRates.map(\.description).joined(separator: ",") + " fps"
    }
}

/// What capture settled on: the format chosen and the rate locked.
public struct NegotiatedFormat: Sendable, Equatable, Codable {
    public var pixelFormat: CapturePixelFormat
    public var width: Int
    public var height: Int
    public var frameRate: Rational
    /// Why this one, in words (the format rule's reasoning, including fallbacks).
    public var reason: String

    public init(pixelFormat: CapturePixelFormat, width: Int, height: Int, frameRate: Rational, reason: String) {
        self.pixelFormat = pixelFormat
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.reason = reason
    }
}

/// What the user asked of the camera before it starts.
public struct CaptureRequest: Sendable {
    /// Desired frame rate (default 30).
    public var frameRate: Rational
    /// Narrows the format choice to this size.
    public var size: (width: Int, height: Int)?
    public var position: CameraPosition
    /// Starting lens: 0.5, 1 or 2 (a quick jump, applied before `zoom`).
    public var lens: Double?
    /// Starting zoom factor.
    public var zoom: Double?
    /// Start with the torch on.
    public var torch: Bool
    /// Pace frames to real time (the synthetic camera only; V4L2 is always live).
    public var realtime: Bool
    /// `--shake`: a hand-held camera's shake (the synthetic camera only; nil: steady).
    package var shake: CameraShake? = nil

    public init(frameRate: Rational = Rational(30, 1), size: (width: Int, height: Int)? = nil,
                position: CameraPosition = .back, lens: Double? = nil, zoom: Double? = nil, torch: Bool = false,
                realtime: Bool = false) {
        self.frameRate = frameRate
        self.size = size
        self.position = position
        self.lens = lens
        self.zoom = zoom
        self.torch = torch
        self.realtime = realtime
    }

    /// The starting controls, in the order a source applies them at time 0, each with the
    /// option that asked for it (the cause a clamp notice names).
    public var startingControls: [(option: String, control: CameraControl)] {
        var controls: [(option: String, control: CameraControl)] = []
        if let lens { controls.append(("--lens", .lens(lens))) }
        if let zoom { controls.append(("--zoom", .zoom(zoom))) }
        if torch { controls.append(("--torch", .torch(level: 1))) }
        return controls
    }
}

/// How one of the request's starting settings came out: `option` names what asked for it
/// (`--zoom`), `outcome` says whether it was applied, clamped or unsupported.
public struct InitialControlOutcome: Sendable, Equatable {
    public var option: String
    public var outcome: ControlOutcome

    public init(option: String, outcome: ControlOutcome) {
        self.option = option
        self.outcome = outcome
    }

    /// The notice a user sees for a clamped or unsupported setting; nil when it was applied.
    public var notice: String? {
        switch outcome {
        case .applied: return nil
        case .clamped(let message), .unsupported(let message): return "\(option): \(message)"
        }
    }
}

/// A control change, from an action script, a key, or a command-line option.
public enum CameraControl: Sendable, Equatable {
    /// Set the zoom factor at once.
    case zoom(Double)
    /// Ramp to a zoom factor at `rate` doublings per second (AVFoundation's `ramp(toVideoZoomFactor:withRate:)`).
    case rampZoom(to: Double, rate: Double)
    /// Quick lens jump: 0.5, 1 or 2 (a zoom to that factor).
    case lens(Double)
    /// Torch on at a level 0...1, or off (level 0).
    case torch(level: Double)
    /// Switch between back and front.
    case flip
    /// Focus/exposure point of interest, normalized 0...1 (0,0 top-left).
    case pointOfInterest(x: Double, y: Double)
    /// The clapper: a flash on the picture and a click in the synthetic microphone at this
    /// instant (the synthetic camera with a synthetic microphone only).
    case clap
    /// The synthetic microphone loses this many seconds of sound, as a device that stalled.
    case audioGap(seconds: Double)
}

/// The outcome of a control change: applied as asked, clamped (and to what), or unsupported.
public enum ControlOutcome: Sendable, Equatable {
    case applied
    case clamped(String)
    case unsupported(String)
}

/// The camera's state, for the status line and the take's timeline.
public struct CameraState: Sendable, Equatable, Codable {
    public var position: CameraPosition
    /// Native factor of the lens in use (0.5, 1, 2).
    public var lens: Double
    public var zoom: Double
    /// Torch level 0 (off) ... 1.
    public var torch: Double

    public init(position: CameraPosition, lens: Double, zoom: Double, torch: Double) {
        self.position = position
        self.lens = lens
        self.zoom = zoom
        self.torch = torch
    }
}

/// Timing and bookkeeping of one captured frame.
public struct CapturedFrameInfo: Sendable, Equatable {
    /// Seconds since capture started, from the device (V4L2 buffer timestamp) or the virtual
    /// clock (synthetic).
    public var time: Double
    /// The device's frame counter.
    public var sequence: Int
    /// Frames the device skipped just before this one (gaps in the sequence numbers).
    public var droppedBefore: Int

    public init(time: Double, sequence: Int, droppedBefore: Int = 0) {
        self.time = time
        self.sequence = sequence
        self.droppedBefore = droppedBefore
    }
}

/// A camera: V4L2 or synthetic. Confined to the capture thread once started.
///
/// Life cycle: `open` (in the backend's initializer, which also applies the request's position,
/// lens, zoom and torch and keeps their outcomes in `initialOutcomes`) → `start()` → `nextFrame(into:)` repeatedly
/// → `stop()`. `nextFrame` blocks until a frame arrives (a live source) or renders it (a batch
/// source), writes it into a 4:2:0 frame of `format`'s size, and returns nil when the source
/// ends (a device unplugged: ENODEV).
public protocol CaptureSource: AnyObject {
    /// Human-readable name ("vivid: /dev/video0", "synthetic seed=1").
    var name: String { get }
    var format: NegotiatedFormat { get }
    /// True when frames arrive on their own clock and must never wait (V4L2, or the synthetic
    /// camera with --realtime): the recorder then drops the oldest frame instead of blocking.
    var isLive: Bool { get }
    var state: CameraState { get }
    /// How the request's starting settings came out when the source was opened, in the order
    /// they were applied; the recorder reports the clamped and unsupported ones.
    var initialOutcomes: [InitialControlOutcome] { get }
    /// CLOCK_MONOTONIC seconds at capture time 0, once known (after the first frame of a V4L2
    /// camera; from `start()` for the synthetic camera paced to real time); nil for a source on
    /// a virtual clock (the synthetic camera in batch). A microphone stamping its periods on the
    /// monotonic clock is put on the camera's clock with it. Read on the capture thread.
    var monotonicOrigin: Double? { get }

    func start() throws
    func nextFrame(into destination: Frame) throws -> CapturedFrameInfo?
    func stop()
    /// Applies a control change at capture time `time` (seconds). Out-of-range values are
    /// clamped and reported, never an error.
    func apply(_ control: CameraControl, at time: Double) -> ControlOutcome
}
