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

    /// The chroma row where luma row `lumaRow` starts, for splitting a frame into bands:
    /// consecutive bands of luma rows map to consecutive, non-overlapping bands of chroma rows.
    @inline(__always)
    public func chromaRow(forLumaRow lumaRow: Int) -> Int {
        lumaRow >= luma.height ? cb.height : lumaRow * cb.height / luma.height
    }
}

extension YUVImage {
    /// A view of the part of this picture inside `rect` (even origin and size), sharing memory.
    public func cropped(to rect: PixelRect) -> YUVImage {
        let scaleX = luma.width / Swift.max(cb.width, 1)
        let scaleY = luma.height / Swift.max(cb.height, 1)
        func crop(_ plane: PlaneView, _ sx: Int, _ sy: Int) -> PlaneView {
            PlaneView(base: plane.base + (rect.y / sy) * plane.stride + rect.x / sx, stride: plane.stride,
                      width: Swift.max(1, rect.width / sx), height: Swift.max(1, rect.height / sy))
        }
        return YUVImage(luma: crop(luma, 1, 1), cb: crop(cb, scaleX, scaleY), cr: crop(cr, scaleX, scaleY))
    }
}
