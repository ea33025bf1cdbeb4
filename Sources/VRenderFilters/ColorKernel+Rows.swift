internal import CRowKernels
import VRenderCore

/// The row kernels. Each reads a whole group of input samples into registers before it
/// writes the group's outputs, so source and destination may be the same row.
extension ColorKernel {
    // MARK: - Luma

    /// One luma row. `offsets` holds, per luma column, the chroma part of the first matrix row
    /// plus the rounding constant (only read by the general step).
    @inline(__always)
    func lumaRow(from source: UnsafeMutablePointer<UInt8>, to destination: UnsafeMutablePointer<UInt8>,
                 count: Int, offsets: UnsafeMutablePointer<Int32>) {
        switch luma {
        case .table where instructions == .avx512: vr_lookup_row_avx512(source, destination, count, tables.luma)
        case .table where instructions == .avx2: vr_lookup_row_avx2(source, destination, count, tables.lumaPairs, tables.luma)
        case .table: Self.lookupRow(from: source, to: destination, count: count, pairs: tables.lumaPairs, table: tables.luma)
        case .general: generalLumaRow(from: source, to: destination, count: count, offsets: offsets)
        }
    }

    /// Eight samples per step: one 64-bit load, four two-sample lookups, one 64-bit store.
    /// `pairs[a | b << 8]` is `table[a] | table[b] << 8`.
    static func lookupRow(from source: UnsafeMutablePointer<UInt8>, to destination: UnsafeMutablePointer<UInt8>,
                          count: Int, pairs: UnsafeMutablePointer<UInt16>, table: UnsafeMutablePointer<UInt8>) {
        let input = UnsafeRawPointer(source), output = UnsafeMutableRawPointer(destination)
        var x = 0
        while x + 8 <= count {
            let v = input.loadUnaligned(fromByteOffset: x, as: UInt64.self)
            var out = UInt64(pairs[Int(truncatingIfNeeded: v & 0xFFFF)])
            out |= UInt64(pairs[Int(truncatingIfNeeded: (v >> 16) & 0xFFFF)]) << 16
            out |= UInt64(pairs[Int(truncatingIfNeeded: (v >> 32) & 0xFFFF)]) << 32
            out |= UInt64(pairs[Int(truncatingIfNeeded: v >> 48)]) << 48
            output.storeBytes(of: out, toByteOffset: x, as: UInt64.self)
            x += 8
        }
        while x < count {
            destination[x] = table[Int(source[x])]
            x += 1
        }
    }

    /// Y' = curve[clamp(((m0·y + offset) >> 12) + 16)] with `offset` from `lumaOffsetRow`, the
    /// arithmetic on 8 lanes of 32 bits, the lookups scalar.
    private func generalLumaRow(from source: UnsafeMutablePointer<UInt8>, to destination: UnsafeMutablePointer<UInt8>,
                                count: Int, offsets: UnsafeMutablePointer<Int32>) {
        let m0 = program.matrix[0]
        let scale = SIMD8<Int32>(repeating: m0)
        let curve = tables.luma
        let input = UnsafeRawPointer(source), offsetBytes = UnsafeRawPointer(offsets)
        var x = 0
        while x + 8 <= count {
            let y = SIMD8<Int32>(truncatingIfNeeded: input.loadUnaligned(fromByteOffset: x, as: SIMD8<UInt8>.self)) &- 16
            let offset = offsetBytes.loadUnaligned(fromByteOffset: 4 * x, as: SIMD8<Int32>.self)
            let index = Self.curveIndex((scale &* y &+ offset) &>> 12, center: 16)
            for lane in 0..<8 { destination[x + lane] = curve[Int(index[lane])] }
            x += 8
        }
        while x < count {
            let value = (m0 * (Int32(source[x]) - 16) + offsets[x]) >> 12
            destination[x] = curve[ColorProgram.index(value, offset: 16)]
            x += 1
        }
    }

