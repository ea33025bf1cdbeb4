import Testing
import VRenderCore

/// `ChromaGeometry` against the definition, sample by sample: luma column x belongs to chroma
/// column x / blockWidth (rows likewise), at every size up to 9, odd ones included. Rounding
/// down anywhere (plane sizes, covering ranges) loses the last chroma column or row of an odd
/// picture and fails here.
@Suite struct ChromaGeometryTests {
    static let shapes: [ChromaGeometry] = [.yuv420, .yuv422, .yuv444, ChromaGeometry(blockWidth: 4, blockHeight: 1)]

    @Test(arguments: shapes)
    func planeSizesHoldEveryBlock(chroma: ChromaGeometry) {
        for width in 1...9 {
            for height in 1...9 {
                let size = chroma.chromaSize(lumaWidth: width, lumaHeight: height)
                #expect(size.width == (width - 1) / chroma.blockWidth + 1, "\(width)x\(height) \(chroma)")
                #expect(size.height == (height - 1) / chroma.blockHeight + 1, "\(width)x\(height) \(chroma)")
                #expect(chroma.fits(lumaWidth: width, lumaHeight: height, chromaWidth: size.width, chromaHeight: size.height))
                #expect(!chroma.fits(lumaWidth: width, lumaHeight: height, chromaWidth: size.width + 1, chromaHeight: size.height))
            }
        }
    }

    @Test(arguments: shapes)
    func coveringRangesRoundOutward(chroma: ChromaGeometry) {
        for lower in 0...8 {
            for upper in lower...9 {
                let expected = Set((lower..<upper).map { $0 / chroma.blockWidth })
                let columns = chroma.chromaColumns(covering: lower..<upper)
                #expect(Set(columns) == expected, "\(lower)..<\(upper) \(chroma)")
                let expectedRows = Set((lower..<upper).map { $0 / chroma.blockHeight })
                #expect(Set(chroma.chromaRows(covering: lower..<upper)) == expectedRows, "\(lower)..<\(upper) \(chroma)")
            }
        }
    }

    @Test(arguments: shapes)
    func blocksPartitionTheLumaPlane(chroma: ChromaGeometry) {
        for width in 1...9 {
            let count = chroma.chromaSize(lumaWidth: width, lumaHeight: 1).width
            let covered = (0..<count).flatMap { chroma.lumaColumns(ofChromaColumn: $0, lumaWidth: width) }
            #expect(covered == Array(0..<width), "width \(width) \(chroma)")
        }
    }

    @Test func derivedFromPlaneSizesRoundsUp() {
        #expect(ChromaGeometry(lumaWidth: 853, lumaHeight: 479, chromaWidth: 427, chromaHeight: 240) == .yuv420)
        #expect(ChromaGeometry(lumaWidth: 853, lumaHeight: 479, chromaWidth: 427, chromaHeight: 479) == .yuv422)
        #expect(ChromaGeometry(lumaWidth: 853, lumaHeight: 479, chromaWidth: 853, chromaHeight: 479) == .yuv444)
        #expect(ChromaGeometry.yuv420.description == "4:2:0")
    }
}
