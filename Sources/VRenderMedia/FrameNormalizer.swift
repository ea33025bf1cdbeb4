internal import CFFmpeg
import VRenderCore

/// Turns any decoded picture into the export's canvas: 4:2:0 limited range (8-bit, or 10-bit
/// for HDR), upright and unmirrored, square pixels, in the output's colour matrix, scaled to fit
/// with its display aspect ratio kept and centred on black bars (letterbox or pillarbox).
///
/// Owns two scalers (`SwscaleContext`): source → canvas (or → RGB when the matrix must change)
/// and RGB → canvas; each is rebuilt only when a take's geometry, format or colours differ from
/// the last (i.e. once per take). Confined to one thread.
public final class FrameNormalizer {
    public let canvasWidth: Int
    public let canvasHeight: Int
    /// The canvas holds 10-bit samples (`yuv420p10le`) instead of 8-bit.
    public let tenBit: Bool
    /// The colour matrix every canvas is written in; nil keeps each source's matrix.
    public let target: ColourDescription?
    private let scaler = SwscaleContext()
    /// RGB → canvas, for takes whose matrix is converted (see `scale`).
    private let matrixScaler = SwscaleContext()
    /// Scaled-but-not-yet-rotated picture for takes that must be turned upright in pixels.
    private var staging: Frame?
    /// The scaled picture in RGB, between the two passes of a matrix conversion.
    private var rgbStaging: Frame?

    public init(canvasWidth: Int, canvasHeight: Int, tenBit: Bool = false, target: ColourDescription? = nil) {
        self.canvasWidth = canvasWidth
        self.canvasHeight = canvasHeight
        self.tenBit = tenBit
        self.target = target
    }

    private var canvasFormat: AVPixelFormat { tenBit ? AV_PIX_FMT_YUV420P10LE : AV_PIX_FMT_YUV420P }

    /// True when `frame` already is the canvas: right size, format, range and matrix, upright
    /// square pixels, so it can go on without being touched (or copied). `colour` is the take's
    /// description.
    public func isCanvasReady(_ frame: Frame, orientation: Orientation, sampleAspect: Rational = .square,
                              colour: ColourDescription? = nil) -> Bool {
        orientation.isUpright && sampleAspect == .square && frame.width == canvasWidth && frame.height == canvasHeight
            && frame.pixelFormat == canvasFormat && frame.pointer.pointee.color_range != AVCOL_RANGE_JPEG
            && !needsMatrixConversion(colour)
    }

    /// `isCanvasReady` for a picture of square pixels that is only turned.
    public func isCanvasReady(_ frame: Frame, rotation: Rotation, colour: ColourDescription? = nil) -> Bool {
        isCanvasReady(frame, orientation: Orientation(rotation: rotation), colour: colour)
    }

    private func needsMatrixConversion(_ colour: ColourDescription?) -> Bool {
        guard let colour, let target else { return false }
        return ColourDescription.matrixFamily(colour.matrix) != ColourDescription.matrixFamily(target.matrix)
    }

    /// Where a picture of this stored size, pixel shape and orientation lands on the canvas:
    /// fitted by the aspect a player shows (width × sample aspect ratio, turned upright).
    public func placement(width: Int, height: Int, orientation: Orientation, sampleAspect: Rational = .square) -> PixelRect {
        let upright = orientation.upright(width: sampleAspect.displayWidth(width), height: height)
        return Fit.aspectFit(sourceWidth: upright.width, sourceHeight: upright.height,
                             canvasWidth: canvasWidth, canvasHeight: canvasHeight)
    }

    /// `placement` for a picture of square pixels that is only turned.
    public func placement(width: Int, height: Int, rotation: Rotation) -> PixelRect {
        placement(width: width, height: height, orientation: Orientation(rotation: rotation))
    }

