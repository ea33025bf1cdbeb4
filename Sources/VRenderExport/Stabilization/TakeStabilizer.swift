import Synchronization
import VRenderCore
import VRenderMedia

/// The process stage's stabilization of one take: holds each decoded frame, measured by the
/// motion stage, until the frames `radius` output frames later have arrived (the delay line,
/// `CameraPath`), then hands them on with their corrections; `warp` applies one. Frames outside
/// a chunk are measured but never warped.
///
/// Not thread-safe: used by the process stage's thread only.
final class TakeStabilizer {
    private let plan: StabilizePlan
    private let path: String
    private var warper: FrameWarp?
    private var cameraPath: CameraPath<Frame>
    /// A frame let go with its output frame and correction.
    typealias Held = (payload: Frame, slot: Int, correction: CameraMotion)
    /// Sum of the applied corrections' sizes (pixels) and their count, for the summary.
    private(set) var correctionSum = 0.0
    private(set) var warped = 0

    init(plan: StabilizePlan, path: String) {
        self.plan = plan
        self.path = path
        cameraPath = CameraPath(radius: plan.radius)
    }

    /// Adds a decoded frame at output frame `slot`, `motion` away from the take's previous
    /// frame; returns the frames now ready.
    func arrive(_ frame: Frame, slot: Int, motion: CameraMotion) -> [Held] {
        cameraPath.arrive(frame, slot: slot, motion: motion)
    }

    /// The take has ended: the frames still held.
    func finish() -> [Held] {
        cameraPath.finish()
    }

    /// Applies `correction` to `frame`, copying its picture first when the decoder still
    /// refers to it (never written in place on decoder memory).
    func warp(_ frame: Frame, by correction: CameraMotion) throws {
        try frame.makeWritable()
        let image = frame.yuvImage()
        // Made again for a picture of another size (a take that changes size mid-stream).
        if warper?.fits(image) != true { warper = try FrameWarp(image: image, zoomPercent: plan.zoomPercent, path: path) }
        let applied = warper!.clamp(correction)
        correctionSum += (applied.x * applied.x + applied.y * applied.y).squareRoot()
        warped += 1
        try warper!.apply(correction, to: image)
    }
}

/// What stabilization did in one run, for the summary: takes, frames warped, mean correction.
/// Written by the process stage, read after the pipeline has ended.
final class StabilizeReport: Sendable {
    private let counts = Mutex((takes: 0, frames: 0, sum: 0.0))

    func add(_ take: TakeStabilizer) {
        counts.withLock {
            $0.takes += 1
            $0.frames += take.warped
            $0.sum += take.correctionSum
        }
    }

    var takes: Int { counts.withLock { $0.takes } }
    var frames: Int { counts.withLock { $0.frames } }
    /// Mean size of the corrections applied, in source pixels (0 when none).
    var meanCorrection: Double { counts.withLock { $0.frames > 0 ? $0.sum / Double($0.frames) : 0 } }
}

extension StabilizeSummary {
    init(_ plan: StabilizePlan, report: StabilizeReport?) {
        self.init(strength: plan.strength, radiusFrames: plan.radius, zoomPercent: plan.zoomPercent,
                  takes: report?.takes ?? 0, framesWarped: report?.frames, meanCorrection: report?.meanCorrection)
    }
}