    /// `m1·u + m2·v + 2048` of chroma row `cy`, repeated for each luma column of its block.
    /// Only programs whose luma reads chroma need it; none of the looks does, so it stays scalar.
    func lumaOffsetRow(_ source: YUVImage, cy: Int, chroma: ChromaGeometry, into offsets: UnsafeMutablePointer<Int32>) {
        let m1 = program.matrix[1], m2 = program.matrix[2]
        let cbRow = source.cb.row(cy), crRow = source.cr.row(cy)
        let width = source.luma.width
        for cx in 0..<source.cb.width {
            let offset = m1 * (Int32(cbRow[cx]) - 128) + m2 * (Int32(crRow[cx]) - 128) + 2048
            for x in chroma.lumaColumns(ofChromaColumn: cx, lumaWidth: width) { offsets[x] = offset }
        }
    }

    // MARK: - Chroma

    /// Chroma row `cy`; `mean` holds the row's rounded mean lumas (read when
    /// `chromaReadsMeanLuma`).
    @inline(__always)
    func chromaBlockRow(source: YUVImage, destination: YUVImage, cy: Int, mean: UnsafeMutablePointer<UInt8>) {
        if instructions == .avx512 {
            wideChromaRow(source: source, destination: destination, cy: cy, mean: mean)
        } else {
            chromaRow(source: source, destination: destination, cy: cy, mean: mean)
        }
    }

    /// Chroma row `cy` with the portable or AVX2 kernels.
    @inline(__always)
    private func chromaRow(source: YUVImage, destination: YUVImage, cy: Int, mean: UnsafeMutablePointer<UInt8>) {
        let count = source.cb.width
        let cb = source.cb.row(cy), cr = source.cr.row(cy)
        let toCb = destination.cb.row(cy), toCr = destination.cr.row(cy)
        switch chroma {
        case .constant(let cbValue, let crValue):
            toCb.update(repeating: cbValue, count: count)
            toCr.update(repeating: crValue, count: count)
        case .pairTable:
            Self.pairTableRow(instructions, cb: cb, cr: cr, toCb: toCb, toCr: toCr, count: count, pairs: tables.chromaPairs)
        case .channelTables(let cbKey, let crKey):
            func row(_ input: ChromaInput) -> UnsafeMutablePointer<UInt8> {
                switch input {
                case .meanLuma: return mean
                case .cb: return cb
                case .cr: return cr
                }
            }
            // Cb' first would overwrite Cb before Cr' reads it (in place, a key may hold both):
            // both outputs of a group are computed before either is stored.
            if instructions == .avx2 {
                vr_chroma_tables_row_avx2(row(cbKey.low), row(cbKey.high), row(crKey.low), row(crKey.high), toCb, toCr,
                                          count, tables.cbTable, tables.crTable)
            } else {
                channelTablesRow(cbLow: row(cbKey.low), cbHigh: row(cbKey.high), crLow: row(crKey.low),
                                 crHigh: row(crKey.high), toCb: toCb, toCr: toCr, count: count)
            }
        case .shiftCurves:
            shiftCurvesRow(cb: cb, cr: cr, mean: chromaReadsMeanLuma ? mean : nil, toCb: toCb, toCr: toCr, count: count)
        case .general where instructions == .avx2:
            Self.wideChromaRow(.avx2, mean: chromaReadsMeanLuma ? mean : nil, cb: cb, cr: cr, toCb: toCb, toCr: toCr,
                               count: count, matrix: tables.chromaMatrix, cbCurve: tables.cbCurve, crCurve: tables.crCurve)
        case .general:
            generalChromaRow(cb: cb, cr: cr, mean: mean, toCb: toCb, toCr: toCr, count: count)
        }
    }

    /// Chroma row `cy` with the AVX-512 kernel: the matrix on 16 lanes, the curves from registers.
    private func wideChromaRow(source: YUVImage, destination: YUVImage, cy: Int, mean: UnsafeMutablePointer<UInt8>) {
        let count = source.cb.width
        if case .constant(let cbValue, let crValue) = chroma {
            destination.cb.row(cy).update(repeating: cbValue, count: count)
            destination.cr.row(cy).update(repeating: crValue, count: count)
            return
        }
        Self.wideChromaRow(instructions, mean: chromaReadsMeanLuma ? mean : nil, cb: source.cb.row(cy),
                           cr: source.cr.row(cy), toCb: destination.cb.row(cy), toCr: destination.cr.row(cy),
                           count: count, matrix: tables.chromaMatrix, cbCurve: tables.cbCurve, crCurve: tables.crCurve)
    }

