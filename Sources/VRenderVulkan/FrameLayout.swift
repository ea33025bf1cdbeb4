import VRenderCore

/// The size of the frames an engine filters: the luma plane and the chroma planes (4:2:0,
/// 4:2:2, 4:4:4 and odd sizes, whose edge chroma samples cover cut-off blocks).
public struct VulkanFrameGeometry: Sendable, Hashable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    public var chromaWidth: Int
    public var chromaHeight: Int

    public init(width: Int, height: Int, chromaWidth: Int, chromaHeight: Int) {
        self.width = width
        self.height = height
        self.chromaWidth = chromaWidth
        self.chromaHeight = chromaHeight
    }

    /// The geometry of `image`'s planes (strides do not matter).
    public init(of image: YUVImage) {
        self.init(width: image.luma.width, height: image.luma.height,
                  chromaWidth: image.cb.width, chromaHeight: image.cb.height)
    }

    public func matches(_ image: YUVImage) -> Bool { self == VulkanFrameGeometry(of: image) }

    /// The chroma blocks the plane sizes imply (`fits` tells whether they are consistent).
    public var chroma: ChromaGeometry {
        ChromaGeometry(lumaWidth: width, lumaHeight: height, chromaWidth: chromaWidth, chromaHeight: chromaHeight)
    }

    public var description: String { "\(width)x\(height) (chroma \(chromaWidth)x\(chromaHeight))" }
}

/// Where one frame's planes live in a device buffer, as `shaders/color_program.comp` expects
/// them: luma, Cb, Cr one after another, each row padded so that every 4 chroma samples and
/// their blocks' luma samples occupy whole 32-bit words of their own. Copies frames in and out.
struct FrameLayout {
    let geometry: VulkanFrameGeometry
    /// Luma samples per chroma sample, as `ColorProgram.referenceApply` derives them.
    let blockWidth: Int
    let blockHeight: Int
    /// Bytes per chroma row: the chroma width rounded up to a whole word.
    let chromaStride: Int
    /// Bytes per luma row: `blockWidth` words for every chroma word.
    let lumaStride: Int
    let cbOffset: Int
    let crOffset: Int
    let byteCount: Int

    /// - Throws: `VulkanError` when the chroma planes do not subsample the picture by 1 to 4 in
    ///   each direction (the block geometry the shader is specialized for).
    init(_ geometry: VulkanFrameGeometry) throws(VulkanError) {
        let (width, height) = (geometry.width, geometry.height)
        let (chromaWidth, chromaHeight) = (geometry.chromaWidth, geometry.chromaHeight)
        guard width > 0, height > 0, chromaWidth > 0, chromaHeight > 0 else {
            throw VulkanError(call: "frame layout", reason: "empty picture \(geometry)")
        }
        let chroma = geometry.chroma
        // Every chroma sample must cover at least one luma sample, or its mean is undefined.
        guard (1...4).contains(chroma.blockWidth), (1...4).contains(chroma.blockHeight),
              chroma.fits(lumaWidth: width, lumaHeight: height, chromaWidth: chromaWidth, chromaHeight: chromaHeight) else {
            throw VulkanError(call: "frame layout",
                              reason: "unsupported chroma subsampling \(geometry): chroma must cover 1 to 4 luma samples each way")
        }
        self.geometry = geometry
        self.blockWidth = chroma.blockWidth
        self.blockHeight = chroma.blockHeight
        chromaStride = (chromaWidth + 3) / 4 * 4
        lumaStride = chromaStride * chroma.blockWidth
        cbOffset = lumaStride * height
        crOffset = cbOffset + chromaStride * chromaHeight
        byteCount = crOffset + chromaStride * chromaHeight
    }

    /// Number of 4-chroma-sample groups per row: the shader's invocations along x.
    var chromaStrideWords: Int { chromaStride / 4 }

    /// The shader's push constants for the program starting at word `programOffsetWords`; the
    /// order is the `Geometry` block's in `color_program.comp`.
    func pushConstants(programOffsetWords: Int) -> [UInt32] {
        [geometry.width, geometry.height, geometry.chromaHeight, chromaStrideWords,
         0, cbOffset / 4, crOffset / 4, programOffsetWords].map { UInt32($0) }
    }

    /// Copies `image` into a buffer mapped at `base`; padding bytes are left as they are (the
    /// shader computes them but nothing reads them back).
    func upload(_ image: YUVImage, to base: UnsafeMutableRawPointer) {
        Self.copy(image.luma, to: base, stride: lumaStride)
        Self.copy(image.cb, to: base + cbOffset, stride: chromaStride)
        Self.copy(image.cr, to: base + crOffset, stride: chromaStride)
    }

    /// Copies the frame in a buffer mapped at `base` into `image`, touching only its samples.
    func download(from base: UnsafeRawPointer, into image: YUVImage) {
        Self.copy(from: base, stride: lumaStride, to: image.luma)
        Self.copy(from: base + cbOffset, stride: chromaStride, to: image.cb)
        Self.copy(from: base + crOffset, stride: chromaStride, to: image.cr)
    }

    private static func copy(_ plane: PlaneView, to base: UnsafeMutableRawPointer, stride: Int) {
        if plane.stride == plane.width && stride == plane.width {
            // Rows without padding on either side: the plane is one run of bytes.
            base.copyMemory(from: plane.base, byteCount: plane.height * stride)
            return
        }
        for y in 0..<plane.height {
            (base + y * stride).copyMemory(from: plane.row(y), byteCount: plane.width)
        }
    }

    private static func copy(from base: UnsafeRawPointer, stride: Int, to plane: PlaneView) {
        // Never a wider copy: bytes past `width` may be another picture's (a cropped view).
        if plane.stride == plane.width && stride == plane.width {
            UnsafeMutableRawPointer(plane.base).copyMemory(from: base, byteCount: plane.height * stride)
            return
        }
        for y in 0..<plane.height {
            UnsafeMutableRawPointer(plane.row(y)).copyMemory(from: base + y * stride, byteCount: plane.width)
        }
    }
}