    /// Scales (squaring its pixels), turns upright and unmirrors `source` into `canvas`, a
    /// canvas-sized writable frame of the canvas format. `colour` is the source's (resolved)
    /// description: its matrix and range are converted to the target's.
    public func normalize(_ source: Frame, orientation: Orientation, sampleAspect: Rational = .square,
                          colour: ColourDescription? = nil, into canvas: Frame) throws {
        let rect = placement(width: source.width, height: source.height, orientation: orientation, sampleAspect: sampleAspect)
        if orientation.isUpright {
            try scale(source, colour: colour, into: canvas, rect: rect)
        } else {
            let stored = orientation.upright(width: rect.width, height: rect.height)  // undo the swap
            let staged = try Self.reuse(staging, width: stored.width, height: stored.height) {
                try Frame.picture(width: stored.width, height: stored.height, tenBit: tenBit)
            }
            staging = staged
            try scale(source, colour: colour, into: staged, rect: PixelRect(x: 0, y: 0, width: stored.width, height: stored.height))
            if tenBit {
                ImageOps16.orient(staged.yuvImage16(), by: orientation, into: canvas.yuvImage16(), x: rect.x, y: rect.y)
            } else {
                ImageOps.orient(staged.yuvImage(), by: orientation, into: canvas.yuvImage(), x: rect.x, y: rect.y)
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

    /// `normalize` for a picture of square pixels that is only turned.
    public func normalize(_ source: Frame, rotation: Rotation, colour: ColourDescription? = nil, into canvas: Frame) throws {
        try normalize(source, orientation: Orientation(rotation: rotation), colour: colour, into: canvas)
    }

    /// Scales the whole source into `rect` of `destination`, converting the range, and the
    /// matrix when the source's differs from the target's. Full-range webcam MJPEG is squeezed
    /// to TV range here.
    private func scale(_ source: Frame, colour: ColourDescription?, into destination: Frame, rect: PixelRect) throws {
        let fullRange = source.isFullRange || (colour?.fullRange ?? false)
        let input = SwscaleContext.Picture(width: source.width, height: source.height, format: source.pixelFormat,
                                           matrix: colour?.matrix ?? SwscaleContext.defaultMatrix, fullRange: fullRange)
        func canvas(matrix: Int32) -> SwscaleContext.Picture {
            SwscaleContext.Picture(width: rect.width, height: rect.height, format: canvasFormat, matrix: matrix, fullRange: false)
        }
        guard needsMatrixConversion(colour), let target else {
            try scaler.scale(.init(source: input, destination: canvas(matrix: input.matrix), filter: .bilinear),
                             from: Planes(source), rows: source.height, into: try Planes(destination).moved(to: rect, format: canvasFormat))
            return
        }
        // Between two Y'CbCr formats FFmpeg 5.1's swscale converts the range but not the matrix:
        // go through RGB, decoded with the source's matrix and encoded with the target's.
        let rgb = try Self.reuse(rgbStaging, width: rect.width, height: rect.height) {
            try Frame.rgb(width: rect.width, height: rect.height)
        }
        rgbStaging = rgb
        let rgbPicture = SwscaleContext.Picture(width: rect.width, height: rect.height, format: AV_PIX_FMT_RGB24,
                                                matrix: input.matrix, fullRange: true)
        try scaler.scale(.init(source: input, destination: rgbPicture, filter: .bilinear),
                         from: Planes(source), rows: source.height, into: Planes(rgb))
        var rgbInput = rgbPicture
        rgbInput.matrix = target.matrix
        try matrixScaler.scale(.init(source: rgbInput, destination: canvas(matrix: target.matrix), filter: .bilinear),
                               from: Planes(rgb), rows: rect.height, into: try Planes(destination).moved(to: rect, format: canvasFormat))
    }

    /// `frame` when it has this size, otherwise a new one from `make`: staging frames follow
    /// the take's size and are reused for all of its frames.
    private static func reuse(_ frame: Frame?, width: Int, height: Int, make: () throws -> Frame) rethrows -> Frame {
        if let frame, frame.width == width, frame.height == height { return frame }
        return try make()
    }
}
