import VRenderCore

/// An opacity for each luma sample of a rectangle of a picture, in fixed point: 0 leaves a
/// sample as it is, `one` replaces it with the target value. What the box and the text are
/// drawn through: build a mask, then `blend` it onto any picture toward one colour.
///
/// Integer arithmetic throughout, so the result is the same on every run and thread count.
struct AlphaMask {
    static let bits = 15
    static let one = 1 << bits

    /// The rectangle, in luma samples, inside the picture.
    let columns: Range<Int>
    let rows: Range<Int>
    /// Rows of `columns.count` values each. Mask rows may share one (a box's plain rows).
    var storage: [UInt16]
    /// For each mask row, where its values start in `storage`.
    var rowOffsets: [Int]
    /// For each mask row, the columns (counted from `columns.lowerBound`) whose values may
    /// be non-zero; every value outside is 0. An empty span leaves the row alone.
    var spans: [Range<Int>]

    init(columns: Range<Int>, rows: Range<Int>, storage: [UInt16], rowOffsets: [Int], spans: [Range<Int>]) {
        precondition(rowOffsets.count == rows.count && spans.count == rows.count, "mask rows")
        precondition(rowOffsets.allSatisfy { $0 >= 0 && $0 + columns.count <= storage.count }, "mask storage")
        precondition(spans.allSatisfy { $0.isEmpty || ($0.lowerBound >= 0 && $0.upperBound <= columns.count) },
                     "mask spans")
        self.columns = columns
        self.rows = rows
        self.storage = storage
        self.rowOffsets = rowOffsets
        self.spans = spans
    }

    /// Moves every sample the mask covers toward `luma` (Y') and `chroma` (Cb and Cr) by its
    /// opacity. A chroma sample moves by the mean opacity over its luma block (samples of
    /// the block outside the mask count as 0), so a sharp edge gets no colour fringe.
    func blend<Image: PlanarYUV>(onto image: Image, luma: Int, chroma: Int)
    where Image.Plane.Sample: FixedWidthInteger & UnsignedInteger {
        precondition(columns.upperBound <= image.width && rows.upperBound <= image.height
                     && columns.lowerBound >= 0 && rows.lowerBound >= 0, "mask outside the picture")
        storage.withUnsafeBufferPointer { values in
            let values = values.baseAddress!
            blendLuma(image.luma, values, toward: Int32(luma))
            blendChroma(image, values, toward: Int32(chroma))
        }
    }

    private func blendLuma<Plane: SamplePlane>(_ plane: Plane, _ values: UnsafePointer<UInt16>, toward target: Int32)
    where Plane.Sample: FixedWidthInteger & UnsignedInteger {
        for (index, y) in rows.enumerated() where !spans[index].isEmpty {
            let span = spans[index]
            Self.blendRow(plane.row(y) + columns.lowerBound + span.lowerBound,
                          values + rowOffsets[index] + span.lowerBound, count: span.count, toward: target)
        }
    }

    private func blendChroma<Image: PlanarYUV>(_ image: Image, _ values: UnsafePointer<UInt16>, toward target: Int32)
    where Image.Plane.Sample: FixedWidthInteger & UnsignedInteger {
        let geometry = image.chroma
        let chromaColumns = geometry.chromaColumns(covering: columns)
        // Per luma column under those chroma samples: the sum of one block row's opacities.
        let lumaStart = chromaColumns.lowerBound * geometry.blockWidth
        var columnSums = [Int32](repeating: 0, count: Swift.min(chromaColumns.upperBound * geometry.blockWidth,
                                                                image.width) - lumaStart)
        var alphas = [UInt16](repeating: 0, count: chromaColumns.count)
        columnSums.withUnsafeMutableBufferPointer { columnSums in
            alphas.withUnsafeMutableBufferPointer { alphas in
                for chromaRow in geometry.chromaRows(covering: rows) {
                    let lumaRows = geometry.lumaRows(ofChromaRow: chromaRow, lumaHeight: image.height)
                    let maskRows = lumaRows.clamped(to: rows)
                    // The luma columns this block row touches, then the chroma columns over them.
                    let touched = maskRows.reduce(0..<0) { Self.union($0, spans[$1 - rows.lowerBound]) }
                    guard !touched.isEmpty else { continue }
                    let samples = geometry.chromaColumns(covering: (columns.lowerBound + touched.lowerBound)
                                                                ..< (columns.lowerBound + touched.upperBound))
                    // Both buffers are indexed from their first column: luma `lumaStart`, chroma
                    // `chromaColumns.lowerBound`.
                    let sums = columnSums.baseAddress!, means = alphas.baseAddress!
                    let lumaColumns = (samples.lowerBound * geometry.blockWidth)
                        ..< Swift.min(samples.upperBound * geometry.blockWidth, image.width)
                    sumBlockRows(maskRows, under: lumaColumns, into: sums, from: lumaStart, values)
                    Self.blockMeans(sums, lumaStart, into: means, chromaColumns.lowerBound, samples, geometry,
                                    lumaRows: lumaRows.count, lumaWidth: image.width)
                    let first = means + (samples.lowerBound - chromaColumns.lowerBound)
                    Self.blendRow(image.cb.row(chromaRow) + samples.lowerBound, first, count: samples.count, toward: target)
                    Self.blendRow(image.cr.row(chromaRow) + samples.lowerBound, first, count: samples.count, toward: target)
                }
            }
        }
    }

