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

/// Planar 8-bit Y'CbCr picture (4:2:0, 4:2:2 or 4:4:4), limited ("TV") range, as filters see it.
public struct YUVImage: Sendable {
    public var luma: PlaneView
    public var cb: PlaneView
    public var cr: PlaneView

    public init(luma: PlaneView, cb: PlaneView, cr: PlaneView) {
        precondition(cb.width == cr.width && cb.height == cr.height, "chroma planes differ")
        self.luma = luma
        self.cb = cb
        self.cr = cr
    }

    public var width: Int { luma.width }
    public var height: Int { luma.height }

    /// Luma columns per chroma sample (2 for 4:2:0 and 4:2:2, 1 for 4:4:4), derived from the
    /// plane widths. Rounds up: an odd-width 4:2:0 picture (853 luma, 427 chroma columns) is
    /// still 2, its last chroma column covering a cut-off block of one luma column.
    public var chromaBlockWidth: Int { Self.blockSize(luma: luma.width, chroma: cb.width) }

    /// Luma rows per chroma sample (2 for 4:2:0, 1 for 4:2:2 and 4:4:4), rounded up likewise.
    public var chromaBlockHeight: Int { Self.blockSize(luma: luma.height, chroma: cb.height) }

    @inline(__always)
    static func blockSize(luma: Int, chroma: Int) -> Int {
        (luma + chroma - 1) / Swift.max(chroma, 1)
    }

    /// The chroma row where luma row `lumaRow` starts, for splitting a frame into bands:
    /// consecutive bands of luma rows map to consecutive, non-overlapping bands of chroma rows.
    @inline(__always)
    public func chromaRow(forLumaRow lumaRow: Int) -> Int {
        lumaRow >= luma.height ? cb.height : lumaRow * cb.height / luma.height
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
        let blockWidth = chromaBlockWidth, blockHeight = chromaBlockHeight
        precondition(rect.width > 0 && rect.height > 0 && rect.x >= 0 && rect.y >= 0
                     && rect.x + rect.width <= luma.width && rect.y + rect.height <= luma.height,
                     "crop \(rect) outside the \(luma.width)x\(luma.height) picture")
        precondition(rect.x % blockWidth == 0 && rect.y % blockHeight == 0,
                     "crop \(rect) splits \(blockWidth)x\(blockHeight) chroma blocks")
        func crop(_ plane: PlaneView, _ blockWidth: Int, _ blockHeight: Int) -> PlaneView {
            let x = rect.x / blockWidth, y = rect.y / blockHeight
            // The chroma samples whose blocks meet the rectangle: up to the one holding its
            // last column (row), never past the plane (a cut-off block at the picture's edge).
            let width = Swift.min(plane.width, (rect.x + rect.width + blockWidth - 1) / blockWidth) - x
            let height = Swift.min(plane.height, (rect.y + rect.height + blockHeight - 1) / blockHeight) - y
            return PlaneView(base: plane.base + y * plane.stride + x, stride: plane.stride, width: width, height: height)
        }
        return YUVImage(luma: crop(luma, 1, 1), cb: crop(cb, blockWidth, blockHeight),
                        cr: crop(cr, blockWidth, blockHeight))
    }
}
