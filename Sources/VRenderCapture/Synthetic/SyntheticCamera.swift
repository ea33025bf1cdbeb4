import VRenderCore
import VRenderMedia

/// The synthetic camera (`--device synthetic[:seed=N]`): a deterministic stand-in for a phone
/// camera module, for demos, batch runs and CI without hardware.
///
/// Frame k shows the scene of `seed` at time exactly k / fps through the camera model's settings
/// at that time: the same seed, size, rate and controls give the same frames, bit for bit, on
/// any machine. With `realtime` it is paced to the wall clock (a live source, as a real camera);
/// otherwise it renders as fast as it can and the recorder waits for it.
///
/// Threading: `nextFrame`, `start` and `stop` belong to one thread at a time (the capture
/// thread; handing the camera to it transfers it, hence `@unchecked Sendable`, as V4L2Camera).
/// `apply(_:at:)` and `state` may be called from any thread: the camera model is behind a lock,
/// and each frame reads one consistent snapshot of it.
// @unchecked Sendable: frame state belongs to the capture thread (see above); the model is behind `lock`.
public final class SyntheticCamera: CaptureSource, @unchecked Sendable {
    /// One line for `vrender devices`.
    public static let summary = "deterministic test camera: any even size 16x16...7680x7680 (default 1280x720), any frame rate; "
        + "back lenses 0.5x/1x/2x and front 1x (mirrored), zoom up to 6x, ramps, torch, exposure point"

    /// Used when the specification names none.
    public static let defaultSeed: UInt64 = 1
    public static let defaultSize = (width: 1280, height: 720)
    public static let sizeLimits = 16...7680

    public let seed: UInt64
    public let name: String
    public let format: NegotiatedFormat
    public let isLive: Bool
    /// The outcomes of the request's lens, zoom and torch, applied at time 0 (see `CaptureSource`).
    public let initialOutcomes: [InitialControlOutcome]
    /// Render threads per frame (default: processors online, at most 8); the frames are the same
    /// bytes at any count. Capture-thread state, like `nextFrame`: set it before `start()`.
    public var renderThreads: Int {
        get { renderer.threads }
        set { renderer.threads = Swift.max(1, newValue) }
    }

    private let renderer: SceneRenderer
    /// `--shake`: the scene is rendered into `unshaken`, then moved into the frame.
    private let shake: CameraShake?
    private var unshaken: Frame?
    private let lock = ConditionLock()
    private var model: CameraModel
    private var lastFrameTime = 0.0
    private var nextIndex = 0
    private var pacer: RealtimePacer?
    /// Set once a synthetic microphone attaches (behind `lock`); nil keeps frames as they were before sound.
    private var attachedClapper: Clapper?
    /// CLOCK_MONOTONIC nanoseconds of scene time 0 while paced (behind `lock`), for the clapper.
    private var liveOrigin: UInt64?

    /// True for `synthetic` and `synthetic:…` (whether or not the rest is valid: the initializer
    /// says what is wrong with it).
    public static func isSynthetic(_ device: String) -> Bool {
        device == "synthetic" || device.hasPrefix("synthetic:")
    }

    /// - Parameters:
    ///   - specification: `synthetic` or `synthetic:seed=N` (N a whole number ≥ 0).
    ///   - request: rate, size (default 1280x720), position, starting lens, zoom and torch, realtime.
    /// - Throws: `VRenderError.input(specification, …)` for any other specification;
    ///   `VRenderError.option("--size", …)` for an odd or out-of-range size;
    ///   `VRenderError.option("--fps", …)` for a frame rate that is not positive.
    public init(specification: String, request: CaptureRequest) throws {
        seed = try Self.parseSeed(specification, default: Self.defaultSeed, of: "synthetic camera")
        let size = request.size ?? Self.defaultSize
        guard Self.sizeLimits.contains(size.width), Self.sizeLimits.contains(size.height),
              size.width % 2 == 0, size.height % 2 == 0 else {
            throw VRenderError.option("--size", "the synthetic camera renders even sizes from 16x16 to 7680x7680, "
                                      + "not \(size.width)x\(size.height)")
        }
        let rate = request.frameRate
        guard rate.numerator > 0, rate.denominator > 0 else {
            throw VRenderError.option("--fps", "a frame rate must be positive, not \(rate)")
        }
        name = "synthetic seed=\(seed)"
        format = NegotiatedFormat(pixelFormat: .yuv420p, width: size.width, height: size.height, frameRate: rate,
                                  reason: "synthetic camera renders any size and rate")
        isLive = request.realtime
        renderer = SceneRenderer(seed: seed)
        shake = request.shake

        var model = CameraModel(position: request.position)
        initialOutcomes = request.startingControls.map {
            InitialControlOutcome(option: $0.option, outcome: model.apply($0.control, at: 0))
        }
        self.model = model
    }

