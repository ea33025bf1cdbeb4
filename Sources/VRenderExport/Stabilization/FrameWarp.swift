internal import CVidStab
import Foundation
import VRenderCore

/// Applies a correction to a planar 8-bit YUV picture in place with libvidstab's warp
/// (bilinear), zoomed in by the plan's fixed amount, the correction first clamped to the
/// margin that zoom leaves so that no border shows.
///
/// Not thread-safe: used by the process stage's thread only.
final class FrameWarp {
    private var data = VSTransformData()
    private var info = VSFrameInfo()
    private let zoomPercent: Double
    private let width: Double, height: Double
    private let chroma: (width: Int, height: Int)

    /// - Throws: `VRenderError.input(path, …)` for a picture libvidstab cannot warp.
    init(image: YUVImage, zoomPercent: Double, path: String) throws {
        let format: VSPixelFormat
        switch (image.cb.width * 2 >= image.width, image.cb.height * 2 >= image.height,
                image.cb.width >= image.width, image.cb.height >= image.height) {
        case (_, _, true, true): format = PF_YUV444P
        case (true, _, _, true): format = PF_YUV422P
        default: format = PF_YUV420P
        }
        guard vsFrameInfoInit(&info, Int32(image.width), Int32(image.height), format) != 0 else {
            throw VRenderError.input(path, "--stabilize cannot warp a \(image.width)x\(image.height) picture")
        }
        var config = vsTransformGetDefaultConfig(vidStabName)
        config.crop = VSCropBorder
        config.interpolType = VS_BiLinear
        config.relative = 0
        config.smoothing = 0
        config.optZoom = 0
        config.verbose = 0
        guard vsTransformDataInit(&data, &config, &info, &info) == 0 else {
            throw VRenderError.input(path, "--stabilize: libvidstab could not set up its warp at \(image.width)x\(image.height)")
        }
        self.zoomPercent = zoomPercent
        width = Double(image.width)
        height = Double(image.height)
        chroma = (image.cb.width, image.cb.height)
    }

    deinit { vsTransformDataCleanup(&data) }

    /// Whether `image` has the size and chroma layout this warp was set up for.
    func fits(_ image: YUVImage) -> Bool {
        Double(image.width) == width && Double(image.height) == height && image.cb.width == chroma.width
            && image.cb.height == chroma.height
    }

    /// Warps `image` (writable, the size given at init) by `correction`, clamped.
    func apply(_ correction: CameraMotion, to image: YUVImage) throws {
        let clamped = clamp(correction)
        var frame = VSFrame()
        frame.data = (image.luma.base, image.cb.base, image.cr.base, nil)
        frame.linesize = (Int32(image.luma.stride), Int32(image.cb.stride), Int32(image.cr.stride), 0)
        // Source and destination are the same picture: libvidstab copies it first.
        let prepared = withUnsafeMutablePointer(to: &frame) { vsTransformPrepare(&data, $0, $0) }
        guard prepared == 0 else {
            throw VRenderError.input("--stabilize", "libvidstab could not prepare a frame")
        }
        var transform = VSTransform()
        transform.x = clamped.x
        transform.y = clamped.y
        transform.alpha = clamped.alpha
        transform.zoom = zoomPercent
        _ = vsDoTransform(&data, transform)
        _ = vsTransformFinish(&data)
    }

    /// The correction limited to what the zoom's margin can hide: rotation to half the
    /// vertical margin's worth at the picture's side, translation to what is left.
    func clamp(_ correction: CameraMotion) -> CameraMotion {
        let marginX = width * zoomPercent / 200, marginY = height * zoomPercent / 200
        let maxAlpha = 0.5 * marginY / (width / 2)
        let alpha = min(max(correction.alpha, -maxAlpha), maxAlpha)
        let roomX = marginX - abs(alpha) * height / 2, roomY = marginY - abs(alpha) * width / 2
        return CameraMotion(x: min(max(correction.x, -roomX), roomX), y: min(max(correction.y, -roomY), roomY),
                            alpha: alpha)
    }
}
