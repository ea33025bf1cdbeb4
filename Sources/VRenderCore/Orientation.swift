import Foundation

/// How a player turns a stored picture upright: a clockwise quarter turn, then (for a mirrored
/// selfie) a left-right flip of the turned picture.
///
/// Why this order: a display matrix maps a stored point (x, y) to (a·x + c·y + tx, b·x + d·y + ty)
/// (y pointing down). `av_display_matrix_flip` makes a horizontal flip by negating a, c and tx,
/// which negates x' — the flip acts on the *displayed* picture, after the rotation. So a matrix
/// with a negative determinant is F·R (F = mirror x), and R = F·M is recovered by negating a and
/// c again. (A vertical flip is the same as a half turn followed by a horizontal flip.)
public struct Orientation: Sendable, Hashable, CustomStringConvertible {
    public var rotation: Rotation
    /// Flip left-right after the rotation.
    public var mirrored: Bool

    public init(rotation: Rotation = .none, mirrored: Bool = false) {
        self.rotation = rotation
        self.mirrored = mirrored
    }

    /// No turn, no flip: the stored picture is upright.
    public static let upright = Orientation()

    public var isUpright: Bool { self == .upright }

    /// Reads a display matrix (9 values; a, b, c, d at 0, 1, 3, 4 in 16.16 fixed point, the
    /// layout of FFmpeg's side data and of a 'tkhd'). A degenerate matrix (a column of zeros, as
    /// in a damaged file) means upright, as players treat it.
    public init(displayMatrix matrix: [Int32]) {
        guard matrix.count >= 9 else {
            self = .upright
            return
        }
        let (a, b, c, d) = (Double(matrix[0]), Double(matrix[1]), Double(matrix[3]), Double(matrix[4]))
        let mirrored = a * d - b * c < 0
        // Undo the flip (negate a and c) to leave the pure rotation R.
        let (ra, rc) = mirrored ? (-a, -c) : (a, c)
        let firstScale = (ra * ra + rc * rc).squareRoot(), secondScale = (b * b + d * d).squareRoot()
        guard firstScale > 0, secondScale > 0 else {
            self = .upright
            return
        }
        // The angle `av_display_rotation_get` measures (counter-clockwise), negated: players turn clockwise.
        let clockwise = atan2(b / secondScale, ra / firstScale) * 180 / .pi
        self.init(rotation: Rotation(clockwiseDegrees: clockwise), mirrored: mirrored)
    }

    /// The upright size of a picture stored (in square pixels) as `width`×`height`: a flip keeps it.
    public func upright(width: Int, height: Int) -> (width: Int, height: Int) {
        rotation.upright(width: width, height: height)
    }

    /// As users compare it with ffprobe: "rotation -90°" (0° when upright), "a mirror flip",
    /// "a mirror flip and rotation 90°".
    public var description: String {
        let turn = "rotation \(rotation.ffprobeDegrees)°"
        guard mirrored else { return turn }
        return rotation == .none ? "a mirror flip" : "a mirror flip and " + turn
    }
}

extension Rational {
    /// Square pixels: a sample aspect ratio of 1:1.
    public static let square = Rational(1, 1)

    /// A sample aspect ratio as a file states it (`num`:`den`), reduced; 0/0, 0/1, a negative
    /// one or one beyond 1:8..8:1 (no camera makes such pixels: a damaged header) means square.
    public static func sampleAspect(_ numerator: Int, _ denominator: Int) -> Rational {
        guard numerator > 0, denominator > 0, numerator <= 8 * denominator, denominator <= 8 * numerator else {
            return .square
        }
        return Rational(numerator, denominator).reduced()
    }

    /// The width in square pixels of `width` stored pixels of this sample aspect ratio, at least 1.
    public func displayWidth(_ width: Int) -> Int {
        Swift.max(1, Int((Double(width) * Double(numerator) / Double(denominator)).rounded()))
    }
}
