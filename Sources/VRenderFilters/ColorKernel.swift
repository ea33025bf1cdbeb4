internal import CRowKernels
import VRenderCore

/// A `ColorProgram` prepared for the CPU: its exact result, computed with tables built once
/// and a little SIMD arithmetic, over a band of rows (in place or not).
///
/// The x86-64 baseline the package builds for (SSE2) has no byte shuffle, no gather and no
/// 32-bit lane multiply, so curve lookups are scalar whatever we do and matrix arithmetic on
/// 32-bit lanes is slow. The kernel therefore folds as much of the program as it can into
/// tables indexed by one or two input bytes, so that most samples cost one lookup:
///
/// - luma, when Y' reads only Y (`lumaIgnoresChroma`): matrix row, clamp and curve become one
///   256-entry table, also stored as a 65,536-entry table of two samples at a time (128 KiB,
///   stays in L2), which halves the lookups: ~1.6x faster than byte lookups, and faster than
///   the SIMD arithmetic `mono` used to have;
/// - chroma: constants when it reads nothing; one table from (Cb, Cr) to (Cb', Cr') when it
///   reads only chroma; when each of Cb' and Cr' reads at most two of (mean luma, Cb, Cr), one
///   byte table per channel indexed by those two (`process`'s luma-dependent tint). Table
///   indices are built on 16-bit SIMD lanes (one interleave per 8 samples);
/// - otherwise (an output reads all three inputs, or luma reads chroma) the matrix runs on
///   8 lanes of 32-bit SIMD and only the curves are looked up. No look needs this today;
/// - but first: chroma curves that are shifts with a clamp (every look's: `ShiftCurve`) need
///   no lookup at all, the matrix's lanes are clamped. The matrix then runs on 16-bit lanes
///   with a multiply-add, which SSE2 has (`vr_chroma_shift_row_baseline`, the portable kernels'
///   one C step: `process` 1.25x faster than with its two channel tables) and AVX2 twice as wide.
///
/// With AVX-512 (`RowInstructions.avx512`) none of the two-byte tables is built: a luma table
/// is looked up 64 samples at a time from registers, and chroma runs the matrix on 16 lanes of
/// 32 bits and looks its curves up the same way, whatever it reads (`CRowKernels`). With AVX2
/// the same two-byte tables are gathered from, 8 entries a gather (AVX2 has no byte permute
/// wider than 16 entries, and a gather of a two-byte table does twice the work of one of a
/// curve), and the general chroma step runs the matrix on 8 lanes and gathers its curves.
/// A class, not a struct: a fused run reads its kernels per chroma row, and copying a struct that
/// holds the program's arrays retained and released each of them every time (a tenth of a chain's
/// time at 1080p); immutable, so its threads share it.
final class ColorKernel: Sendable {
    let program: ColorProgram
    let luma: LumaStep
    let chroma: ChromaStep
    let instructions: RowInstructions
    let tables: KernelTables

    enum LumaStep: Sendable, Equatable {
        /// Y' = table[Y]: `tables.luma` and `tables.lumaPairs`.
        case table
        /// Y' reads the block's chroma: matrix row per sample, then `tables.luma` (the curve).
        case general
    }

    enum ChromaStep: Sendable, Equatable {
        case constant(cb: UInt8, cr: UInt8)
        /// (Cb', Cr') = `tables.chromaPairs[Cb | Cr << 8]`, Cb' in the low byte.
        case pairTable
        /// Cb' = `tables.cbTable[low | high << 8]` with `low`, `high` the inputs `cb` names;
        /// Cr' likewise.
        case channelTables(cb: TableKey, cr: TableKey)
        /// Matrix rows per sample on 16-bit lanes, the curves a clamp on the same lanes
        /// (`ShiftCurve`, `tables.chromaLimits`): AVX2 and portable (AVX-512 looks curves up from registers).
        case shiftCurves
        /// Matrix rows per sample on SIMD lanes, then the curves.
        case general
    }

    /// What a chroma output reads: the block's rounded mean luma, its Cb, its Cr.
    enum ChromaInput: Sendable, Equatable { case meanLuma, cb, cr }

