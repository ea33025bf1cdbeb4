/// One plane of 8-bit samples in memory owned by someone else (an AVFrame, a test buffer).
///
/// `@unchecked Sendable`: a view is handed to worker threads that each touch a disjoint band of
/// rows; the owner of the memory guarantees it outlives the work.
public struct PlaneView: @unchecked Sendable {
    public var base: UnsafeMutablePointer<UInt8>
    /// Bytes from the start of one row to the next (may exceed `width` for alignment).
    public var stride: Int
    public var width: Int
    public var height: Int

    public init(base: UnsafeMutablePointer<UInt8>, stride: Int, width: Int, height: Int) {
        precondition(stride >= width && width > 0 && height > 0, "invalid plane geometry")
        self.base = base
        self.stride = stride
        self.width = width
        self.height = height
    }

    @inline(__always)
    public func row(_ y: Int) -> UnsafeMutablePointer<UInt8> { base + y * stride }
}

/// Three planes of one picture, Y', Cb and Cr, of any sample size: what the 8- and 16-bit
/// pictures share (their size and chroma geometry, and the bars and turns of `ImageOps`).
public protocol PlanarYUV {
    associatedtype Plane: SamplePlane
    var luma: Plane { get }
    var cb: Plane { get }
    var cr: Plane { get }
}

extension PlanarYUV {
    public var width: Int { luma.width }
    public var height: Int { luma.height }

    /// How the chroma planes sample this picture, derived from the plane sizes (rounding up,
    /// so an odd-width 4:2:0 picture, 853 luma over 427 chroma columns, still has 2×2 blocks).
    public var chroma: ChromaGeometry {
        ChromaGeometry(lumaWidth: luma.width, lumaHeight: luma.height, chromaWidth: cb.width, chromaHeight: cb.height)
    }
}

/// Planar 8-bit Y'CbCr picture (4:2:0, 4:2:2 or 4:4:4), limited ("TV") range, as filters see it.
public struct YUVImage: PlanarYUV, Sendable {
    public var luma: PlaneView
    public var cb: PlaneView
    public var cr: PlaneView

    public init(luma: PlaneView, cb: PlaneView, cr: PlaneView) {
        precondition(cb.width == cr.width && cb.height == cr.height, "chroma planes differ")
        self.luma = luma
        self.cb = cb
        self.cr = cr
    }
}

extension YUVImage {
    /// A view of the part of this picture inside `rect`, sharing memory.
    ///
    /// `rect` must lie inside the picture with its origin on a chroma block boundary (even for
    /// 4:2:0, even x for 4:2:2). Its size may be odd: the view's chroma planes then round up
    /// (`(width + 1) / 2` columns for 4:2:0), so every chroma sample that covers a luma sample
    /// of the rectangle is in the view, the last one covering a cut-off block, exactly as in a
    /// picture of that odd size. Rounding down would leave the last chroma column or row of an
    /// odd-sized picture out of the view, and so unfiltered.
    public func cropped(to rect: PixelRect) -> YUVImage {
        let chroma = self.chroma
        precondition(rect.width > 0 && rect.height > 0 && rect.x >= 0 && rect.y >= 0
                     && rect.x + rect.width <= luma.width && rect.y + rect.height <= luma.height,
                     "crop \(rect) outside the \(luma.width)x\(luma.height) picture")
        precondition(chroma.isBlockOrigin(x: rect.x, y: rect.y), "crop \(rect) splits \(chroma) chroma blocks")
        func crop(_ plane: PlaneView, columns: Range<Int>, rows: Range<Int>) -> PlaneView {
            PlaneView(base: plane.base + rows.lowerBound * plane.stride + columns.lowerBound, stride: plane.stride,
                      width: columns.count, height: rows.count)
        }
        // The chroma samples whose blocks meet the rectangle, the last one possibly a cut-off
        // block at the picture's edge.
        let chromaColumns = chroma.chromaColumns(covering: rect.x..<(rect.x + rect.width))
        let chromaRows = chroma.chromaRows(covering: rect.y..<(rect.y + rect.height))
        let lumaColumns = rect.x..<(rect.x + rect.width), lumaRows = rect.y..<(rect.y + rect.height)
        return YUVImage(luma: crop(luma, columns: lumaColumns, rows: lumaRows),
                        cb: crop(cb, columns: chromaColumns, rows: chromaRows),
                        cr: crop(cr, columns: chromaColumns, rows: chromaRows))
    }
}
