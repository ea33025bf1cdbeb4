internal import CVidStab
import Foundation
import VRenderCore

/// libvidstab's names for its logs and configs: it keeps the pointer, so it must live forever.
let vidStabModuleName: StaticString = "vrender"

var vidStabName: UnsafePointer<CChar> {
    UnsafeRawPointer(vidStabModuleName.utf8Start).assumingMemoryBound(to: CChar.self)
}

/// Frame-to-frame camera motion of one take, measured on the luma plane: libvidstab's motion
/// detection picks the measurement fields and matches each to a whole pixel, then
/// `FieldMotionFit` refines the matches and combines them. It keeps the previous frame, so a
/// detector belongs to one take and sees its frames in order, all of its size.
///
/// Not thread-safe: used by the motion stage's thread only.
final class MotionDetector {
    private var detect = VSMotionDetect()
    private var info = VSFrameInfo()
    /// The previous frame's luma (libvidstab keeps only a blurred copy), reused frame to frame.
    private let previous: UnsafeMutablePointer<UInt8>
    private var hasPrevious = false
    let width: Int, height: Int
    private var fields: [FieldShift] = []

    /// - Throws: `VRenderError.input(path, …)` when libvidstab refuses the size.
    init(width: Int, height: Int, path: String, threads: ThreadBudget) throws {
        guard vsFrameInfoInit(&info, Int32(width), Int32(height), PF_GRAY8) != 0 else {
            throw VRenderError.input(path, "--stabilize cannot measure motion in a \(width)x\(height) picture")
        }
        vr_vidstab_silence()
        var config = vsMotionDetectGetDefaultConfig(vidStabName)
        // Hand-held talking heads: moderate shake; accuracy at its most (as ffmpeg's default).
        config.shakiness = 5
        config.accuracy = 15
        // Fields of lower contrast than libvidstab's default 0.25 too: 50-80 fields a frame
        // instead of about 20 on the synthetic camera, for the least-squares fit to average.
        config.contrastThreshold = 0.1
        // Its measurement fields are matched in parallel (OpenMP); the other stages share the machine.
        config.numThreads = Int32(threads.motionSearchThreads)
        guard vsMotionDetectInit(&detect, &config, &info) == 0 else {
            throw VRenderError.input(path, "--stabilize: libvidstab could not set up motion detection at \(width)x\(height)")
        }
        self.width = width
        self.height = height
        previous = .allocate(capacity: width * height)
    }

    deinit {
        vsMotionDetectionCleanup(&detect)
        previous.deallocate()
    }

    /// The motion from the previous frame to this one (zero for the first).
    func motion(luma: PlaneView) -> CameraMotion {
        defer { keep(luma) }
        var frame = VSFrame()
        frame.data.0 = luma.base
        frame.linesize.0 = Int32(luma.stride)
        var local = LocalMotions()
        // libvidstab picks some of its measurement fields with rand(): seeded the same for every
        // frame, a frame pair measures the same whatever came before it, so that a chunk that
        // starts reading inside a take gets the motions a whole read gets (framemd5 equal).
        srand(1)
        guard vsMotionDetection(&detect, &local, &frame) == 0 else { return CameraMotion() }
        defer { vs_vector_del(&local) }
        guard hasPrevious else { return CameraMotion() }
        let before = PlaneView(base: previous, stride: width, width: width, height: height)
        fields.removeAll(keepingCapacity: true)
        for index in 0..<vs_vector_size(&local) {
            guard let item = vs_vector_get(&local, index) else { continue }
            let match = item.assumingMemoryBound(to: LocalMotion.self).pointee
            guard let moved = FieldMotionFit.refine(current: luma, previous: before, centreX: Int(match.f.x),
                                                    centreY: Int(match.f.y), size: Int(match.f.size),
                                                    shift: (Int(match.v.x), Int(match.v.y)))
            else { continue }
            fields.append(FieldShift(x: Double(match.f.x) - Double(width) / 2, y: Double(match.f.y) - Double(height) / 2,
                                     dx: moved.dx, dy: moved.dy, information: moved.information))
        }
        guard let found = FieldMotionFit.fit(fields) else { return CameraMotion() }
        // The fit turns positive angles the other way from libvidstab's warp.
        return CameraMotion(x: found.x, y: found.y, alpha: -found.alpha)
    }

    private func keep(_ luma: PlaneView) {
        for row in 0..<height {
            (previous + row * width).update(from: luma.row(row), count: width)
        }
        hasPrevious = true
    }
}