    /// The two inputs a per-channel table is indexed by (`low | high << 8`).
    struct TableKey: Sendable, Equatable {
        let low: ChromaInput
        let high: ChromaInput

        init(low: ChromaInput, high: ChromaInput) {
            self.low = low
            self.high = high
        }

        /// The key for a matrix row's `(mean, cb, cr)` coefficients, or nil when it reads all three.
        init?(row: ArraySlice<Int32>) {
            let reads = zip([ChromaInput.meanLuma, .cb, .cr], row).filter { $0.1 != 0 }.map(\.0)
            switch reads.count {
            case 3: return nil
            case 2: (low, high) = (reads[0], reads[1])
            case 1 where reads[0] == .meanLuma: (low, high) = (.meanLuma, .cb)
            default: (low, high) = (.cb, .cr)
            }
        }

        var readsMeanLuma: Bool { low == .meanLuma }
    }

    init(_ program: ColorProgram, instructions: RowInstructions = .detected) {
        self.program = program
        self.instructions = instructions
        let m = program.matrix
        luma = program.lumaIgnoresChroma ? .table : .general
        if program.chromaIsConstant {
            chroma = .constant(cb: program.cbCurve[128], cr: program.crCurve[128])
        } else if instructions != .avx512, ShiftCurve.chromaLimits(of: program) != nil {
            chroma = .shiftCurves
        } else if m[3] == 0 && m[6] == 0 {
            chroma = .pairTable
        } else if let cb = TableKey(row: m[3...5]), let cr = TableKey(row: m[6...8]) {
            chroma = .channelTables(cb: cb, cr: cr)
        } else {
            chroma = .general
        }
        tables = KernelTables(program, luma: luma, chroma: chroma, instructions: instructions)
    }

    /// Whether the chroma step reads the block's mean luma (then it is computed per row).
    /// (The AVX2 and AVX-512 matrix kernels read it only when rows 2 or 3 weigh it; a table's
    /// key names it exactly when they do.)
    var chromaReadsMeanLuma: Bool {
        switch chroma {
        case .constant, .pairTable: return false
        case .channelTables(let cb, let cr): return cb.readsMeanLuma || cr.readsMeanLuma
        case .shiftCurves: return program.matrix[3] != 0 || program.matrix[6] != 0
        case .general: return instructions == .portable || program.matrix[3] != 0 || program.matrix[6] != 0
        }
    }

    /// Filters `lumaRows` and the chroma rows of their blocks. `lumaRows` must not split a
    /// block: it starts on a multiple of the block height (even rows for 4:2:0, as every
    /// `RowBands` band and `FilterChain` step does).
    func apply(source: YUVImage, destination: YUVImage, lumaRows: Range<Int>) {
        guard !lumaRows.isEmpty else { return }
        let block = source.chroma
        let height = source.luma.height
        precondition(lumaRows.lowerBound % block.blockHeight == 0
                     && (lumaRows.upperBound % block.blockHeight == 0 || lumaRows.upperBound == height),
                     "rows \(lumaRows) split a chroma block of height \(block.blockHeight)")
        let chromaRows = block.chromaRows(covering: lumaRows)
        guard block.isVectorized else {
            for cy in chromaRows { scalarBlockRow(source: source, destination: destination, cy: cy, block: block) }
            return
        }
        let needsMean = chromaReadsMeanLuma, needsOffsets = luma == .general
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: needsMean ? source.cb.width : 1) { mean in
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: needsOffsets ? source.luma.width : 1) { offsets in
                for cy in chromaRows {
                    let rows = block.lumaRows(ofChromaRow: cy, lumaHeight: height)
                    // Everything read from the input is read before this block row is written:
                    // the mean luma (for chroma) and the chroma terms (for luma) go to scratch.
                    if needsMean {
                        Self.meanLumaRow(source.luma, rows: rows, chroma: block,
                                         into: mean.baseAddress!, count: source.cb.width, instructions: instructions)
                    }
                    if needsOffsets {
                        lumaOffsetRow(source, cy: cy, chroma: block, into: offsets.baseAddress!)
                    }
                    chromaBlockRow(source: source, destination: destination, cy: cy, mean: mean.baseAddress!)
                    for y in rows {
                        lumaRow(from: source.luma.row(y), to: destination.luma.row(y), count: source.luma.width,
                                offsets: offsets.baseAddress!)
                    }
                }
            }
        }
    }

    /// The definition for one block row, sample by sample: for block shapes other than
    /// 1 or 2 luma samples per chroma sample in each direction (no format vrender produces).
    private func scalarBlockRow(source: YUVImage, destination: YUVImage, cy: Int, block: ChromaGeometry) {
        let rows = block.lumaRows(ofChromaRow: cy, lumaHeight: source.luma.height)
        for cx in 0..<source.cb.width {
            let columns = block.lumaColumns(ofChromaColumn: cx, lumaWidth: source.luma.width)
            let cb = source.cb.row(cy)[cx], cr = source.cr.row(cy)[cx]
            let mean = Self.blockMean(source.luma, rows: rows, columns: columns)
            for y in rows {
                for x in columns {
                    destination.luma.row(y)[x] = program.luma(source.luma.row(y)[x], cb: cb, cr: cr)
                }
            }
            let out = program.chroma(meanLuma: mean, cb: cb, cr: cr)
            destination.cb.row(cy)[cx] = out.cb
            destination.cr.row(cy)[cx] = out.cr
        }
    }

    /// The rounded mean of the luma samples at `rows` × `columns`, as the definition takes it.
    @inline(__always)
    static func blockMean(_ luma: PlaneView, rows: Range<Int>, columns: Range<Int>) -> UInt8 {
        var sum = 0
        for y in rows { for x in columns { sum += Int(luma.row(y)[x]) } }
        let count = rows.count * columns.count
        return UInt8((sum + count / 2) / count)
    }
}

