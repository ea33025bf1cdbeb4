import VRenderCore

/// A `ColorProgram` prepared for the CPU: its exact result, computed with tables built once
/// and a little SIMD arithmetic, over a band of rows (in place or not).
///
/// The x86-64 baseline the package builds for (SSE2) has no byte shuffle and no gather, so a
/// curve lookup is scalar whatever we do. The kernel therefore folds as much of the program as
/// it can into tables, so that most samples cost one lookup:
///
/// - luma, when Y' reads only Y (`lumaIgnoresChroma`): matrix row, clamp and curve become one
///   256-entry table, also stored as a 65,536-entry table of two samples at a time (128 KiB,
///   stays in L2), which halves the lookups: ~1.6x faster than byte lookups, and faster than
///   the old SIMD arithmetic of `mono`, on the benchmark machine;
/// - chroma, when it does not read luma (matrix entries 3 and 6 zero): one 65,536-entry table
///   from (Cb, Cr) to (Cb', Cr'); when it does not read chroma either, two constants;
/// - otherwise (the block's mean luma or chroma feeds the other plane) the matrix runs on
///   8 lanes of 32-bit SIMD and only the curves are looked up.
struct ColorKernel: Sendable {
    let program: ColorProgram
    let luma: LumaStep
    let chroma: ChromaStep
    let tables: KernelTables

    enum LumaStep: Sendable {
        /// Y' = table[Y]: `tables.luma` and `tables.lumaPairs`.
        case table
        /// Y' reads the block's chroma: matrix row per sample, then `tables.luma` (the curve).
        case general
    }

    enum ChromaStep: Sendable {
        case constant(cb: UInt8, cr: UInt8)
        /// (Cb', Cr') = `tables.chromaPairs[Cb | Cr << 8]`, Cb' in the low byte.
        case pairTable
        /// Reads the block's rounded mean luma: matrix rows per sample, then the curves.
        case general
    }

    init(_ program: ColorProgram) {
        self.program = program
        let m = program.matrix.map(Int.init)
        luma = program.lumaIgnoresChroma ? .table : .general
        if program.chromaIsConstant {
            chroma = .constant(cb: program.cbCurve[128], cr: program.crCurve[128])
        } else if m[3] == 0 && m[6] == 0 {
            chroma = .pairTable
        } else {
            chroma = .general
        }
        tables = KernelTables(program, lumaTable: luma == .table, chromaPairs: chroma == .pairTable)
    }

    /// Filters `lumaRows` and the chroma rows of their blocks. `lumaRows` must not split a
    /// block: it starts on a multiple of the block height (even rows for 4:2:0, as every
    /// `RowSplitter` band and `FilterChain` step does).
    func apply(source: YUVImage, destination: YUVImage, lumaRows: Range<Int>) {
        guard !lumaRows.isEmpty else { return }
        let block = BlockGeometry(source)
        let height = source.luma.height
        precondition(lumaRows.lowerBound % block.height == 0
                     && (lumaRows.upperBound % block.height == 0 || lumaRows.upperBound == height),
                     "rows \(lumaRows) split a chroma block of height \(block.height)")
        let chromaRows = (lumaRows.lowerBound / block.height)..<((lumaRows.upperBound + block.height - 1) / block.height)
        guard block.isVectorized else {
            for cy in chromaRows { scalarBlockRow(source: source, destination: destination, cy: cy, block: block) }
            return
        }
        let needsMean = chroma == .general, needsOffsets = luma == .general
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: needsMean ? source.cb.width : 1) { mean in
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: needsOffsets ? source.luma.width : 1) { offsets in
                for cy in chromaRows {
                    let rows = (cy * block.height)..<Swift.min((cy + 1) * block.height, height)
                    // Everything read from the input is read before this block row is written:
                    // the mean luma (for chroma) and the chroma terms (for luma) go to scratch.
                    if needsMean {
                        Self.meanLumaRow(source.luma, rows: rows, blockWidth: block.width,
                                         into: mean.baseAddress!, count: source.cb.width)
                    }
                    if needsOffsets {
                        lumaOffsetRow(source, cy: cy, blockWidth: block.width, into: offsets.baseAddress!)
                    }
                    chromaRow(source: source, destination: destination, cy: cy, mean: mean.baseAddress!)
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
    private func scalarBlockRow(source: YUVImage, destination: YUVImage, cy: Int, block: BlockGeometry) {
        let rows = (cy * block.height)..<Swift.min((cy + 1) * block.height, source.luma.height)
        for cx in 0..<source.cb.width {
            let columns = (cx * block.width)..<Swift.min((cx + 1) * block.width, source.luma.width)
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

extension ColorKernel.LumaStep: Equatable {}

extension ColorKernel.ChromaStep: Equatable {}

/// Luma samples per chroma sample, derived from the plane sizes exactly as
/// `ColorProgram.referenceApply` does (blocks on the right and bottom edges may be cut off).
struct BlockGeometry {
    let width: Int
    let height: Int

    init(_ image: YUVImage) {
        width = (image.luma.width + image.cb.width - 1) / image.cb.width
        height = (image.luma.height + image.cb.height - 1) / image.cb.height
    }

    /// 4:2:0, 4:2:2, 4:4:4 (and 4:4:0): the shapes the SIMD row kernels handle.
    var isVectorized: Bool { (1...2).contains(width) && (1...2).contains(height) }
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

    init(_ program: ColorProgram, lumaTable: Bool, chromaPairs wantsChromaPairs: Bool) {
        let pairCount = 65_536
        let lumaPairCount = lumaTable ? pairCount : 0, chromaPairCount = wantsChromaPairs ? pairCount : 0
        let byteCount = 2 * (lumaPairCount + chromaPairCount) + 3 * 256
        bytes = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: 64)
        lumaPairs = bytes.bindMemory(to: UInt16.self, capacity: lumaPairCount)
        chromaPairs = (bytes + 2 * lumaPairCount).bindMemory(to: UInt16.self, capacity: chromaPairCount)
        let curves = (bytes + 2 * (lumaPairCount + chromaPairCount)).bindMemory(to: UInt8.self, capacity: 3 * 256)
        luma = curves
        cbCurve = curves + 256
        crCurve = curves + 512
        for index in 0..<256 {
            // Chroma does not matter to `luma(_:cb:cr:)` when luma is a table.
            luma[index] = lumaTable ? program.luma(UInt8(index), cb: 128, cr: 128) : program.lumaCurve[index]
            cbCurve[index] = program.cbCurve[index]
            crCurve[index] = program.crCurve[index]
        }
        for pair in 0..<lumaPairCount {
            lumaPairs[pair] = UInt16(luma[pair & 0xFF]) | UInt16(luma[pair >> 8]) << 8
        }
        if wantsChromaPairs {
            // Entries 3 and 6 are zero, so the mean luma does not matter: pass any.
            for cr in 0..<256 {
                for cb in 0..<256 {
                    let out = program.chroma(meanLuma: 16, cb: UInt8(cb), cr: UInt8(cr))
                    chromaPairs[cb | cr << 8] = UInt16(out.cb) | UInt16(out.cr) << 8
                }
            }
        }
    }

    deinit { bytes.deallocate() }
}
