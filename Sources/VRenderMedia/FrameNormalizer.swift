internal import CFFmpeg
import VRenderCore

/// Turns any decoded picture into the export's canvas: 4:2:0 limited range (8-bit, or 10-bit
/// for HDR), upright, in the output's colour matrix, scaled to fit with its aspect ratio kept
/// and centred on black bars (letterbox or pillarbox).
///
/// Owns a `SwsContext` (`sws_getCachedContext` / `sws_freeContext`), re-created only when the
/// input geometry or format changes (i.e. once per take). Confined to one thread.
public final class FrameNormalizer {
    public let canvasWidth: Int
    public let canvasHeight: Int
    /// The canvas holds 10-bit samples (`yuv420p10le`) instead of 8-bit.
    public let tenBit: Bool
    /// The colour matrix every canvas is written in; nil keeps each source's matrix.
    public let target: ColourDescription?
    private var scaler: OpaquePointer?
    /// RGB → canvas, for takes whose matrix is converted (see `scale`).
    private var matrixScaler: OpaquePointer?
    /// What each scaler was told about colours, so tables are rebuilt once per take.
    private var configured: ScalerColours?
    private var matrixConfigured: ScalerColours?
    /// Scaled-but-not-yet-rotated picture for takes that must be turned upright in pixels.
    private var staging: Frame?
    /// The scaled picture in RGB, between the two passes of a matrix conversion.
    private var rgbStaging: Frame?

    private struct ScalerColours: Equatable {
        var context: OpaquePointer
        var sourceMatrix: Int32
        var sourceFull: Bool
        var destinationMatrix: Int32
        var destinationFull: Bool
    }

    public init(canvasWidth: Int, canvasHeight: Int, tenBit: Bool = false, target: ColourDescription? = nil) {
        self.canvasWidth = canvasWidth
        self.canvasHeight = canvasHeight
        self.tenBit = tenBit
        self.target = target
    }

    deinit {
        sws_freeContext(scaler)
        sws_freeContext(matrixScaler)
    }

    private var canvasFormat: AVPixelFormat { tenBit ? AV_PIX_FMT_YUV420P10LE : AV_PIX_FMT_YUV420P }

    /// True when `frame` already is the canvas: right size, format, range and matrix, upright,
    /// so it can go on without being touched (or copied). `colour` is the take's description.
    public func isCanvasReady(_ frame: Frame, rotation: Rotation, colour: ColourDescription? = nil) -> Bool {
        rotation == .none && frame.width == canvasWidth && frame.height == canvasHeight
            && frame.pixelFormat == canvasFormat && frame.pointer.pointee.color_range != AVCOL_RANGE_JPEG
            && !needsMatrixConversion(colour)
    }

    private func needsMatrixConversion(_ colour: ColourDescription?) -> Bool {
        guard let colour, let target else { return false }
        return ColourDescription.matrixFamily(colour.matrix) != ColourDescription.matrixFamily(target.matrix)
    }

    /// Where a picture of this stored size and rotation lands on the canvas.
    public func placement(width: Int, height: Int, rotation: Rotation) -> PixelRect {
        let upright = rotation.upright(width: width, height: height)
        return Fit.aspectFit(sourceWidth: upright.width, sourceHeight: upright.height,
                             canvasWidth: canvasWidth, canvasHeight: canvasHeight)
    }

    /// Scales (and turns upright) `source` into `canvas`, a canvas-sized writable frame of the
    /// canvas format. `colour` is the source's (resolved) description: its matrix and range are
    /// converted to the target's.
    public func normalize(_ source: Frame, rotation: Rotation, colour: ColourDescription? = nil, into canvas: Frame) throws {
        let rect = placement(width: source.width, height: source.height, rotation: rotation)
        if rotation == .none {
            try scale(source, colour: colour, into: canvas, rect: rect)
        } else {
            let stored = rotation.upright(width: rect.width, height: rect.height)  // undo the swap
            if staging == nil || staging!.width != stored.width || staging!.height != stored.height {
                staging = try Frame.picture(width: stored.width, height: stored.height, tenBit: tenBit)
            }
            let staged = staging!
            try scale(source, colour: colour, into: staged, rect: PixelRect(x: 0, y: 0, width: stored.width, height: stored.height))
            if tenBit {
                ImageOps16.rotate(staged.yuvImage16(), by: rotation, into: canvas.yuvImage16(), x: rect.x, y: rect.y)
            } else {
                ImageOps.rotate(staged.yuvImage(), by: rotation, into: canvas.yuvImage(), x: rect.x, y: rect.y)
            }
        }
        // Bars last: swscale's vector code may write a few samples past the right edge of the
        // rectangle it was given, into the bar beside it.
        if tenBit {
            ImageOps16.fillBlack(canvas.yuvImage16(), outside: rect)
        } else {
            ImageOps.fillBlack(canvas.yuvImage(), outside: rect)
        }
    }