    /// `CRowKernels`' matrix chroma row for `instructions` (AVX2 or AVX-512).
    private static func wideChromaRow(_ instructions: RowInstructions, mean: UnsafeMutablePointer<UInt8>?,
                              cb: UnsafeMutablePointer<UInt8>, cr: UnsafeMutablePointer<UInt8>,
                              toCb: UnsafeMutablePointer<UInt8>, toCr: UnsafeMutablePointer<UInt8>, count: Int,
                              matrix: UnsafeMutablePointer<Int32>, cbCurve: UnsafeMutablePointer<UInt8>,
                              crCurve: UnsafeMutablePointer<UInt8>) {
        precondition(instructions != .portable, "the portable kernels have no matrix chroma row in C")
        if instructions == .avx512 {
            vr_chroma_row_avx512(mean, cb, cr, toCb, toCr, count, matrix, cbCurve, crCurve)
        } else {
            vr_chroma_row_avx2(mean, cb, cr, toCb, toCr, count, matrix, cbCurve, crCurve)
        }
    }

    /// (Cb', Cr') = `pairs[Cb | Cr << 8]` for a chroma row: gathered by the AVX2 kernel (which
    /// AVX-512 machines run too), looked up by `pairRow` on the portable kernels.
    static func pairTableRow(_ instructions: RowInstructions, cb: UnsafeMutablePointer<UInt8>, cr: UnsafeMutablePointer<UInt8>,
                             toCb: UnsafeMutablePointer<UInt8>, toCr: UnsafeMutablePointer<UInt8>, count: Int,
                             pairs: UnsafeMutablePointer<UInt16>) {
        if instructions == .portable {
            pairRow(cb: cb, cr: cr, toCb: toCb, toCr: toCr, count: count, pairs: pairs)
        } else {
            vr_chroma_pairs_row_avx2(cb, cr, toCb, toCr, count, pairs)
        }
    }

    /// Eight (Cb, Cr) pairs per step: the table indices come from one interleave of the two
    /// planes' bytes on 16-bit lanes, then eight lookups fill the lanes of the result.
    private static func pairRow(cb: UnsafeMutablePointer<UInt8>, cr: UnsafeMutablePointer<UInt8>,
                                toCb: UnsafeMutablePointer<UInt8>, toCr: UnsafeMutablePointer<UInt8>, count: Int,
                                pairs: UnsafeMutablePointer<UInt16>) {
        var x = 0
        while x + 8 <= count {
            let index = Self.widen16(cb + x) | Self.widen16(cr + x) &<< 8
            var out = SIMD8<UInt16>()
            for lane in 0..<8 { out[lane] = pairs[Int(index[lane])] }
            Self.store(SIMD8<UInt8>(truncatingIfNeeded: out), to: toCb + x)
            Self.store(SIMD8<UInt8>(truncatingIfNeeded: out &>> 8), to: toCr + x)
            x += 8
        }
        while x < count {
            let pair = pairs[Int(cb[x]) | Int(cr[x]) << 8]
            toCb[x] = UInt8(truncatingIfNeeded: pair)
            toCr[x] = UInt8(truncatingIfNeeded: pair >> 8)
            x += 1
        }
    }

