internal import CRowKernels
import VRenderCore

/// `HDRToneMapper`'s per-pixel work over a band of rows: the coefficients folded for the input
/// format, and the tables. Plain `Float` arithmetic: the lookups are scalar on the x86-64
/// baseline (SSE2 has no gather), so SIMD lanes would mostly wait on them. With AVX2 or AVX-512
/// (`RowInstructions`) the whole blocks of a row go to `CRowKernels`' `vr_tone_map_blocks_avx2`
/// (8 pixels a step) or `_avx512` (16), with gathered lookups, which perform these same
/// operations in the same order and so write the same bytes.
struct ToneMappingKernel: Sendable {
    let tables: ToneMappingTables
    let instructions: RowInstructions
    let isHLG: Bool
    /// Input codes above this (stray high bits) read as the largest code.
    let maxCode: UInt16
    /// Input code → Y' in 0...1 and Cb, Cr in −0.5...0.5: `code · scale + offset`.
    let lumaScale: Float, lumaOffset: Float
    let chromaScale: Float, chromaOffset: Float
    /// BT.2020 NCL Y'CbCr → R'G'B'.
    let redFromCr: Float, greenFromCb: Float, greenFromCr: Float, blueFromCb: Float
    /// BT.2020 luminance weights, for HLG's OOTF.
    let kr2020: Float, kg2020: Float, kb2020: Float
    /// Linear BT.2020 → BT.709, row-major.
    let primaries: (Float, Float, Float, Float, Float, Float, Float, Float, Float)
    /// BT.709 R'G'B' → 8-bit limited Y'CbCr.
    let kr709: Float, kg709: Float, kb709: Float
    let cbFromBlueDifference: Float, crFromRedDifference: Float
    /// 1 where the input chroma is subsampled in that direction, else 0.
    let chromaShiftX: Int, chromaShiftY: Int

