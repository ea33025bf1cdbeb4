internal import CRowKernels
import VRenderCore

/// Consecutive colour programs whose luma reads only luma (every look's), run as one pass:
/// what `FilterChain` runs for such a run of two or more filters, with every row kernel.
///
/// Running them one after another writes every luma sample once per program. But when each
/// program's Y' depends on Y alone, the run's luma is one table, the programs' luma tables
/// composed (`L_n = T_n ∘ … ∘ T_1`), looked up once. Chroma still goes program by program (at
/// a quarter of the samples for 4:2:0), each through its own kernel's chroma step and reading
/// its own input: the chroma the previous program wrote and, when it reads luma, the block
/// means of the luma the previous programs made, `L_(k−1)(Y)`, computed into a scratch row from
/// the source. The bytes are therefore those of the programs run in sequence, which the tests
/// check against the reference.
///
/// A program whose chroma is constant (a monochrome look) makes every chroma step before it
/// moot: the run's chroma starts at the last such program. When none of the chroma steps that
/// run reads luma (`chrome,fade`), they compose too: one (Cb, Cr) → (Cb', Cr') pair table,
/// looked up once per sample (gathered with AVX2 and AVX-512) instead of a pass per program.
struct FusedColorRun: Sendable {
    /// One kernel per program, for its chroma step.
    let kernels: [ColorKernel]
    let luma: ComposedLuma
    let instructions: RowInstructions
    /// Index of the first program whose chroma step runs (the last constant-chroma one, or 0).
    let firstChromaStep: Int
    /// The chroma steps from `firstChromaStep` on as one pair table, when there are two or more
    /// and none reads luma; nil otherwise.
    let chroma: ComposedChroma?

    /// nil unless there are two programs or more and each one's luma reads only luma.
    init?(_ programs: [ColorProgram], instructions: RowInstructions = .detected) {
        guard programs.count >= 2, programs.allSatisfy(\.lumaIgnoresChroma) else { return nil }
        self.instructions = instructions
        kernels = programs.map { ColorKernel($0, instructions: instructions) }
        luma = ComposedLuma(programs, pairs: instructions != .avx512)
        let first = programs.lastIndex { $0.chromaIsConstant } ?? 0
        firstChromaStep = first
        let steps = Array(programs[first...])
        chroma = steps.count >= 2 && steps.allSatisfy({ $0.matrix[3] == 0 && $0.matrix[6] == 0 }) ? ComposedChroma(steps) : nil
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
                if let chroma {
                    composedChromaRow(chroma, source: source, destination: destination, cy: cy)
                } else {
                    for step in firstChromaStep..<kernels.count {
                        chromaStep(step, source: source, destination: destination, cy: cy, rows: rows, block: block,
                                   mean: mean, lumaScratch: lumaScratch)
                    }
                }
                for y in rows {
                    lookUpLuma(source.luma.row(y), destination.luma.row(y), count: width, through: kernels.count)
                }
            }
        }
    }

    /// Program `step`'s chroma for chroma row `cy`: from the source's chroma for the first step
    /// that runs, from the destination's (the previous step's output) after it.
    private func chromaStep(_ step: Int, source: YUVImage, destination: YUVImage, cy: Int, rows: Range<Int>,
                            block: ChromaGeometry, mean: UnsafeMutablePointer<UInt8>, lumaScratch: PlaneView) {
        let kernel = kernels[step]
        if kernel.chromaReadsMeanLuma {
            // The block means of the luma this program receives: L_step(Y), the source's luma
            // through the programs before it (the source itself for the first).
            var luma = source.luma, lumaRows = rows
            if step > 0 {
                for (index, y) in rows.enumerated() {
                    lookUpLuma(source.luma.row(y), lumaScratch.row(index), count: source.luma.width, through: step)
                }
                (luma, lumaRows) = (lumaScratch, 0..<rows.count)
            }
            ColorKernel.meanLumaRow(luma, rows: lumaRows, chroma: block, into: mean, count: source.cb.width,
                                    instructions: instructions)
        }
        kernel.chromaBlockRow(source: step == firstChromaStep ? source : destination, destination: destination,
                              cy: cy, mean: mean)
    }

    /// Chroma row `cy` through the composed chroma steps, source to destination.
    private func composedChromaRow(_ chroma: ComposedChroma, source: YUVImage, destination: YUVImage, cy: Int) {
        ColorKernel.pairTableRow(instructions, cb: source.cb.row(cy), cr: source.cr.row(cy), toCb: destination.cb.row(cy),
                                 toCr: destination.cr.row(cy), count: source.cb.width, pairs: chroma.pairs)
    }

    /// One luma row through the first `programs` programs' composed table.
    private func lookUpLuma(_ source: UnsafeMutablePointer<UInt8>, _ destination: UnsafeMutablePointer<UInt8>,
                            count: Int, through programs: Int) {
        let table = luma.table(programs)
        switch instructions {
        case .avx512: vr_lookup_row_avx512(source, destination, count, table)
        case .avx2: vr_lookup_row_avx2(source, destination, count, luma.pairs(programs), table)
        case .portable: ColorKernel.lookupRow(from: source, to: destination, count: count, pairs: luma.pairs(programs),
                                              table: table)
        }
    }
}

