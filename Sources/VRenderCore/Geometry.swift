/// A rectangle in pixels.
public struct PixelRect: Sendable, Hashable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}

/// Clockwise rotation that turns a stored picture upright, as players apply a display matrix.
public enum Rotation: Int, Sendable, Hashable, Codable, CaseIterable {
    case none = 0, clockwise90 = 90, upsideDown = 180, clockwise270 = 270

    /// Normalizes any angle in degrees (clockwise, as `ffprobe`'s `rotation` tag shows it
    /// negated) to the nearest quarter turn. NaN or infinity (`av_display_rotation_get` answers
    /// NaN for a degenerate display matrix, e.g. all zeros in a damaged file) means no rotation,
    /// as players treat it.
    public init(clockwiseDegrees degrees: Double) {
        guard degrees.isFinite else {
            self = .none
            return
        }
        // The remainder before the conversion: Int(_:) traps on angles beyond Int's range.
        var quarter = Int((degrees / 90).rounded().truncatingRemainder(dividingBy: 4))
        if quarter < 0 { quarter += 4 }
        self = Rotation(rawValue: quarter * 90)!
    }

    /// The angle as ffprobe prints it (`rotation` side data: counter-clockwise, so a picture a
    /// player turns 90° clockwise shows as -90), which is what users compare with.
    public var ffprobeDegrees: Int {
        switch self {
        case .none: return 0
        case .clockwise90: return -90
        case .upsideDown: return 180
        case .clockwise270: return 90
        }
    }

    /// True when the rotation swaps width and height.
    public var swapsAxes: Bool { self == .clockwise90 || self == .clockwise270 }

    /// The upright size of a picture stored as `width`×`height`.
    public func upright(width: Int, height: Int) -> (width: Int, height: Int) {
        swapsAxes ? (height, width) : (width, height)
    }
}

package enum Fit {
    /// The largest rectangle with the source's aspect ratio that fits in the canvas, centred,
    /// with even offsets and sizes so 4:2:0 chroma planes line up (letterbox or pillarbox).
    package static func aspectFit(sourceWidth: Int, sourceHeight: Int,
                                 canvasWidth: Int, canvasHeight: Int) -> PixelRect {
        precondition(sourceWidth > 0 && sourceHeight > 0 && canvasWidth > 0 && canvasHeight > 0)
        var width = canvasWidth
        var height = canvasHeight
        // Compare aspect ratios exactly with integers: src_w/src_h vs canvas_w/canvas_h.
        if sourceWidth * canvasHeight > canvasWidth * sourceHeight {
            height = Int((Double(canvasWidth) * Double(sourceHeight) / Double(sourceWidth)).rounded())
        } else if sourceWidth * canvasHeight < canvasWidth * sourceHeight {
            width = Int((Double(canvasHeight) * Double(sourceWidth) / Double(sourceHeight)).rounded())
        }
        width = Swift.max(2, Swift.min(canvasWidth, width & ~1))
        height = Swift.max(2, Swift.min(canvasHeight, height & ~1))
        // Bars of a pixel or two (an 853x479 take on its even 852x478 canvas) look like a
        // defect, while stretching by under 1% is invisible: such pictures fill the canvas.
        if canvasWidth - width <= Swift.min(8, canvasWidth / 100) { width = canvasWidth }
        if canvasHeight - height <= Swift.min(8, canvasHeight / 100) { height = canvasHeight }
        let x = ((canvasWidth - width) / 2) & ~1
        let y = ((canvasHeight - height) / 2) & ~1
        return PixelRect(x: x, y: y, width: width, height: height)
    }
}