    init(transfer: HDRTransfer, fullRange: Bool, bitDepth: Int, subsampling: ChromaGeometry,
         instructions: RowInstructions) {
        tables = ToneMappingTables(transfer: transfer)
        self.instructions = instructions
        isHLG = transfer == .hlg
        let maxCode = (1 << bitDepth) - 1
        self.maxCode = UInt16(maxCode)
        if fullRange {
            // BT.2100 full range: D = round((2^n − 1) · E'), chroma offset 2^(n−1).
            lumaScale = 1 / Float(maxCode)
            lumaOffset = 0
            chromaScale = 1 / Float(maxCode)
            chromaOffset = -Float(1 << (bitDepth - 1)) / Float(maxCode)
        } else {
            // Limited range: 8-bit's 16...235 and 16...240 scaled by 2^(n−8).
            let unit = Double(1 << (bitDepth - 8))
            lumaScale = Float(1 / (219 * unit))
            lumaOffset = Float(-16 / 219.0)
            chromaScale = Float(1 / (224 * unit))
            chromaOffset = Float(-128 / 224.0)
        }
        let (kr, kb) = (0.2627, 0.0593), kg = 1 - kr - kb
        redFromCr = Float(2 * (1 - kr))
        blueFromCb = Float(2 * (1 - kb))
        greenFromCb = Float(-2 * kb * (1 - kb) / kg)
        greenFromCr = Float(-2 * kr * (1 - kr) / kg)
        (kr2020, kg2020, kb2020) = (Float(kr), Float(kg), Float(kb))
        let m = HDRColorMath.bt2020ToBT709.map(Float.init)
        primaries = (m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8])
        let (kr709, kb709) = (0.2126, 0.0722)
        (self.kr709, self.kg709, self.kb709) = (Float(kr709), Float(1 - kr709 - kb709), Float(kb709))
        cbFromBlueDifference = Float(224 / (2 * (1 - kb709)))
        crFromRedDifference = Float(224 / (2 * (1 - kr709)))
        // Blocks of 1 or 2 samples (the mapper accepts 4:2:0, 4:2:2 and 4:4:4 only): shifts.
        chromaShiftX = subsampling.blockWidth.trailingZeroBitCount
        chromaShiftY = subsampling.blockHeight.trailingZeroBitCount
    }

    /// Converts `lumaRows` (starting on an even row, as `RowBands`'s bands do) and the
    /// output chroma rows of their 2×2 blocks.
    func convert(y: PlaneView16, cb: PlaneView16, cr: PlaneView16, into output: YUVImage, lumaRows: Range<Int>) {
        precondition(lumaRows.lowerBound % 2 == 0, "rows \(lumaRows) split a 4:2:0 block")
        let height = y.height
        var parameters = instructions == .portable ? nil : wideParameters()
        for blockRow in ChromaGeometry.yuv420.chromaRows(covering: lumaRows) {
            let top = 2 * blockRow
            let rows = BlockRow(top: top, rowCount: top + 1 < height ? 2 : 1, chromaShiftY: chromaShiftY,
                                y: y, cb: cb, cr: cr, output: output)
            var first = 0
            if parameters != nil {
                first = y.width / 2  // whole blocks; an odd last column is done below
                let convert = instructions == .avx512 ? vr_tone_map_blocks_avx512 : vr_tone_map_blocks_avx2
                convert(&parameters!, rows.luma.0, rows.rowCount == 2 ? rows.luma.1 : nil,
                        rows.cb.0, rows.cr.0, rows.cb.1, rows.cr.1, chromaShiftX == 0 ? 1 : 0,
                        rows.lumaOut.0, rows.rowCount == 2 ? rows.lumaOut.1 : nil, rows.cbOut, rows.crOut, first)
            }
            for blockColumn in first..<output.cb.width { convertBlock(blockColumn, of: rows, width: y.width) }
        }
    }

    /// The input and output rows of one row of 2×2 blocks (`.1` repeats `.0` at an odd last row).
    struct BlockRow {
        let rowCount: Int
        let luma: (UnsafeMutablePointer<UInt16>, UnsafeMutablePointer<UInt16>)
        let cb: (UnsafeMutablePointer<UInt16>, UnsafeMutablePointer<UInt16>)
        let cr: (UnsafeMutablePointer<UInt16>, UnsafeMutablePointer<UInt16>)
        let lumaOut: (UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<UInt8>)
        let cbOut: UnsafeMutablePointer<UInt8>, crOut: UnsafeMutablePointer<UInt8>

        init(top: Int, rowCount: Int, chromaShiftY: Int, y: PlaneView16, cb: PlaneView16, cr: PlaneView16,
             output: YUVImage) {
            let bottom = top + rowCount - 1
            self.rowCount = rowCount
            luma = (y.row(top), y.row(bottom))
            self.cb = (cb.row(top >> chromaShiftY), cb.row(bottom >> chromaShiftY))
            self.cr = (cr.row(top >> chromaShiftY), cr.row(bottom >> chromaShiftY))
            lumaOut = (output.luma.row(top), output.luma.row(bottom))
            cbOut = output.cb.row(top / 2)
            crOut = output.cr.row(top / 2)
        }
    }

    /// One output block: its 1 to 4 luma samples and its chroma, the mean over them.
    @inline(__always)
    func convertBlock(_ blockColumn: Int, of rows: BlockRow, width: Int) {
        let left = 2 * blockColumn
        let columnCount = left + 1 < width ? 2 : 1
        // Sums over the block of B' − Y' and R' − Y', for the mean chroma.
        var blueDifference: Float = 0, redDifference: Float = 0
        for row in 0..<rows.rowCount {
            let lumaRow = row == 0 ? rows.luma.0 : rows.luma.1
            let cbRow = row == 0 ? rows.cb.0 : rows.cb.1, crRow = row == 0 ? rows.cr.0 : rows.cr.1
            let outRow = row == 0 ? rows.lumaOut.0 : rows.lumaOut.1
            for x in left..<(left + columnCount) {
                let (r, g, b) = sdrSignal(UInt16(littleEndian: lumaRow[x]),
                                          UInt16(littleEndian: cbRow[x >> chromaShiftX]),
                                          UInt16(littleEndian: crRow[x >> chromaShiftX]))
                let luma = kr709 * r + kg709 * g + kb709 * b
                outRow[x] = Self.code(219 * luma + 16)
                blueDifference += b - luma
                redDifference += r - luma
            }
        }
        let scale = 1 / Float(rows.rowCount * columnCount)
        rows.cbOut[blockColumn] = Self.code(cbFromBlueDifference * blueDifference * scale + 128)
        rows.crOut[blockColumn] = Self.code(crFromRedDifference * redDifference * scale + 128)
    }

    /// One input pixel's BT.709 SDR R'G'B', each in 0...1.
    @inline(__always)
    func sdrSignal(_ lumaCode: UInt16, _ cbCode: UInt16, _ crCode: UInt16) -> (Float, Float, Float) {
        let luma = Float(Swift.min(lumaCode, maxCode)) * lumaScale + lumaOffset
        let cb = Float(Swift.min(cbCode, maxCode)) * chromaScale + chromaOffset
        let cr = Float(Swift.min(crCode, maxCode)) * chromaScale + chromaOffset
        var r = eotf(luma + redFromCr * cr)
        var g = eotf(luma + greenFromCb * cb + greenFromCr * cr)
        var b = eotf(luma + blueFromCb * cb)
        if isHLG {
            let sceneLuminance = kr2020 * r + kg2020 * g + kb2020 * b
            let factor = tables.ootf[Self.rootIndex(sceneLuminance, Float(ToneMappingTables.ootfCount - 1))]
            r *= factor
            g *= factor
            b *= factor
        }
        let p = primaries
        let red = p.0 * r + p.1 * g + p.2 * b
        let green = p.3 * r + p.4 * g + p.5 * b
        let blue = p.6 * r + p.7 * g + p.8 * b
        // Hue-preserving tone mapping: one gain for the three channels, from the largest.
        let largest = Swift.max(red, green, blue)
        let gain = largest > tables.gainRange
            ? 1 / largest
            : tables.gain[Self.rootIndex(largest / tables.gainRange, Float(ToneMappingTables.gainCount - 1))]
        // rootIndex clamps to 0...1: negative (out-of-gamut) light clips to black here.
        let oetf = tables.oetf, oetfScale = Float(ToneMappingTables.oetfCount - 1)
        return (oetf[Self.rootIndex(red * gain, oetfScale)],
                oetf[Self.rootIndex(green * gain, oetfScale)],
                oetf[Self.rootIndex(blue * gain, oetfScale)])
    }

    /// The EOTF table at the signal `x` clamped to 0...1, interpolated linearly between the
    /// entries on either side (`ToneMappingTables.eotf`).
    @inline(__always)
    func eotf(_ x: Float) -> Float {
        let position = Swift.min(Swift.max(x, 0), 1) * Float(ToneMappingTables.eotfCount - 1)
        let lower = Int(position)  // truncation: position ≥ 0
        let fraction = position - Float(lower)
        let below = tables.eotf[lower], above = tables.eotf[lower + 1]
        return below + fraction * (above - below)
    }

    /// The nearest entry of a table sampled at `sqrt(x)`, `x` clamped to 0...1.
    @inline(__always)
    static func rootIndex(_ x: Float, _ scale: Float) -> Int {
        nearestInteger(Swift.min(Swift.max(x, 0), 1).squareRoot() * scale)
    }

    /// `value` (in 0..<2^23) rounded to nearest, ties to even: adding 2^23 leaves exactly that
    /// integer in the significand. Seven lookups a pixel make `Int(_:)`'s range checks, which
    /// cannot fail here, a fifth of the kernel's instructions.
    @inline(__always)
    static func nearestInteger(_ value: Float) -> Int {
        Int((value + 0x1p23).bitPattern & 0x7F_FFFF)
    }

    /// An 8-bit code from a value already in 16...240: rounded to nearest, halves up.
    @inline(__always)
    static func code(_ value: Float) -> UInt8 {
        UInt8(truncatingIfNeeded: Int(value + 0.5))
    }
}
