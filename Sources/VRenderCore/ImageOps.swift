/// Whole-picture operations the export's normalize stage needs besides scaling.
package enum ImageOps {
    /// Limited-range black: Y' 16, neutral chroma.
    package static let blackLuma: UInt8 = 16
    package static let neutralChroma: UInt8 = 128

    /// Paints everything outside `rect` black (the letterbox or pillarbox bars). `rect` should
    /// have its origin and size on chroma block boundaries (even for 4:2:0), so chroma samples are
    /// either inside or outside it; a chroma sample that covers luma on both sides (an odd-sized
    /// `rect`) counts as inside and is left alone, like the last chroma column of an odd-sized
    /// picture. Odd-sized pictures keep their 2x2 blocks: the chroma block size rounds up.
    package static func fillBlack(_ image: YUVImage, outside rect: PixelRect) {
        fillBlack(image, outside: rect, black: blackLuma, neutral: neutralChroma)
    }

    /// A picture painted `black` (luma) and `neutral` (chroma) outside `rect`.
    static func fillBlack<Image: PlanarYUV>(_ image: Image, outside rect: PixelRect,
                                            black: Image.Plane.Sample, neutral: Image.Plane.Sample) {
        fill(image.luma, outside: rect, blocks: .yuv444, with: black)
        fill(image.cb, outside: rect, blocks: image.chroma, with: neutral)
        fill(image.cr, outside: rect, blocks: image.chroma, with: neutral)
    }

    /// Paints the samples of `plane` (sampling the picture in `blocks`) outside `rect`.
    static func fill<Plane: SamplePlane>(_ plane: Plane, outside rect: PixelRect, blocks: ChromaGeometry,
                                         with value: Plane.Sample) {
        // Inside: the samples whose blocks meet the rectangle (rounded outward), clipped to
        // the plane; an empty rectangle leaves nothing inside.
        let columns = blocks.chromaColumns(covering: Swift.max(0, rect.x)..<Swift.max(0, rect.x, rect.x + rect.width))
        let rows = blocks.chromaRows(covering: Swift.max(0, rect.y)..<Swift.max(0, rect.y, rect.y + rect.height))
        let left = columns.lowerBound, top = rows.lowerBound
        let right = Swift.min(plane.width, columns.upperBound), bottom = Swift.min(plane.height, rows.upperBound)
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
    package static func rotate(_ source: YUVImage, by rotation: Rotation, into destination: YUVImage, x: Int, y: Int) {
        rotatePlanes(source, by: rotation, into: destination, x: x, y: y)
    }

    /// Writes `source` turned clockwise and then, when `orientation` is mirrored, flipped
    /// left-right, into `destination` at (`x`, `y`) (even), as a player shows it.
    package static func orient(_ source: YUVImage, by orientation: Orientation, into destination: YUVImage, x: Int, y: Int) {
        rotatePlanes(source, by: orientation.rotation, mirrored: orientation.mirrored, into: destination, x: x, y: y)
    }

    /// The three planes of a picture turned by `rotation` (and flipped left-right after the
    /// turn when `mirrored`), its chroma planes placed at the block holding (`x`, `y`).
    /// Odd-sized 4:2:0 sources keep 2x2 blocks (853 luma, 427 chroma).
    static func rotatePlanes<Image: PlanarYUV>(_ source: Image, by rotation: Rotation, mirrored: Bool = false,
                                               into destination: Image, x: Int, y: Int) {
        rotatePlane(source.luma, rotation, mirrored, destination.luma, x, y)
        // 4:2:0 only: a quarter turn keeps the chroma plane's own geometry consistent.
        let chroma = source.chroma
        let chromaX = x / chroma.blockWidth, chromaY = y / chroma.blockHeight
        rotatePlane(source.cb, rotation, mirrored, destination.cb, chromaX, chromaY)
        rotatePlane(source.cr, rotation, mirrored, destination.cr, chromaX, chromaY)
    }

    /// One plane. For a clockwise quarter turn, destination pixel (u, v) comes from source
    /// (v, H-1-u): the source's bottom-left corner becomes the top-left. Mirrored, column u of
    /// the turned picture is written at column W'-1-u.
    static func rotatePlane<Plane: SamplePlane>(_ source: Plane, _ rotation: Rotation, _ mirrored: Bool,
                                                _ destination: Plane, _ originX: Int, _ originY: Int) {
        let w = source.width, h = source.height
        let (outWidth, outHeight) = rotation.upright(width: w, height: h)
        precondition(originX + outWidth <= destination.width && originY + outHeight <= destination.height,
                     "rotated picture does not fit the destination")
        for v in 0..<outHeight {
            let out = destination.row(originY + v) + originX
            switch (rotation, mirrored) {
            case (.none, false):
                out.update(from: source.row(v), count: w)
            case (.none, true):
                let input = source.row(v)
                for u in 0..<outWidth { out[u] = input[w - 1 - u] }
            case (.upsideDown, false):
                let input = source.row(h - 1 - v)
                for u in 0..<outWidth { out[u] = input[w - 1 - u] }
            case (.upsideDown, true):  // a vertical flip
                out.update(from: source.row(h - 1 - v), count: w)
            case (.clockwise90, false):
                for u in 0..<outWidth { out[u] = source.row(h - 1 - u)[v] }
            case (.clockwise90, true):  // a transpose
                for u in 0..<outWidth { out[u] = source.row(u)[v] }
            case (.clockwise270, false):
                for u in 0..<outWidth { out[u] = source.row(u)[w - 1 - v] }
            case (.clockwise270, true):  // the other diagonal
                for u in 0..<outWidth { out[u] = source.row(h - 1 - u)[w - 1 - v] }
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