    /// Sets `sums[x − origin]`, for every luma column x of `lumaColumns`, to the sum of the
    /// opacities of mask rows `maskRows` at x (0 where the mask does not reach).
    private func sumBlockRows(_ maskRows: Range<Int>, under lumaColumns: Range<Int>, into sums: UnsafeMutablePointer<Int32>,
                              from origin: Int, _ values: UnsafePointer<UInt16>) {
        (sums + (lumaColumns.lowerBound - origin)).update(repeating: 0, count: lumaColumns.count)
        for y in maskRows {
            let span = spans[y - rows.lowerBound]
            let row = values + rowOffsets[y - rows.lowerBound] + span.lowerBound
            let target = sums + (columns.lowerBound + span.lowerBound - origin)
            for x in 0..<span.count { target[x] &+= Int32(row[x]) }
        }
    }

    /// `means[column − meansOrigin]` for each chroma column of `samples`: its mean opacity over
    /// its luma block, from the block rows' column sums (`sums[x − sumsOrigin]`). Columns
    /// outside the mask's span sum to 0. Means round down, so a block of opacity `one` stays
    /// exactly `one`.
    private static func blockMeans(_ sums: UnsafeMutablePointer<Int32>, _ sumsOrigin: Int,
                                   into means: UnsafeMutablePointer<UInt16>, _ meansOrigin: Int, _ samples: Range<Int>,
                                   _ geometry: ChromaGeometry, lumaRows: Int, lumaWidth: Int) {
        let blockWidth = geometry.blockWidth
        // Whole blocks first (the fast, common case), then a block cut off at the right edge.
        let whole = samples.clamped(to: 0..<(lumaWidth / blockWidth))
        let count = lumaRows * blockWidth
        if blockWidth <= 2 && count.nonzeroBitCount == 1 {
            // 4:2:0, 4:2:2 and 4:4:4: one or two sums a block, a power-of-two count: a shift
            // divides, in 32 bits, which vectorizes.
            let shift = Int32(count.trailingZeroBitCount)
            let from = sums + (whole.lowerBound * blockWidth - sumsOrigin), to = means + (whole.lowerBound - meansOrigin)
            if blockWidth == 2 {
                for index in 0..<whole.count {
                    to[index] = UInt16(truncatingIfNeeded: (from[2 * index] &+ from[2 * index + 1]) >> shift)
                }
            } else {
                for index in 0..<whole.count { to[index] = UInt16(truncatingIfNeeded: from[index] >> shift) }
            }
        } else {
            for column in whole { means[column - meansOrigin] = mean(column) }
        }
        for column in whole.upperBound..<samples.upperBound { means[column - meansOrigin] = mean(column) }

        func mean(_ column: Int) -> UInt16 {
            let lumaColumns = geometry.lumaColumns(ofChromaColumn: column, lumaWidth: lumaWidth)
            let sum = lumaColumns.reduce(0) { $0 + Int(sums[$1 - sumsOrigin]) }
            return UInt16(truncatingIfNeeded: sum / (lumaRows * lumaColumns.count))
        }
    }

    /// `sample + (target − sample) × alpha`, rounded to nearest: alpha 0 leaves the sample
    /// exactly as it was, `one` makes it exactly `target`. One multiply a sample, so the loop
    /// vectorizes well even without SSE4's 32-bit multiply. (Wrapping operators: a 16-bit
    /// sample outside its bit depth gives a wrong value, never a trap.)
    @inline(__always)
    private static func blendRow<Sample: FixedWidthInteger & UnsignedInteger>(
        _ samples: UnsafeMutablePointer<Sample>, _ alphas: UnsafePointer<UInt16>, count: Int, toward target: Int32
    ) {
        let half = Int32(Self.one / 2)
        for index in 0..<count {
            let alpha = Int32(alphas[index]), value = Int32(truncatingIfNeeded: samples[index])
            samples[index] = Sample(truncatingIfNeeded: value &+ (((target &- value) &* alpha &+ half) >> Self.bits))
        }
    }

    /// The smallest range holding both (an empty one adds nothing).
    static func union(_ a: Range<Int>, _ b: Range<Int>) -> Range<Int> {
        if a.isEmpty { return b }
        if b.isEmpty { return a }
        return Swift.min(a.lowerBound, b.lowerBound)..<Swift.max(a.upperBound, b.upperBound)
    }
}
