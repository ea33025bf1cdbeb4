internal import CFFmpeg
import VRenderCore

/// Turns any decoded picture into the export's canvas: 4:2:0 limited range, upright, scaled to
/// fit with its aspect ratio kept, and centred on black bars (letterbox or pillarbox).
///
/// Owns a `SwsContext` (`sws_getCachedContext` / `sws_freeContext`), re-created only when the
/// input geometry or format changes (i.e. once per take). Confined to one thread.
public final class FrameNormalizer {
    public let canvasWidth: Int
    public let canvasHeight: Int
    private var scaler: OpaquePointer?
    /// Scaled-but-not-yet-rotated picture for takes that must be turned upright in pixels.
    private var staging: Frame?

    public init(canvasWidth: Int, canvasHeight: Int) {
        self.canvasWidth = canvasWidth
        self.canvasHeight = canvasHeight
    }

    deinit { sws_freeContext(scaler) }

    /// True when `frame` already is the canvas: no scaling, conversion or rotation needed, so
    /// it can go on without being touched (or copied).
    public func isCanvasReady(_ frame: Frame, rotation: Rotation) -> Bool {
        rotation == .none && frame.width == canvasWidth && frame.height == canvasHeight && frame.isPlanar420LimitedRange
    }

    /// Where a picture of this stored size and rotation lands on the canvas.
    public func placement(width: Int, height: Int, rotation: Rotation) -> PixelRect {
        let upright = rotation.upright(width: width, height: height)
        return Fit.aspectFit(sourceWidth: upright.width, sourceHeight: upright.height,
                             canvasWidth: canvasWidth, canvasHeight: canvasHeight)
    }

    /// Scales (and turns upright) `source` into `canvas`, a canvas-sized writable 4:2:0 frame.
    public func normalize(_ source: Frame, rotation: Rotation, into canvas: Frame) throws {
        let rect = placement(width: source.width, height: source.height, rotation: rotation)
        let canvasImage = canvas.yuvImage()
        ImageOps.fillBlack(canvasImage, outside: rect)
        if rotation == .none {
            try scale(source, into: canvas, rect: rect)
            return
        }
        let stored = rotation.upright(width: rect.width, height: rect.height)  // undo the swap
        if staging == nil || staging!.width != stored.width || staging!.height != stored.height {
            staging = try Frame.picture(width: stored.width, height: stored.height)
        }
        let staged = staging!
        try scale(source, into: staged, rect: PixelRect(x: 0, y: 0, width: stored.width, height: stored.height))
        ImageOps.rotate(staged.yuvImage(), by: rotation, into: canvasImage, x: rect.x, y: rect.y)
    }

    /// `sws_scale` of the whole source into `rect` of `destination`.
    private func scale(_ source: Frame, into destination: Frame, rect: PixelRect) throws {
        let src = source.pointer.pointee
        scaler = sws_getCachedContext(scaler, src.width, src.height, source.pixelFormat,
                                      Int32(rect.width), Int32(rect.height), AV_PIX_FMT_YUV420P,
                                      SWS_BILINEAR, nil, nil, nil)
        guard let scaler else {
            throw VRenderError(.runtime, subject: "scaler",
                               reason: "cannot convert \(src.width)x\(src.height) \(pixelFormatName(source.pixelFormat)) to the canvas")
        }
        // Full-range sources ("JPEG" range, e.g. MJPEG webcams) must be squeezed to TV range.
        let coefficients = sws_getCoefficients(SWS_CS_DEFAULT)
        let fullRange: Int32 = src.color_range == AVCOL_RANGE_JPEG ? 1 : 0
        sws_setColorspaceDetails(scaler, coefficients, fullRange, coefficients, 0, 0, 1 << 16, 1 << 16)

        let dst = destination.pointer.pointee
        let chromaX = rect.x / 2, chromaY = rect.y / 2
        withUnsafeBytes(of: src.data) { srcData in
            withUnsafeBytes(of: src.linesize) { srcLines in
                withUnsafeBytes(of: dst.data) { dstData in
                    withUnsafeBytes(of: dst.linesize) { dstLines in
                        let sourcePlanes = srcData.bindMemory(to: UnsafePointer<UInt8>?.self)
                        let sourceStrides = srcLines.bindMemory(to: Int32.self)
                        let destPlanes = dstData.bindMemory(to: UnsafeMutablePointer<UInt8>?.self)
                        let destStrides = dstLines.bindMemory(to: Int32.self)
                        // Point the destination planes at the placement rectangle's corner.
                        let targets: [UnsafeMutablePointer<UInt8>?] = [
                            destPlanes[0]! + rect.y * Int(destStrides[0]) + rect.x,
                            destPlanes[1]! + chromaY * Int(destStrides[1]) + chromaX,
                            destPlanes[2]! + chromaY * Int(destStrides[2]) + chromaX,
                            nil,
                        ]
                        let targetStrides: [Int32] = [destStrides[0], destStrides[1], destStrides[2], 0]
                        _ = sws_scale(scaler, sourcePlanes.baseAddress, sourceStrides.baseAddress, 0, src.height,
                                      targets, targetStrides)
                    }
                }
            }
        }
    }

    private func pixelFormatName(_ format: AVPixelFormat) -> String {
        av_get_pix_fmt_name(format).map { String(cString: $0) } ?? "unknown format"
    }
}
