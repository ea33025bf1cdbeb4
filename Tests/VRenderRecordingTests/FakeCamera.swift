import VRenderCapture
import VRenderCore
import VRenderMedia

/// A minimal capture source for recorder tests: flat frames whose brightness encodes the
/// frame number, exact timestamps k/fps, optional device-reported gaps. `onFrame` sees each
/// frame's index as it is delivered.
final class FakeCamera: CaptureSource {
    let name = "fake camera"
    let format: NegotiatedFormat
    let isLive: Bool
    private(set) var state = CameraState(position: .back, lens: 1, zoom: 1, torch: 0)
    private var index = 0
    private let lastFrame: Int?
    private(set) var applied: [(CameraControl, Double)] = []
    private(set) var initialOutcomes: [InitialControlOutcome] = []
    let monotonicOrigin: Double? = nil
    var onFrame: (Int) -> Void = { _ in }

    /// Applies the request's starting controls at time 0, as every source does when opened.
    init(width: Int = 64, height: Int = 48, fps: Int = 30, live: Bool = false, lastFrame: Int? = nil,
         request: CaptureRequest = CaptureRequest()) {
        format = NegotiatedFormat(pixelFormat: .yuv420p, width: width, height: height,
                                  frameRate: Rational(fps, 1), reason: "test")
        isLive = live
        self.lastFrame = lastFrame
        initialOutcomes = request.startingControls.map {
            InitialControlOutcome(option: $0.option, outcome: apply($0.control, at: 0))
        }
    }

    func start() throws {}
    func stop() {}

    func nextFrame(into destination: Frame) throws -> CapturedFrameInfo? {
        if let lastFrame, index > lastFrame { return nil }   // the device "went away"
        let image = destination.yuvImage()
        for y in 0..<image.luma.height { image.luma.row(y).update(repeating: UInt8(16 + index % 200), count: image.luma.width) }
        for y in 0..<image.cb.height {
            image.cb.row(y).update(repeating: 128, count: image.cb.width)
            image.cr.row(y).update(repeating: 128, count: image.cr.width)
        }
        defer {
            onFrame(index)
            index += 1
        }
        return CapturedFrameInfo(time: Double(index) / format.frameRate.doubleValue, sequence: index)
    }

    func apply(_ control: CameraControl, at time: Double) -> ControlOutcome {
        applied.append((control, time))
        if case .zoom(let factor) = control {
            state.zoom = Swift.min(factor, 6)
            return factor > 6 ? .clamped("zoom \(factor) → 6.0") : .applied
        }
        if case .torch(let level) = control { state.torch = level }
        return .applied
    }
}
