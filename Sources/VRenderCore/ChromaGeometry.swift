/// How a picture's two chroma planes sample it: each chroma sample covers a block of
/// `blockWidth`×`blockHeight` luma samples (2×2 for 4:2:0, 2×1 for 4:2:2, 1×1 for 4:4:4).
///
/// The one home of chroma arithmetic: plane sizes, crops, bars, bands of rows, the CPU
/// kernels, the reference and the Vulkan frame layout all ask this type. Everything rounds
/// *up*: an odd-sized 4:2:0 picture (853×479) has 427×240 chroma samples, the last column and
/// row covering cut-off blocks of one luma sample. Rounding down anywhere drops that column or
/// row from a crop, a bar or a band, which then goes unfiltered or unpainted.
public struct ChromaGeometry: Sendable, Hashable, CustomStringConvertible {
    /// Luma columns per chroma sample.
    public let blockWidth: Int
    /// Luma rows per chroma sample.
    public let blockHeight: Int

    public init(blockWidth: Int, blockHeight: Int) {
        precondition(blockWidth > 0 && blockHeight > 0, "chroma blocks of \(blockWidth)x\(blockHeight)")
        self.blockWidth = blockWidth
        self.blockHeight = blockHeight
    }

    public static let yuv420 = ChromaGeometry(blockWidth: 2, blockHeight: 2)
    public static let yuv422 = ChromaGeometry(blockWidth: 2, blockHeight: 1)
    public static let yuv444 = ChromaGeometry(blockWidth: 1, blockHeight: 1)

    /// The blocks that plane sizes imply, rounding up (853 luma over 427 chroma columns: 2).
    /// A picture one sample wide or high cannot tell 4:2:0 from 4:4:4 that way and gets 1,
    /// which gives the same plane sizes and the same samples.
    public init(lumaWidth: Int, lumaHeight: Int, chromaWidth: Int, chromaHeight: Int) {
        self.init(blockWidth: Self.ceilingDivision(lumaWidth, Swift.max(chromaWidth, 1)),
                  blockHeight: Self.ceilingDivision(lumaHeight, Swift.max(chromaHeight, 1)))
    }

    /// Chroma plane size for a luma size: every chroma sample that covers a luma sample.
    public func chromaSize(lumaWidth: Int, lumaHeight: Int) -> (width: Int, height: Int) {
        (Self.ceilingDivision(lumaWidth, blockWidth), Self.ceilingDivision(lumaHeight, blockHeight))
    }

    /// True when chroma planes of `chromaWidth`×`chromaHeight` are exactly what these blocks
    /// give a `lumaWidth`×`lumaHeight` picture (every chroma sample covers some luma).
    public func fits(lumaWidth: Int, lumaHeight: Int, chromaWidth: Int, chromaHeight: Int) -> Bool {
        chromaSize(lumaWidth: lumaWidth, lumaHeight: lumaHeight) == (chromaWidth, chromaHeight)
    }

    /// The chroma columns whose blocks meet luma columns `luma`, rounded outward.
    public func chromaColumns(covering luma: Range<Int>) -> Range<Int> {
        Self.covering(luma, block: blockWidth)
    }

    /// The chroma rows whose blocks meet luma rows `luma`, rounded outward. Consecutive bands
    /// of luma rows that start on block boundaries map to consecutive, disjoint chroma bands.
    public func chromaRows(covering luma: Range<Int>) -> Range<Int> {
        Self.covering(luma, block: blockHeight)
    }

    /// The luma columns chroma column `column` covers, cut off at the picture's width.
    public func lumaColumns(ofChromaColumn column: Int, lumaWidth: Int) -> Range<Int> {
        (column * blockWidth)..<Swift.min((column + 1) * blockWidth, lumaWidth)
    }

    /// The luma rows chroma row `row` covers, cut off at the picture's height.
    public func lumaRows(ofChromaRow row: Int, lumaHeight: Int) -> Range<Int> {
        (row * blockHeight)..<Swift.min((row + 1) * blockHeight, lumaHeight)
    }

    /// True when luma column `x` and row `y` start a block (where a crop may begin).
    public func isBlockOrigin(x: Int, y: Int) -> Bool { x % blockWidth == 0 && y % blockHeight == 0 }

    public var description: String {
        switch (blockWidth, blockHeight) {
        case (2, 2): return "4:2:0"
        case (2, 1): return "4:2:2"
        case (1, 1): return "4:4:4"
        default: return "\(blockWidth)x\(blockHeight) chroma blocks"
        }
    }

    @inline(__always)
    private static func ceilingDivision(_ value: Int, _ divisor: Int) -> Int { (value + divisor - 1) / divisor }

    private static func covering(_ luma: Range<Int>, block: Int) -> Range<Int> {
        let lower = luma.lowerBound / block
        return luma.isEmpty ? lower..<lower : lower..<ceilingDivision(luma.upperBound, block)
    }
}
