/// Whole-picture operations the export's normalize stage needs besides scaling.
public enum ImageOps {
    /// Limited-range black: Y' 16, neutral chroma.
    public static let blackLuma: UInt8 = 16
    public static let neutralChroma: UInt8 = 128

    /// Paints everything outside `rect` black (the letterbox or pillarbox bars). `rect` must have
    /// even origin and size so chroma samples are either inside or outside it.
    public static func fillBlack(_ image: YUVImage, outside rect: PixelRect) {
        fill(image.luma, outside: rect, scaleX: 1, scaleY: 1, with: blackLuma)
        let scaleX = image.luma.width / Swift.max(image.cb.width, 1)
        let scaleY = image.luma.height / Swift.max(image.cb.height, 1)
        fill(image.cb, outside: rect, scaleX: scaleX, scaleY: scaleY, with: neutralChroma)
        fill(image.cr, outside: rect, scaleX: scaleX, scaleY: scaleY, with: neutralChroma)
    }

    private static func fill(_ plane: PlaneView, outside rect: PixelRect, scaleX: Int, scaleY: Int, with value: UInt8) {
        let left = rect.x / scaleX, top = rect.y / scaleY
        let right = Swift.min(plane.width, (rect.x + rect.width) / scaleX)
        let bottom = Swift.min(plane.height, (rect.y + rect.height) / scaleY)
        for y in 0..<plane.height {
            let row = plane.row(y)
            if y < top || y >= bottom {
                row.update(repeating: value, count: plane.width)
                continue
            }
            if left > 0 { row.update(repeating: value, count: left) }
            if right < plane.width { (row + right).update(repeating: value, count: plane.width - right) }
        }
    }

    /// Writes `source` turned clockwise by `rotation` into `destination` with its top-left corner
    /// at (`x`, `y`) (even). The rotated source must fit inside the destination.
    public static func rotate(_ source: YUVImage, by rotation: Rotation, into destination: YUVImage, x: Int, y: Int) {
        let chromaScaleX = source.luma.width / Swift.max(source.cb.width, 1)
        let chromaScaleY = source.luma.height / Swift.max(source.cb.height, 1)
        rotatePlane(source.luma, rotation, destination.luma, x, y)
        // 4:2:0 only: a quarter turn keeps the chroma plane's own geometry consistent.
        rotatePlane(source.cb, rotation, destination.cb, x / chromaScaleX, y / chromaScaleY)
        rotatePlane(source.cr, rotation, destination.cr, x / chromaScaleX, y / chromaScaleY)
    }

    /// One plane. For a clockwise quarter turn, destination pixel (u, v) comes from source
    /// (v, H-1-u): the source's bottom-left corner becomes the top-left.
    private static func rotatePlane(_ source: PlaneView, _ rotation: Rotation, _ destination: PlaneView, _ originX: Int, _ originY: Int) {
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
                for u in 0..<outWidth { out[u] = source.base[(h - 1 - u) * source.stride + v] }
            case .clockwise270:
                for u in 0..<outWidth { out[u] = source.base[u * source.stride + (w - 1 - v)] }
            }
        }
    }
}
