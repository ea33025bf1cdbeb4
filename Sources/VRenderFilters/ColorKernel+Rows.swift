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
        case .table: Self.lookupRow(from: source, to: destination, count: count, tables: tables)
        case .general: generalLumaRow(from: source, to: destination, count: count, offsets: offsets)
        }
    }

    /// Eight samples per step: one 64-bit load, four two-sample lookups, one 64-bit store.
    static func lookupRow(from source: UnsafeMutablePointer<UInt8>, to destination: UnsafeMutablePointer<UInt8>,
                          count: Int, tables: KernelTables) {
        let input = UnsafeRawPointer(source), output = UnsafeMutableRawPointer(destination)
        let pairs = tables.lumaPairs
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
            destination[x] = tables.luma[Int(source[x])]
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

    /// Chroma row `cy`; `mean` holds the row's rounded mean lumas (read when the step needs it).
    @inline(__always)
    func chromaRow(source: YUVImage, destination: YUVImage, cy: Int, mean: UnsafeMutablePointer<UInt8>) {
        let count = source.cb.width
        let cb = source.cb.row(cy), cr = source.cr.row(cy)
        let toCb = destination.cb.row(cy), toCr = destination.cr.row(cy)
        switch chroma {
        case .constant(let cbValue, let crValue):
            toCb.update(repeating: cbValue, count: count)
            toCr.update(repeating: crValue, count: count)
        case .pairTable:
            pairRow(cb: cb, cr: cr, toCb: toCb, toCr: toCr, count: count)
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
            channelTablesRow(cbLow: row(cbKey.low), cbHigh: row(cbKey.high), crLow: row(crKey.low),
                             crHigh: row(crKey.high), toCb: toCb, toCr: toCr, count: count)
        case .general:
            generalChromaRow(cb: cb, cr: cr, mean: mean, toCb: toCb, toCr: toCr, count: count)
        }
    }

    /// Chroma row `cy` with the AVX-512 kernel: the matrix on 16 lanes, the curves from registers.
    func wideChromaRow(source: YUVImage, destination: YUVImage, cy: Int, mean: UnsafeMutablePointer<UInt8>) {
        let count = source.cb.width
        if case .constant(let cbValue, let crValue) = chroma {
            destination.cb.row(cy).update(repeating: cbValue, count: count)
            destination.cr.row(cy).update(repeating: crValue, count: count)
            return
        }
        vr_chroma_row_avx512(chromaReadsMeanLuma ? mean : nil, source.cb.row(cy), source.cr.row(cy),
                             destination.cb.row(cy), destination.cr.row(cy), count, tables.chromaMatrix,
                             tables.cbCurve, tables.crCurve)
    }

    /// Eight (Cb, Cr) pairs per step: the table indices come from one interleave of the two
    /// planes' bytes on 16-bit lanes, then eight lookups fill the lanes of the result.
    private func pairRow(cb: UnsafeMutablePointer<UInt8>, cr: UnsafeMutablePointer<UInt8>,
                         toCb: UnsafeMutablePointer<UInt8>, toCr: UnsafeMutablePointer<UInt8>, count: Int) {
        let pairs = tables.chromaPairs
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

    // MARK: - Mean luma of each block

    /// The rounded mean luma of every block of one chroma row (`rows`: its one or two luma
    /// rows), 8 or 16 blocks per step on 16-bit lanes; blocks cut off by an odd width at the
    /// right edge go through the scalar `blockMean`.
    static func meanLumaRow(_ luma: PlaneView, rows: Range<Int>, chroma: ChromaGeometry,
                            into mean: UnsafeMutablePointer<UInt8>, count: Int, instructions: RowInstructions) {
        let top = UnsafeRawPointer(luma.row(rows.lowerBound))
        let bottom = UnsafeRawPointer(luma.row(rows.upperBound - 1))
        let twoRows = rows.count == 2
        let output = UnsafeMutableRawPointer(mean)
        var cx = 0
        if chroma.blockWidth == 2 && instructions == .avx512 {
            cx = luma.width / 2
            vr_mean_of_pairs_avx512(luma.row(rows.lowerBound), twoRows ? luma.row(rows.upperBound - 1) : nil, mean, cx)
        } else if chroma.blockWidth == 2 {
            // A 16-bit lane holds two horizontally adjacent samples: (lane & 0xFF) + (lane >> 8)
            // is their sum, whichever byte order the machine has.
            @inline(__always)
            func pairSums(_ row: UnsafeRawPointer) -> SIMD8<UInt16> {
                let lanes = row.loadUnaligned(fromByteOffset: 2 * cx, as: SIMD8<UInt16>.self)
                return (lanes & 0xFF) &+ (lanes &>> 8)
            }
            // Two loops rather than a test per step: the mean of 4 and the mean of 2.
            if twoRows {
                while 2 * (cx + 8) <= luma.width {
                    let rounded = (pairSums(top) &+ pairSums(bottom) &+ 2) &>> 2
                    output.storeBytes(of: SIMD8<UInt8>(truncatingIfNeeded: rounded), toByteOffset: cx, as: SIMD8<UInt8>.self)
                    cx += 8
                }
            } else {
                while 2 * (cx + 8) <= luma.width {
                    let rounded = (pairSums(top) &+ 1) &>> 1
                    output.storeBytes(of: SIMD8<UInt8>(truncatingIfNeeded: rounded), toByteOffset: cx, as: SIMD8<UInt8>.self)
                    cx += 8
                }
            }
        } else if twoRows {
            while cx + 16 <= count {
                let a = SIMD16<UInt16>(truncatingIfNeeded: top.loadUnaligned(fromByteOffset: cx, as: SIMD16<UInt8>.self))
                let b = SIMD16<UInt16>(truncatingIfNeeded: bottom.loadUnaligned(fromByteOffset: cx, as: SIMD16<UInt8>.self))
                output.storeBytes(of: SIMD16<UInt8>(truncatingIfNeeded: (a &+ b &+ 1) &>> 1), toByteOffset: cx,
                                  as: SIMD16<UInt8>.self)
                cx += 16
            }
        } else {
            // One sample per block: its mean is itself.
            mean.update(from: luma.row(rows.lowerBound), count: count)
            return
        }
        while cx < count {
            mean[cx] = blockMean(luma, rows: rows, columns: chroma.lumaColumns(ofChromaColumn: cx, lumaWidth: luma.width))
            cx += 1
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
