internal import CRowKernels
import VRenderCore

/// Consecutive colour programs whose luma reads only luma (every look's), run as one pass with
/// the AVX-512 row kernels: what `FilterChain` runs for such a run of two or more filters.
///
/// Running them one after another writes every luma sample once per program. But when each
/// program's Y' depends on Y alone, the run's luma is one table, the programs' luma tables
/// composed (`L_n = T_n ∘ … ∘ T_1`), looked up once. Chroma still goes program by program (at
/// a quarter of the samples for 4:2:0), each reading its own input: the chroma the previous
/// program wrote and, when it reads luma, the block means of the luma the previous programs
/// made, `L_(k−1)(Y)`, computed into a scratch row from the source. The bytes are therefore
/// those of the programs run in sequence, which the tests check against the reference.
///
/// A program whose chroma is constant (a monochrome look) makes every chroma step before it
/// moot: the run's chroma starts at the last such program.
struct FusedColorRun: Sendable {
    let programs: [ColorProgram]
    let tables: FusedTables
    /// Index of the first program whose chroma step runs (the last constant-chroma one, or 0).
    let firstChromaStep: Int

    /// nil unless `instructions` is AVX-512, there are two programs or more, and each one's
    /// luma reads only luma.
    init?(_ programs: [ColorProgram], instructions: RowInstructions = .detected) {
        guard instructions == .avx512, programs.count >= 2, programs.allSatisfy(\.lumaIgnoresChroma) else { return nil }
        self.programs = programs
        tables = FusedTables(programs)
        firstChromaStep = programs.lastIndex { $0.chromaIsConstant } ?? 0
    }

    /// Filters `lumaRows` and the chroma rows of their blocks (`lumaRows` starts on a block
    /// boundary, as `RowBands` bands do). Only for block shapes `isVectorized` accepts.
    func apply(source: YUVImage, destination: YUVImage, lumaRows: Range<Int>) {
        guard !lumaRows.isEmpty else { return }
        let block = source.chroma, width = source.luma.width, height = source.luma.height
        precondition(block.isVectorized, "\(block) blocks go through the programs one by one")
        let chromaWidth = source.cb.width
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: chromaWidth + 2 * width) { scratch in
            let mean = scratch.baseAddress!
            let lumaScratch = PlaneView(base: mean + chromaWidth, stride: width, width: width, height: 2)
            for cy in block.chromaRows(covering: lumaRows) {
                let rows = block.lumaRows(ofChromaRow: cy, lumaHeight: height)
                // Chroma first: in place, its means read the luma rows before they are written.
                for step in firstChromaStep..<programs.count {
                    chromaStep(step, source: source, destination: destination, cy: cy, rows: rows, block: block,
                               mean: mean, lumaScratch: lumaScratch)
                }
                for y in rows {
                    vr_lookup_row_avx512(source.luma.row(y), destination.luma.row(y), width, tables.composedLuma(programs.count))
                }
            }
        }
    }

    /// Program `step`'s chroma for chroma row `cy`: from the source's chroma for the first step
    /// that runs, from the destination's (the previous step's output) after it.
    private func chromaStep(_ step: Int, source: YUVImage, destination: YUVImage, cy: Int, rows: Range<Int>,
                            block: ChromaGeometry, mean: UnsafeMutablePointer<UInt8>, lumaScratch: PlaneView) {
        let program = programs[step], count = source.cb.width
        if program.chromaIsConstant {
            destination.cb.row(cy).update(repeating: program.cbCurve[128], count: count)
            destination.cr.row(cy).update(repeating: program.crCurve[128], count: count)
            return
        }
        let readsMean = program.matrix[3] != 0 || program.matrix[6] != 0
        if readsMean {
            // The block means of the luma this program receives: L_step(Y), the source's luma
            // through the programs before it (the source itself for the first).
            var luma = source.luma, lumaRows = rows
            if step > 0 {
                for (index, y) in rows.enumerated() {
                    vr_lookup_row_avx512(source.luma.row(y), lumaScratch.row(index), source.luma.width,
                                         tables.composedLuma(step))
                }
                (luma, lumaRows) = (lumaScratch, 0..<rows.count)
            }
            ColorKernel.meanLumaRow(luma, rows: lumaRows, chroma: block, into: mean, count: count, instructions: .avx512)
        }
        let input = step == firstChromaStep ? source : destination
        vr_chroma_row_avx512(readsMean ? mean : nil, input.cb.row(cy), input.cr.row(cy), destination.cb.row(cy),
                             destination.cr.row(cy), count, tables.chromaMatrix(step), tables.cbCurve(step),
                             tables.crCurve(step))
    }
}

/// A fused run's tables in one allocation, written in `init` and only read afterwards, which
/// is why the threads of a frame may share them (`@unchecked Sendable`: raw pointers).
final class FusedTables: @unchecked Sendable {
    private let bytes: UnsafeMutableRawPointer
    private let count: Int

    /// Per program: its cb and cr curves (256 bytes each); then the composed luma tables
    /// L_1 … L_n (256 bytes each); then each program's chroma matrix rows (6 × Int32).
    init(_ programs: [ColorProgram]) {
        count = programs.count
        bytes = .allocate(byteCount: count * (3 * 256 + 24), alignment: 64)
        var composed = (0...255).map(UInt8.init)
        for (step, program) in programs.enumerated() {
            // Chroma does not reach Y' (lumaIgnoresChroma): any cb, cr will do.
            composed = composed.map { program.luma($0, cb: 128, cr: 128) }
            for index in 0..<256 {
                cbCurve(step)[index] = program.cbCurve[index]
                crCurve(step)[index] = program.crCurve[index]
                composedLuma(step + 1)[index] = composed[index]
            }
            for index in 0..<6 { chromaMatrix(step)[index] = program.matrix[3 + index] }
        }
    }

    func cbCurve(_ step: Int) -> UnsafeMutablePointer<UInt8> { table(2 * step) }
    func crCurve(_ step: Int) -> UnsafeMutablePointer<UInt8> { table(2 * step + 1) }

    /// The luma of the first `programs` programs as one table (1 ≤ programs ≤ count).
    func composedLuma(_ programs: Int) -> UnsafeMutablePointer<UInt8> { table(2 * count + programs - 1) }

    func chromaMatrix(_ step: Int) -> UnsafeMutablePointer<Int32> {
        (bytes + 3 * 256 * count).bindMemory(to: Int32.self, capacity: 6 * count) + 6 * step
    }

    private func table(_ index: Int) -> UnsafeMutablePointer<UInt8> {
        (bytes + 256 * index).bindMemory(to: UInt8.self, capacity: 256)
    }

    deinit { bytes.deallocate() }
}