    /// `sws_scale` of the whole source into `rect` of `destination`, converting the range, and
    /// the matrix when the source's differs from the target's.
    private func scale(_ source: Frame, colour: ColourDescription?, into destination: Frame, rect: PixelRect) throws {
        let fullRange = source.isFullRange || (colour?.fullRange ?? false)
        let sourceMatrix = colour?.matrix ?? Int32(SWS_CS_DEFAULT)
        guard needsMatrixConversion(colour), let target else {
            let scaler = try context(self.scaler, from: source, width: rect.width, height: rect.height, to: canvasFormat)
            self.scaler = scaler
            configure(scaler, &configured, source: (sourceMatrix, fullRange), destination: (sourceMatrix, false))
            run(scaler, from: source, into: destination, at: rect)
            return
        }
        // Between two Y'CbCr formats FFmpeg 5.1's swscale converts the range but not the matrix:
        // go through RGB, decoded with the source's matrix and encoded with the target's.
        if rgbStaging == nil || rgbStaging!.width != rect.width || rgbStaging!.height != rect.height {
            rgbStaging = try Frame.rgb(width: rect.width, height: rect.height)
        }
        let rgb = rgbStaging!
        let toRGB = try context(scaler, from: source, width: rect.width, height: rect.height, to: AV_PIX_FMT_RGB24)
        scaler = toRGB
        configure(toRGB, &configured, source: (sourceMatrix, fullRange), destination: (sourceMatrix, true))
        run(toRGB, from: source, into: rgb, at: nil)
        let fromRGB = try context(matrixScaler, from: rgb, width: rect.width, height: rect.height, to: canvasFormat)
        matrixScaler = fromRGB
        configure(fromRGB, &matrixConfigured, source: (target.matrix, true), destination: (target.matrix, false))
        run(fromRGB, from: rgb, into: destination, at: rect)
    }

    /// `sws_getCachedContext` from `source`'s size and format to `width`×`height` of `format`.
    private func context(_ cached: OpaquePointer?, from source: Frame, width: Int, height: Int,
                         to format: AVPixelFormat) throws -> OpaquePointer {
        guard let context = sws_getCachedContext(cached, source.pointer.pointee.width, source.pointer.pointee.height,
                                                 source.pixelFormat, Int32(width), Int32(height), format,
                                                 SWS_BILINEAR, nil, nil, nil) else {
            throw VRenderError(.runtime, subject: "scaler",
                               reason: "cannot convert \(source.width)x\(source.height) \(pixelFormatName(source.pixelFormat)) to \(width)x\(height) \(pixelFormatName(format))")
        }
        return context
    }

    /// Tells a scaler the matrices and ranges on both sides (`sws_setColorspaceDetails`), once
    /// per context and setting, since it rebuilds tables. Full-range webcam MJPEG is squeezed
    /// to TV range here.
    private func configure(_ context: OpaquePointer, _ current: inout ScalerColours?,
                           source: (matrix: Int32, fullRange: Bool), destination: (matrix: Int32, fullRange: Bool)) {
        let wanted = ScalerColours(context: context, sourceMatrix: source.matrix, sourceFull: source.fullRange,
                                   destinationMatrix: destination.matrix, destinationFull: destination.fullRange)
        guard current != wanted else { return }
        sws_setColorspaceDetails(context, sws_getCoefficients(Self.swsMatrix(source.matrix)), source.fullRange ? 1 : 0,
                                 sws_getCoefficients(Self.swsMatrix(destination.matrix)), destination.fullRange ? 1 : 0,
                                 0, 1 << 16, 1 << 16)
        current = wanted
    }

    /// Runs `context` over all of `source` into `destination`, or into its rectangle `rect`
    /// (a planar 4:2:0 canvas: planes are pointed at the rectangle's corner).
    private func run(_ context: OpaquePointer, from source: Frame, into destination: Frame, at rect: PixelRect?) {
        let src = source.pointer.pointee, dst = destination.pointer.pointee
        let sampleBytes = tenBit ? 2 : 1
        withUnsafeBytes(of: src.data) { srcData in
            withUnsafeBytes(of: src.linesize) { srcLines in
                withUnsafeBytes(of: dst.data) { dstData in
                    withUnsafeBytes(of: dst.linesize) { dstLines in
                        let destPlanes = dstData.bindMemory(to: UnsafeMutablePointer<UInt8>?.self)
                        let destStrides = dstLines.bindMemory(to: Int32.self)
                        var targets = Array(destPlanes.prefix(4))
                        if let rect {
                            targets[0] = destPlanes[0]! + rect.y * Int(destStrides[0]) + rect.x * sampleBytes
                            for plane in 1...2 {
                                targets[plane] = destPlanes[plane]! + rect.y / 2 * Int(destStrides[plane]) + rect.x / 2 * sampleBytes
                            }
                        }
                        _ = sws_scale(context, srcData.bindMemory(to: UnsafePointer<UInt8>?.self).baseAddress,
                                      srcLines.bindMemory(to: Int32.self).baseAddress, 0, src.height,
                                      targets, Array(destStrides.prefix(4)))
                    }
                }
            }
        }
    }

    /// swscale numbers its coefficient tables as H.273 numbers matrices (BT.709 = 1, FCC = 4,
    /// BT.470BG = 5, SMPTE 170M = 6, SMPTE 240M = 7, BT.2020 = 9); anything else is BT.601.
    static func swsMatrix(_ matrix: Int32) -> Int32 {
        [1, 4, 5, 6, 7, 9, 10].contains(matrix) ? matrix : Int32(SWS_CS_DEFAULT)
    }

    private func pixelFormatName(_ format: AVPixelFormat) -> String {
        av_get_pix_fmt_name(format).map { String(cString: $0) } ?? "unknown format"
    }
}