/// A fused run's composed luma tables in one allocation, written in `init` and only read
/// afterwards, which is why the threads of a frame may share them (`@unchecked Sendable`: raw
/// pointers).
final class ComposedLuma: @unchecked Sendable {
    private let bytes: UnsafeMutableRawPointer
    private let count: Int
    /// Entries of each pair table: 65,536, or 0 when they are not built (AVX-512).
    private let pairCount: Int

    /// L_1 … L_n (256 bytes each); with `pairs` (the portable and AVX2 kernels), then L_1 … L_n
    /// for two samples at a time (65,536 × UInt16 each); then the padding the AVX2 gathers read
    /// past the last table.
    init(_ programs: [ColorProgram], pairs: Bool) {
        count = programs.count
        pairCount = pairs ? 65_536 : 0
        bytes = .allocate(byteCount: count * (256 + 2 * pairCount) + RowInstructions.gatherPadding, alignment: 64)
        var composed = (0...255).map(UInt8.init)
        for (step, program) in programs.enumerated() {
            // Chroma does not reach Y' (lumaIgnoresChroma): any cb, cr will do.
            composed = composed.map { program.luma($0, cb: 128, cr: 128) }
            table(step + 1).update(from: composed, count: 256)
            let pairs = self.pairs(step + 1)
            for pair in 0..<pairCount {
                pairs[pair] = UInt16(composed[pair & 0xFF]) | UInt16(composed[pair >> 8]) << 8
            }
        }
    }

    /// The luma of the first `programs` programs as one table (1 ≤ programs ≤ count).
    func table(_ programs: Int) -> UnsafeMutablePointer<UInt8> {
        (bytes + 256 * (programs - 1)).bindMemory(to: UInt8.self, capacity: 256)
    }

    /// `table(programs)` for two samples at a time: entry `a | b << 8` is `L(a) | L(b) << 8`.
    func pairs(_ programs: Int) -> UnsafeMutablePointer<UInt16> {
        (bytes + 256 * count + 2 * pairCount * (programs - 1)).bindMemory(to: UInt16.self, capacity: pairCount)
    }

    deinit { bytes.deallocate() }
}

/// Chroma steps that read no luma, composed: entry `cb | cr << 8` is the (Cb', Cr') the programs
/// give in sequence, Cb' in the low byte (128 KiB, padded for the gathers that read 32 bits).
/// Written in `init` and only read afterwards, so a frame's threads share it (`@unchecked
/// Sendable`: a raw pointer).
final class ComposedChroma: @unchecked Sendable {
    let pairs: UnsafeMutablePointer<UInt16>

    init(_ programs: [ColorProgram]) {
        let raw = UnsafeMutableRawPointer.allocate(byteCount: 2 * 65_536 + RowInstructions.gatherPadding, alignment: 64)
        pairs = raw.bindMemory(to: UInt16.self, capacity: 65_536)
        KernelTables.fillChromaPairs(pairs, through: programs)
    }

    deinit { pairs.deallocate() }
}
