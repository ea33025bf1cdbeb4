/// Whole-picture operations the export's normalize stage needs besides scaling.
public enum ImageOps {
    /// Limited-range black: Y' 16, neutral chroma.
    public static let blackLuma: UInt8 = 16
    public static let neutralChroma: UInt8 = 128

    /// Paints everything outside `rect` black (the letterbox or pillarbox bars). `rect` should
    /// have its origin and size on chroma block boundaries (even for 4:2:0), so chroma samples are
    /// either inside or outside it; a chroma sample that covers luma on both sides (an odd-sized
    /// `rect`) counts as inside and is left alone, like the last chroma column of an odd-sized
    /// picture. Odd-sized pictures keep their 2x2 blocks: the chroma block size rounds up.
    public static func fillBlack(_ image: YUVImage, outside rect: PixelRect) {
        fill(image.luma, outside: rect, scaleX: 1, scaleY: 1, with: blackLuma)
        let scaleX = image.chromaBlockWidth, scaleY = image.chromaBlockHeight
        fill(image.cb, outside: rect, scaleX: scaleX, scaleY: scaleY, with: neutralChroma)
        fill(image.cr, outside: rect, scaleX: scaleX, scaleY: scaleY, with: neutralChroma)
    }

    static func fill<Plane: SamplePlane>(_ plane: Plane, outside rect: PixelRect, scaleX: Int, scaleY: Int,
                                         with value: Plane.Sample) {
        // Inside: from the sample holding the rectangle's first column (row) to the one holding
        // its last, both rounded outward; an empty rectangle leaves nothing inside.
        let empty = rect.width <= 0 || rect.height <= 0
        let left = Swift.max(0, rect.x / scaleX), top = Swift.max(0, rect.y / scaleY)
        let right = empty ? left : Swift.min(plane.width, (rect.x + rect.width + scaleX - 1) / scaleX)
        let bottom = empty ? top : Swift.min(plane.height, (rect.y + rect.height + scaleY - 1) / scaleY)
        for y in 0..<plane.height {
            let row = plane.row(y)
            if y < top || y >= bottom || right <= left {
                row.update(repeating: value, count: plane.width)
                continue
            }
            if left > 0 { row.update(repeating: value, count: Swift.min(left, plane.width)) }
            if right < plane.width { (row + right).update(repeating: value, count: plane.width - right) }
        }
    }

    /// Writes `source` turned clockwise by `rotation` into `destination` with its top-left corner
    /// at (`x`, `y`) (even). The rotated source must fit inside the destination.
    public static func rotate(_ source: YUVImage, by rotation: Rotation, into destination: YUVImage, x: Int, y: Int) {
        // Rounded up, so an odd-sized 4:2:0 source keeps 2x2 blocks (853 luma, 427 chroma).
        let chromaScaleX = source.chromaBlockWidth, chromaScaleY = source.chromaBlockHeight
        rotatePlane(source.luma, rotation, destination.luma, x, y)
        // 4:2:0 only: a quarter turn keeps the chroma plane's own geometry consistent.
        rotatePlane(source.cb, rotation, destination.cb, x / chromaScaleX, y / chromaScaleY)
        rotatePlane(source.cr, rotation, destination.cr, x / chromaScaleX, y / chromaScaleY)
    }

    /// One plane. For a clockwise quarter turn, destination pixel (u, v) comes from source
    /// (v, H-1-u): the source's bottom-left corner becomes the top-left.
    static func rotatePlane<Plane: SamplePlane>(_ source: Plane, _ rotation: Rotation, _ destination: Plane,
                                                _ originX: Int, _ originY: Int) {
        let w = source.width, h = source.height
        let (outWidth, outHeight) = rotation.upright(width: w, height: h)
        precondition(originX + outWidth <= destination.width && originY + outHeight <= destination.height,
                     "rotated picture does not fit the destination")
        for v in 0..<outHeight {
            let out = destination.row(originY + v) + originX
            switch rotation {
            case .none:
                out.update(from: source.row(v), count: w)
            case .upsideDown:
                let input = source.row(h - 1 - v)
                for u in 0..<outWidth { out[u] = input[w - 1 - u] }
            case .clockwise90:
                for u in 0..<outWidth { out[u] = source.row(h - 1 - u)[v] }
            case .clockwise270:
                for u in 0..<outWidth { out[u] = source.row(u)[w - 1 - v] }
            }
        }
    }
}

/// A plane of samples of one width (8-bit `PlaneView`, 16-bit `PlaneView16`): bars and quarter
/// turns have one implementation for every depth.
public protocol SamplePlane {
    associatedtype Sample
    var width: Int { get }
    var height: Int { get }
    func row(_ y: Int) -> UnsafeMutablePointer<Sample>
}

extension PlaneView: SamplePlane {}
extension PlaneView16: SamplePlane {}