extension ChromaGeometry {
    /// 4:2:0, 4:2:2, 4:4:4 (and 4:4:0): the block shapes the SIMD row kernels handle.
    var isVectorized: Bool { (1...2).contains(blockWidth) && (1...2).contains(blockHeight) }
}

/// The kernel's tables in one allocation, written once in `init` and only read afterwards,
/// which is why sharing them between the threads of a frame is safe.
final class KernelTables: @unchecked Sendable {
    private let bytes: UnsafeMutableRawPointer
    /// Y' for every Y when luma is a table, else the program's luma curve.
    let luma: UnsafeMutablePointer<UInt8>
    let cbCurve: UnsafeMutablePointer<UInt8>
    let crCurve: UnsafeMutablePointer<UInt8>
    /// `luma` for two samples at a time: entry `a | b << 8` is `luma[a] | luma[b] << 8`.
    let lumaPairs: UnsafeMutablePointer<UInt16>
    /// (Cb', Cr') for every (Cb, Cr): entry `cb | cr << 8` is `cb' | cr' << 8`.
    let chromaPairs: UnsafeMutablePointer<UInt16>
    /// Cb' and Cr' for every pair of the inputs their `TableKey` names.
    let cbTable: UnsafeMutablePointer<UInt8>
    let crTable: UnsafeMutablePointer<UInt8>

    /// Rows 2 and 3 of the matrix, `{m3, m4, m5, m6, m7, m8}`, for the AVX2 and AVX-512 chroma
    /// kernels.
    let chromaMatrix: UnsafeMutablePointer<Int32>
    /// `.shiftCurves`' clamps, `{offset, low, high}` for Cb' then Cr' (`ShiftCurve.limits`); zeros otherwise.
    let chromaLimits: UnsafeMutablePointer<Int32>

