import CVidStab
import Foundation
import VRenderCore

/// libvidstab's names for its logs and configs: it keeps the pointer, so it must live forever.
let vidStabModuleName: StaticString = "vrender"

var vidStabName: UnsafePointer<CChar> {
    UnsafeRawPointer(vidStabModuleName.utf8Start).assumingMemoryBound(to: CChar.self)
}

/// Frame-to-frame camera motion of one take, measured on the luma plane by libvidstab's motion
/// detection (local block matches, combined into a translation and rotation). It keeps the
/// previous frame, so a detector belongs to one take and sees its frames in order.
///
/// Not thread-safe: used by the process stage's thread only.
final class MotionDetector {
    private var detect = VSMotionDetect()
    private var info = VSFrameInfo()
    /// Only its frame info and configuration are used (turning local motions into one).
    private var transform = VSTransformData()

    /// - Throws: `VRenderError.input(path, …)` when libvidstab refuses the size.
    init(width: Int, height: Int, path: String) throws {
        guard vsFrameInfoInit(&info, Int32(width), Int32(height), PF_GRAY8) != 0 else {
            throw VRenderError.input(path, "--stabilize cannot measure motion in a \(width)x\(height) picture")
        }
        vr_vidstab_silence()
        var config = vsMotionDetectGetDefaultConfig(vidStabName)
        // Hand-held talking heads: moderate shake; accuracy at its most (as ffmpeg's default).
        config.shakiness = 5
        config.accuracy = 15
        // Its measurement fields are matched in parallel (OpenMP); the other stages share the machine.
        config.numThreads = Int32(max(1, min(8, ProcessInfo.processInfo.activeProcessorCount / 2)))
        guard vsMotionDetectInit(&detect, &config, &info) == 0 else {
            throw VRenderError.input(path, "--stabilize: libvidstab could not set up motion detection at \(width)x\(height)")
        }
        var transformConfig = vsTransformGetDefaultConfig(vidStabName)
        transformConfig.verbose = 0
        guard vsTransformDataInit(&transform, &transformConfig, &info, &info) == 0 else {
            vsMotionDetectionCleanup(&detect)
            throw VRenderError.input(path, "--stabilize: libvidstab could not set up at \(width)x\(height)")
        }
    }

    deinit {
        vsMotionDetectionCleanup(&detect)
        vsTransformDataCleanup(&transform)
    }

    /// The motion from the previous frame to this one (zero for the first).
    func motion(luma: PlaneView) -> CameraMotion {
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
        guard vs_vector_size(&local) > 0 else { return CameraMotion() }
        // libvidstab's transform takes this frame back onto the previous one: the content moved
        // by its opposite (measured: the unnegated path doubled the shake). Its rotation is left
        // out: on pictures with moving parts it is mostly noise (0.01-0.02 rad on a take shaken
        // without any rotation, about twice the true one on the synthetic camera's shake), and
        // correcting it left more motion than it took away (Benchmarks/stabilize-vs-ffmpeg.sh).
        let found = vsMotionsToTransform(&transform, &local, nil)
        return CameraMotion(x: -found.x, y: -found.y, alpha: 0)
    }
}