    /// The camera model as it stands (settings and any ramp in progress).
    package var camera: CameraModel { lock.withLock { model } }

    /// The model at the last rendered frame's time (time 0 before the first frame).
    public var state: CameraState { lock.withLock { model.state(at: lastFrameTime) } }

    /// The clapper the synthetic microphone shares, created on first use. From then on every frame
    /// carries the clapper's patch (white at clap instants, else black); a camera nothing
    /// attached to draws none, so its frames stay as they were before sound.
    package func attachClapper() -> Clapper {
        lock.withLock {
            if let attachedClapper { return attachedClapper }
            let clapper = Clapper(frameRate: format.frameRate)
            clapper.sceneOrigin = liveOrigin
            attachedClapper = clapper
            return clapper
        }
    }

    /// Index of the frame the next `nextFrame` renders.
    public var nextFrameIndex: Int { nextIndex }

    /// Time of frame `index`: exactly index / fps, computed as index · den / num.
    public func time(ofFrame index: Int) -> Double {
        Double(index) * Double(format.frameRate.denominator) / Double(format.frameRate.numerator)
    }

    /// Paced to real time: when frame 0 would have been released (the pacer's start less the
    /// time of the frame it started at). Batch: nil, the scene clock is virtual.
    public var monotonicOrigin: Double? {
        pacer.map { Double($0.startNanoseconds) / 1e9 - time(ofFrame: $0.firstFrame) }
    }

    public func start() {
        guard isLive else { return }
        let pacer = RealtimePacer(firstFrame: nextIndex, frameRate: format.frameRate)
        self.pacer = pacer
        let origin = pacer.startNanoseconds &- UInt64(time(ofFrame: nextIndex) * 1e9)
        lock.withLock {
            liveOrigin = origin
            attachedClapper?.sceneOrigin = origin
        }
    }

    /// Renders frame k (k = 0, 1, … in call order) into `destination`, which must be a
    /// 4:2:0 frame of `format`'s size. With `realtime`, first waits for frame k's deadline.
    /// Never returns nil: the recorder decides when a take ends.
    public func nextFrame(into destination: Frame) throws -> CapturedFrameInfo? {
        precondition(destination.width == format.width && destination.height == format.height,
                     "the destination frame must be \(format.width)x\(format.height)")
        let index = nextIndex
        if isLive {
            if pacer == nil { start() }
            pacer?.wait(forFrame: index)
        }
        try destination.makeWritable()
        let time = time(ofFrame: index)
        let (snapshot, clapper) = lock.withLock {
            lastFrameTime = time
            return (model.snapshot(at: time), attachedClapper)
        }
        let image = destination.yuvImage()
        if let shake {
            if unshaken == nil { unshaken = try Frame.picture(width: format.width, height: format.height) }
            let steady = unshaken!.yuvImage()
            renderer.render(frameIndex: index, time: time, camera: snapshot, into: steady)
            shake.apply(from: steady, into: image, at: time)
        } else {
            renderer.render(frameIndex: index, time: time, camera: snapshot, into: image)
        }
        if let clapper { Clapper.drawPatch(into: image, flash: clapper.flashes(frame: index)) }
        nextIndex = index + 1
        return CapturedFrameInfo(time: time, sequence: index, droppedBefore: 0)
    }

    public func stop() {
        pacer = nil
    }

    /// Camera controls go to the model; `clap` and `audio-gap` go to the clapper, which only
    /// exists while a synthetic microphone is attached (the model knows nothing of sound).
    public func apply(_ control: CameraControl, at time: Double) -> ControlOutcome {
        lock.withLock {
            switch control {
            case .clap:
                guard let attachedClapper else { return Self.noMicrophone("clap") }
                attachedClapper.clap(at: time)
                return .applied
            case .audioGap(let seconds):
                guard let attachedClapper else { return Self.noMicrophone("audio-gap") }
                attachedClapper.gap(at: time, length: seconds)
                return .applied
            default:
                return model.apply(control, at: time)
            }
        }
    }

    private static func noMicrophone(_ action: String) -> ControlOutcome {
        .unsupported("\(action): no synthetic microphone is recording (record with --audio synthetic)")
    }

    /// The seed in `synthetic` (`seed`) or `synthetic:seed=N`, the synthetic camera's and
    /// microphone's names; anything else is refused as not a `device` ("synthetic camera").
    static func parseSeed(_ specification: String, default seed: UInt64, of device: String) throws -> UInt64 {
        if specification == "synthetic" { return seed }
        let prefix = "synthetic:seed="
        if specification.hasPrefix(prefix), let seed = UInt64(specification.dropFirst(prefix.count)) {
            return seed
        }
        throw VRenderError.input(specification, "not a \(device); use `synthetic` or `synthetic:seed=N` "
                                 + "with N a whole number from 0 to \(UInt64.max)")
    }
}