    /// Eight samples per step: each channel's table index is `low | high << 8` on 16-bit lanes.
    private func channelTablesRow(cbLow: UnsafeMutablePointer<UInt8>, cbHigh: UnsafeMutablePointer<UInt8>,
                                  crLow: UnsafeMutablePointer<UInt8>, crHigh: UnsafeMutablePointer<UInt8>,
                                  toCb: UnsafeMutablePointer<UInt8>, toCr: UnsafeMutablePointer<UInt8>, count: Int) {
        let cbTable = tables.cbTable, crTable = tables.crTable
        var x = 0
        while x + 8 <= count {
            let cbIndex = Self.widen16(cbLow + x) | Self.widen16(cbHigh + x) &<< 8
            let crIndex = Self.widen16(crLow + x) | Self.widen16(crHigh + x) &<< 8
            var outCb = SIMD8<UInt8>(), outCr = SIMD8<UInt8>()
            for lane in 0..<8 {
                outCb[lane] = cbTable[Int(cbIndex[lane])]
                outCr[lane] = crTable[Int(crIndex[lane])]
            }
            Self.store(outCb, to: toCb + x)
            Self.store(outCr, to: toCr + x)
            x += 8
        }
        while x < count {
            let cbValue = cbTable[Int(cbLow[x]) | Int(cbHigh[x]) << 8]
            toCr[x] = crTable[Int(crLow[x]) | Int(crHigh[x]) << 8]
            toCb[x] = cbValue
            x += 1
        }
    }

    /// Rows 2 and 3 of the matrix on 8 lanes of 32 bits, then the two curves (scalar lookups).
    private func generalChromaRow(cb: UnsafeMutablePointer<UInt8>, cr: UnsafeMutablePointer<UInt8>,
                                  mean: UnsafeMutablePointer<UInt8>, toCb: UnsafeMutablePointer<UInt8>,
                                  toCr: UnsafeMutablePointer<UInt8>, count: Int) {
        let m = program.matrix
        let m3 = SIMD8(repeating: m[3]), m4 = SIMD8(repeating: m[4]), m5 = SIMD8(repeating: m[5])
        let m6 = SIMD8(repeating: m[6]), m7 = SIMD8(repeating: m[7]), m8 = SIMD8(repeating: m[8])
        let cbCurve = tables.cbCurve, crCurve = tables.crCurve
        var x = 0
        while x + 8 <= count {
            let y = Self.widen(mean + x) &- 16, u = Self.widen(cb + x) &- 128, v = Self.widen(cr + x) &- 128
            let cbIndex = Self.curveIndex((m3 &* y &+ m4 &* u &+ m5 &* v &+ 2048) &>> 12, center: 128)
            let crIndex = Self.curveIndex((m6 &* y &+ m7 &* u &+ m8 &* v &+ 2048) &>> 12, center: 128)
            for lane in 0..<8 {
                toCb[x + lane] = cbCurve[Int(cbIndex[lane])]
                toCr[x + lane] = crCurve[Int(crIndex[lane])]
            }
            x += 8
        }
        while x < count {
            let out = program.chroma(meanLuma: mean[x], cb: cb[x], cr: cr[x])
            toCb[x] = out.cb
            toCr[x] = out.cr
            x += 1
        }
    }

    // MARK: - Helpers

    @inline(__always)
    static func widen(_ bytes: UnsafeMutablePointer<UInt8>) -> SIMD8<Int32> {
        SIMD8<Int32>(truncatingIfNeeded: UnsafeRawPointer(bytes).loadUnaligned(as: SIMD8<UInt8>.self))
    }

    @inline(__always)
    static func widen16(_ bytes: UnsafeMutablePointer<UInt8>) -> SIMD8<UInt16> {
        SIMD8<UInt16>(truncatingIfNeeded: UnsafeRawPointer(bytes).loadUnaligned(as: SIMD8<UInt8>.self))
    }

    @inline(__always)
    static func store(_ bytes: SIMD8<UInt8>, to destination: UnsafeMutablePointer<UInt8>) {
        UnsafeMutableRawPointer(destination).storeBytes(of: bytes, as: SIMD8<UInt8>.self)
    }

    /// `clamp(value + center, 0, 255)`: the definition's curve index.
    @inline(__always)
    static func curveIndex(_ value: SIMD8<Int32>, center: Int32) -> SIMD8<Int32> {
        (value &+ center).clamped(lowerBound: .zero, upperBound: SIMD8(repeating: 255))
    }
}
