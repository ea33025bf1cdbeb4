import VRenderCore
import VRenderMedia

/// `--stabilize` only, between decode and process: measures each decoded frame's motion from
/// the previous frame of its take (`MotionDetector`) and passes the frame on with it. On a
/// thread of its own, measuring the frames coming in overlaps warping, filtering and encoding
/// the frames the process stage's delay line lets go (they are `radius` frames older), which
/// on one thread was the export's slowest stage.
struct MotionStage {
    let plan: ExportPlan
    let input: BoundedQueue<FrameEvent>
    let output: BoundedQueue<FrameEvent>
    /// Per frame measured.
    let timer: StageTimer?

    func run() throws {
        defer { output.finish() }
        var detector: MotionDetector?
        var path = ""
        while let event = input.pop() {
            var measured = event
            switch event {
            case .takeStart(let index):
                detector = nil  // a take's first frame moved from nothing
                path = plan.takes[index].path
            case .frame(let frame, let seconds, _):
                guard !frame.isHighBitDepth else {
                    throw VRenderError.input(path, "--stabilize works on 8-bit video; this take has more bits per sample")
                }
                timer?.begin()
                let luma = frame.yuvImage().luma
                // A take whose pictures change size mid-stream starts measuring afresh there.
                if detector?.width != luma.width || detector?.height != luma.height {
                    detector = try MotionDetector(width: luma.width, height: luma.height, path: path,
                                                   threads: plan.threads)
                }
                measured = .frame(frame, seconds: seconds, motion: detector!.motion(luma: luma))
                timer?.frameDone()
            case .takeEnd:
                detector = nil
            }
            if !output.push(measured) { throw VRenderError.cancelled }
        }
    }
}