    /// Builds the 65,536-entry tables `instructions` looks up: none for AVX-512 (256-entry
    /// curves in registers), the same ones for the portable and AVX2 kernels.
    init(_ program: ColorProgram, luma lumaStep: ColorKernel.LumaStep, chroma: ColorKernel.ChromaStep,
         instructions: RowInstructions) {
        chromaMatrix = .allocate(capacity: 6)
        for index in 0..<6 { chromaMatrix[index] = program.matrix[3 + index] }
        chromaLimits = .allocate(capacity: 6)
        let limits = chroma == .shiftCurves ? ShiftCurve.chromaLimits(of: program) ?? [] : []
        for index in 0..<6 { chromaLimits[index] = index < limits.count ? limits[index] : 0 }
        let pairCount = 65_536
        let pairTables = instructions != .avx512
        let lumaPairCount = lumaStep == .table && pairTables ? pairCount : 0
        let chromaPairCount = chroma == .pairTable && pairTables ? pairCount : 0
        var channelKeys: (cb: ColorKernel.TableKey, cr: ColorKernel.TableKey)?
        if case .channelTables(let cb, let cr) = chroma, pairTables { channelKeys = (cb, cr) }
        let channelCount = channelKeys == nil ? 0 : pairCount
        let byteCount = 2 * (lumaPairCount + chromaPairCount) + 2 * channelCount + 3 * 256
        // The AVX2 kernels gather 32 bits at a table entry's address: 3 bytes past the last one
        // (`crCurve`'s) are read and dropped.
        bytes = UnsafeMutableRawPointer.allocate(byteCount: byteCount + RowInstructions.gatherPadding, alignment: 64)
        lumaPairs = bytes.bindMemory(to: UInt16.self, capacity: lumaPairCount)
        chromaPairs = (bytes + 2 * lumaPairCount).bindMemory(to: UInt16.self, capacity: chromaPairCount)
        let byteTables = (bytes + 2 * (lumaPairCount + chromaPairCount)).bindMemory(to: UInt8.self,
                                                                                   capacity: 2 * channelCount + 768)
        cbTable = byteTables
        crTable = byteTables + channelCount
        luma = byteTables + 2 * channelCount
        cbCurve = luma + 256
        crCurve = luma + 512
        for index in 0..<256 {
            // Chroma does not matter to `luma(_:cb:cr:)` when luma is a table.
            luma[index] = lumaStep == .table ? program.luma(UInt8(index), cb: 128, cr: 128) : program.lumaCurve[index]
            cbCurve[index] = program.cbCurve[index]
            crCurve[index] = program.crCurve[index]
        }
        for pair in 0..<lumaPairCount {
            lumaPairs[pair] = UInt16(luma[pair & 0xFF]) | UInt16(luma[pair >> 8]) << 8
        }
        if chromaPairCount > 0 { Self.fillChromaPairs(chromaPairs, through: [program]) }
        if let keys = channelKeys { fillChannelTables(program, keys: keys) }
    }

    /// Entry `cb | cr << 8` of `pairs` (65,536 of them): the (Cb', Cr') `programs` give in
    /// sequence, Cb' in the low byte. Their matrices must weigh the mean luma 0 (entries 3 and
    /// 6): it is not read, so any value is passed.
    static func fillChromaPairs(_ pairs: UnsafeMutablePointer<UInt16>, through programs: [ColorProgram]) {
        for cr in 0..<256 {
            for cb in 0..<256 {
                let out = programs.reduce((cb: UInt8(cb), cr: UInt8(cr))) { $1.chroma(meanLuma: 16, cb: $0.cb, cr: $0.cr) }
                pairs[cb | cr << 8] = UInt16(out.cb) | UInt16(out.cr) << 8
            }
        }
    }

    /// `cbTable` and `crTable` for every pair of the inputs `keys` name.
    private func fillChannelTables(_ program: ColorProgram, keys: (cb: ColorKernel.TableKey, cr: ColorKernel.TableKey)) {
        // An input a key leaves out has a zero coefficient in that row: any value will do.
        for high in 0..<256 {
            for low in 0..<256 {
                func value(_ input: ColorKernel.ChromaInput, _ key: ColorKernel.TableKey, otherwise: UInt8) -> UInt8 {
                    key.low == input ? UInt8(low) : key.high == input ? UInt8(high) : otherwise
                }
                let (cbKey, crKey) = keys
                cbTable[low | high << 8] = program.chroma(
                    meanLuma: value(.meanLuma, cbKey, otherwise: 16), cb: value(.cb, cbKey, otherwise: 128),
                    cr: value(.cr, cbKey, otherwise: 128)).cb
                crTable[low | high << 8] = program.chroma(
                    meanLuma: value(.meanLuma, crKey, otherwise: 16), cb: value(.cb, crKey, otherwise: 128),
                    cr: value(.cr, crKey, otherwise: 128)).cr
            }
        }
    }

    deinit {
        bytes.deallocate()
        chromaMatrix.deallocate()
        chromaLimits.deallocate()
    }
}
