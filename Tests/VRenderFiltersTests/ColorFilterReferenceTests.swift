import Testing
import VRenderCore
@testable import VRenderFilters

/// Every colour filter, alone and in chains, gives exactly `ColorProgram.referenceApply`'s
/// bytes: every layout, even and odd sizes, 1 and 5 threads, in place and out of place.
@Suite struct ColorFilterReferenceTests {
    static let sizes = [(642, 362), (641, 361), (2, 2), (1, 1), (17, 3)]

    static let colourFilters: [String] = FilterRegistry.names.filter { $0 != "none" }

    @Test(arguments: FilterRegistry.names, ChromaLayout.supported)
    func filterAloneMatchesReference(name: String, layout: ChromaLayout) throws {
        let chain = try FilterRegistry.chain(name)
        for (width, height) in Self.sizes {
            let source = FilterTestFrame(width: width, height: height, layout: layout, seed: UInt64(width))
            let expected = FilterTestReference.apply(chain.filters, to: source)
            let mismatch = FilterTestReference.mismatch(running: chain, on: source, expected: expected)
            #expect(mismatch == nil, "\(name) \(layout) \(width)x\(height): \(mismatch ?? "")")
        }
    }

    /// 1080p once per filter and layout: the size exports run at.
    @Test(arguments: FilterRegistry.names, ChromaLayout.supported)
    func filterAloneMatchesReferenceAt1080p(name: String, layout: ChromaLayout) throws {
        let chain = try FilterRegistry.chain(name)
        let source = FilterTestFrame(width: 1920, height: 1080, layout: layout, seed: 3)
        let expected = FilterTestReference.apply(chain.filters, to: source)
        let mismatch = FilterTestReference.mismatch(running: chain, on: source, expected: expected, runs: FilterTestReference.Run.large)
        #expect(mismatch == nil, "\(name) \(layout): \(mismatch ?? "")")
    }

    static let chains = [
        "fade,mono", "sepia,chrome,noir", "process,instant,transfer,tonal", "mono=strength=40,process=strength=70",
        "none,chrome=strength=1,none,fade", "noir,noir", "tonal=strength=0,sepia=strength=55",
    ]

    @Test(arguments: chains, ChromaLayout.supported)
    func chainMatchesReferenceInSequence(specification: String, layout: ChromaLayout) throws {
        let chain = try FilterRegistry.chain(specification)
        for (width, height) in Self.sizes {
            let source = FilterTestFrame(width: width, height: height, layout: layout, seed: 11)
            let expected = FilterTestReference.apply(chain.filters, to: source)
            let mismatch = FilterTestReference.mismatch(running: chain, on: source, expected: expected)
            #expect(mismatch == nil, "\(specification) \(layout) \(width)x\(height): \(mismatch ?? "")")
        }
    }

    @Test(arguments: ["fade,mono", "sepia,chrome,noir"], ChromaLayout.supported)
    func chainMatchesReferenceAt1080p(specification: String, layout: ChromaLayout) throws {
        let chain = try FilterRegistry.chain(specification)
        let source = FilterTestFrame(width: 1920, height: 1080, layout: layout, seed: 12)
        let expected = FilterTestReference.apply(chain.filters, to: source)
        let mismatch = FilterTestReference.mismatch(running: chain, on: source, expected: expected, runs: FilterTestReference.Run.large)
        #expect(mismatch == nil, "\(specification) \(layout): \(mismatch ?? "")")
    }

    /// The fallback for block shapes the SIMD rows do not handle is exact too.
    @Test func unusualBlockShapeMatchesReference() throws {
        let chain = try FilterRegistry.chain("process,sepia=strength=30")
        for (width, height) in [(643, 37), (4, 2), (1, 1)] {
            let source = FilterTestFrame(width: width, height: height, layout: .yuv411p)
            let expected = FilterTestReference.apply(chain.filters, to: source)
            let mismatch = FilterTestReference.mismatch(running: chain, on: source, expected: expected)
            #expect(mismatch == nil, "\(width)x\(height): \(mismatch ?? "")")
        }
    }

    /// A filter's `apply` called directly on the whole frame (not through a chain) is exact.
    @Test(arguments: colourFilters)
    func applyOverAllRowsMatchesReference(name: String) throws {
        let filter = try #require(FilterRegistry.filter(named: name))
        let source = FilterTestFrame(width: 98, height: 66, layout: .yuv420p, seed: 5)
        let expected = FilterTestReference.apply([filter], to: source)
        let output = source.copy()
        output.withImage { filter.apply(source: $0, destination: $0, lumaRows: 0..<66) }
        #expect(output.firstDifference(from: expected) == nil)
    }
}

/// Arbitrary programs (not only the looks) through the kernel: luma that reads chroma, chroma
/// that reads the block's mean luma, coefficients at the definition's ±2^20 limit, random
/// curves. These take the kernel's general SIMD paths that no look uses today.
@Suite struct ColorKernelProgramTests {
    /// A test filter around any program, so arbitrary programs run through `FilterChain`.
    struct ProgramFilter: ColorProgramFilter {
        let program: ColorProgram
        let kernel: ColorKernel
        let descriptor = FilterDescriptor(name: "test-program", summary: "a program under test")

        init(_ program: ColorProgram, instructions: RowInstructions = .detected) {
            self.program = program
            kernel = ColorKernel(program, instructions: instructions)
        }

        func apply(source: YUVImage, destination: YUVImage, lumaRows: Range<Int>) {
            kernel.apply(source: source, destination: destination, lumaRows: lumaRows)
        }
    }

    static func randomProgram(seed: UInt64, range: ClosedRange<Int32>, zeroing: [Int] = []) -> ColorProgram {
        var generator = SplitMix64(seed: seed)
        var matrix = (0..<9).map { _ in Int32.random(in: range, using: &generator) }
        for index in zeroing { matrix[index] = 0 }
        func curve() -> [UInt8] { (0..<256).map { _ in UInt8.random(in: 0...255, using: &generator) } }
        return ColorProgram(matrix: matrix, lumaCurve: curve(), cbCurve: curve(), crCurve: curve())
    }

    /// A random program whose chroma curves are shifts with a clamp (`ShiftCurve`): the AVX2
    /// kernels compute its chroma without a lookup.
    static func shiftCurvesProgram(seed: UInt64, range: ClosedRange<Int32>, zeroing: [Int] = [],
                                   cb: (Int, Int, Int), cr: (Int, Int, Int)) -> ColorProgram {
        let random = randomProgram(seed: seed, range: range, zeroing: zeroing)
        func curve(_ shape: (shift: Int, low: Int, high: Int)) -> [UInt8] {
            (0...255).map { UInt8(Swift.min(Swift.max($0 + shape.shift, shape.low), shape.high)) }
        }
        return ColorProgram(matrix: random.matrix, lumaCurve: random.lumaCurve, cbCurve: curve(cb), crCurve: curve(cr))
    }

    /// Each case names which kernel steps the program takes.
    static let programs: [(String, ColorProgram)] = [
        ("general luma + general chroma", randomProgram(seed: 1, range: -6000...6000)),
        ("extreme coefficients", randomProgram(seed: 2, range: -(1 << 20)...(1 << 20))),
        ("table luma + general chroma", randomProgram(seed: 3, range: -9000...9000, zeroing: [1, 2])),
        ("general luma + chroma pair table", randomProgram(seed: 4, range: -9000...9000, zeroing: [3, 6])),
        ("table luma + constant chroma", randomProgram(seed: 5, range: -9000...9000, zeroing: [1, 2, 3, 4, 5, 6, 7, 8])),
        ("mean luma only", randomProgram(seed: 6, range: -9000...9000, zeroing: [1, 2, 4, 5, 7, 8])),
        // Cb' reads (Cb, Cr), Cr' reads (mean, Cr): both tables read Cr, which in place is
        // also an output.
        ("channel tables", randomProgram(seed: 7, range: -9000...9000, zeroing: [1, 2, 3, 7])),
        ("shift curves", shiftCurvesProgram(seed: 8, range: -9000...9000, cb: (9, 16, 240), cr: (-4, 16, 240))),
        // The largest coefficients the AVX2 kernel's 16-bit lanes take, and shifts that clamp
        // whole ranges (one curve constant but for its ends, one that is 255 almost throughout).
        ("shift curves at the limits", shiftCurvesProgram(seed: 9, range: -32_767...32_767, zeroing: [1, 2],
                                                          cb: (-250, 3, 200), cr: (255, 0, 255))),
        ("shift curves without the mean", shiftCurvesProgram(seed: 10, range: -9000...9000, zeroing: [3, 6],
                                                             cb: (0, 0, 255), cr: (40, 100, 100))),
    ]

    /// Every program, on every row kernel this machine has (portable, and AVX2 and AVX-512 where
    /// the CPU has them), at sizes that leave every tail length of the 8-, 16-, 32- and 64-sample steps.
    @Test(arguments: 0..<programs.count, RowInstructions.available)
    func programMatchesReference(index: Int, instructions: RowInstructions) {
        let (name, program) = Self.programs[index]
        let chain = FilterChain([ProgramFilter(program, instructions: instructions)])
        for layout in ChromaLayout.allCases {
            for (width, height) in [(642, 362), (641, 361), (2, 2), (1, 1), (33, 5), (191, 7), (257, 4)] {
                let source = FilterTestFrame(width: width, height: height, layout: layout, seed: UInt64(index + width))
                let expected = FilterTestReference.apply(chain.filters, to: source)
                let mismatch = FilterTestReference.mismatch(running: chain, on: source, expected: expected)
                #expect(mismatch == nil, "\(name) \(instructions) \(layout) \(width)x\(height): \(mismatch ?? "")")
            }
        }
    }

    /// Every registered look's program on every row kernel this machine has, in place and out
    /// of place: the registry's looks are built for the detected variant; this runs them on the
    /// others too (what `VRENDER_CPU=portable|avx2` and narrower CPUs run).
    @Test(arguments: FilterRegistry.all.compactMap { ($0 as? any ColorProgramFilter)?.program })
    func looksMatchReferenceOnEveryKernel(program: ColorProgram) {
        for instructions in RowInstructions.available {
            let chain = FilterChain([ProgramFilter(program, instructions: instructions)])
            for layout in ChromaLayout.allCases {
                let source = FilterTestFrame(width: 322, height: 182, layout: layout, seed: 9)
                let expected = FilterTestReference.apply(chain.filters, to: source)
                let mismatch = FilterTestReference.mismatch(running: chain, on: source, expected: expected)
                #expect(mismatch == nil, "\(instructions) \(layout): \(mismatch ?? "")")
            }
        }
    }

    /// Chains of random programs whose luma reads only luma (what `FusedColorRun` runs in one
    /// pass: composed luma tables, chroma reading the block means of the luma the
    /// programs before made), on every kernel this machine has, against the reference run in
    /// sequence; one chain has a constant-chroma program in the middle, one composes its chroma.
    @Test(arguments: RowInstructions.available)
    func chainsOfProgramsMatchReference(instructions: RowInstructions) {
        let lumaOnly = [1, 2]
        let chains: [[ColorProgram]] = [
            [Self.randomProgram(seed: 11, range: -9000...9000, zeroing: lumaOnly),
             Self.randomProgram(seed: 12, range: -9000...9000, zeroing: lumaOnly)],
            [Self.randomProgram(seed: 13, range: -9000...9000, zeroing: lumaOnly + [4, 5, 7, 8]),
             Self.randomProgram(seed: 14, range: -9000...9000, zeroing: lumaOnly + [3, 4, 5, 6, 7, 8]),
             Self.randomProgram(seed: 15, range: -(1 << 20)...(1 << 20), zeroing: lumaOnly)],
            // No chroma step reads luma: the steps compose into one pair table.
            (16...18).map { Self.randomProgram(seed: UInt64($0), range: -9000...9000, zeroing: lumaOnly + [3, 6]) },
        ]
        #expect(FusedColorRun(chains[2], instructions: instructions)?.chroma != nil)
        #expect(FusedColorRun(chains[0], instructions: instructions)?.chroma == nil)
        for (index, programs) in chains.enumerated() {
            let chain = FilterChain(programs.map { ProgramFilter($0, instructions: instructions) }, instructions: instructions)
            for layout in ChromaLayout.allCases {
                for (width, height) in [(642, 362), (641, 361), (1, 1), (191, 7)] {
                    let source = FilterTestFrame(width: width, height: height, layout: layout, seed: UInt64(index + width))
                    let expected = FilterTestReference.apply(chain.filters, to: source)
                    let mismatch = FilterTestReference.mismatch(running: chain, on: source, expected: expected)
                    #expect(mismatch == nil, "chain \(index) \(instructions) \(layout) \(width)x\(height): \(mismatch ?? "")")
                }
            }
        }
    }

    @Test func looksFuseIntoOnePass() {
        let programs = [ChromeFilter.fullStrength, FadeFilter.fullStrength]
        #expect(FusedColorRun(programs, instructions: .avx512)?.firstChromaStep == 0)
        #expect(FusedColorRun(programs, instructions: .avx2)?.firstChromaStep == 0)
        #expect(FusedColorRun(programs, instructions: .portable)?.firstChromaStep == 0)
        #expect(FusedColorRun([ChromeFilter.fullStrength], instructions: .avx512) == nil)
        #expect(FusedColorRun([ChromeFilter.fullStrength, MonoFilter.fullStrength, FadeFilter.fullStrength],
                              instructions: .avx512)?.firstChromaStep == 1)
        #expect(FusedColorRun([Self.programs[0].1, FadeFilter.fullStrength], instructions: .avx512) == nil)  // luma reads chroma
    }

    @Test func wideKernelsAreFoundWhereTheCPUHasThem() {
        let cpuInfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let flags = cpuInfo.split(separator: "\n").first { $0.hasPrefix("flags") }?.split(separator: " ").map(String.init) ?? []
        let hasAVX512 = ["avx512f", "avx512bw", "avx512vl", "avx512vbmi"].allSatisfy(flags.contains)
        #expect(RowInstructions.available.contains(.avx512) == hasAVX512)
        #expect(RowInstructions.available.contains(.avx2) == flags.contains("avx2"))
        #expect(RowInstructions.available.first == .portable)
    }

    /// `VRENDER_CPU`: a runnable variant is followed, anything else refused naming what runs.
    @Test func theVariantAskedForIsCheckedAgainstTheCPU() {
        for kind in RowInstructions.available { #expect(RowInstructions.refusal(of: kind.rawValue) == nil) }
        #expect(RowInstructions.refusal(of: nil) == nil && RowInstructions.refusal(of: "") == nil)
        let unknown = RowInstructions.refusal(of: "sse4")?.description ?? ""
        #expect(unknown.contains("VRENDER_CPU=sse4") && unknown.contains("not one of portable, avx2, avx512"), "\(unknown)")
        #expect(unknown.contains("this CPU runs portable"), "\(unknown)")
        for kind in RowInstructions.allCases where !RowInstructions.available.contains(kind) {
            let refusal = RowInstructions.refusal(of: kind.rawValue)?.description ?? ""
            #expect(refusal.contains("this CPU has no \(kind.features)"), "\(refusal)")
        }
    }

    /// Naming a variant only builds its tables: these hold on any CPU.
    @Test func stepsChosenFromTheMatrix() {
        #expect(ColorKernel(MonoFilter.fullStrength).luma == .table)
        #expect(ColorKernel(MonoFilter.fullStrength).chroma == .constant(cb: 128, cr: 128))
        #expect(ColorKernel(SepiaFilter.fullStrength).chroma == .constant(cb: 112, cr: 140))
        // Every look's chroma curves are shifts with a clamp: AVX2 and the portable kernels
        // compute them, no table.
        for look in [ChromeFilter.fullStrength, ProcessFilter.fullStrength, InstantFilter.fullStrength,
                     FadeFilter.fullStrength, TransferFilter.fullStrength] {
            for instructions in [RowInstructions.avx2, .portable] {
                #expect(ColorKernel(look, instructions: instructions).chroma == .shiftCurves)
            }
        }
        for instructions in [RowInstructions.avx2, .portable] {
            let shifted = ColorKernel(Self.programs[7].1, instructions: instructions)
            #expect(shifted.chroma == .shiftCurves)
            #expect(withExtendedLifetime(shifted) { (0..<6).map { shifted.tables.chromaLimits[$0] } } == [137, 16, 240, 124, 16, 240])
        }
        // AVX-512 keeps the tables' steps (it looks curves up from registers, whatever they are).
        #expect(ColorKernel(ChromeFilter.fullStrength, instructions: .avx512).chroma == .pairTable)
        #expect(ColorKernel(ProcessFilter.fullStrength, instructions: .avx512).chroma
                == .channelTables(cb: .init(low: .meanLuma, high: .cb), cr: .init(low: .meanLuma, high: .cr)))
        for instructions in RowInstructions.allCases {
            #expect(ColorKernel(Self.programs[0].1, instructions: instructions).luma == .general)
            #expect(ColorKernel(Self.programs[0].1, instructions: instructions).chroma == .general)
            #expect(ColorKernel(Self.programs[3].1, instructions: instructions).chroma == .pairTable)
            #expect(ColorKernel(Self.programs[5].1, instructions: instructions).chroma
                    == .channelTables(cb: .init(low: .meanLuma, high: .cb), cr: .init(low: .meanLuma, high: .cb)))
            #expect(ColorKernel(Self.programs[6].1, instructions: instructions).chroma
                    == .channelTables(cb: .init(low: .cb, high: .cr), cr: .init(low: .meanLuma, high: .cr)))
        }
    }

    /// A curve is a shift with a clamp exactly when it equals one, and the kernels' single clamp
    /// (`limits`) gives what looking the clamped index up gives, for every index the matrix can make.
    @Test func shiftCurvesAreRecognisedAndFoldIntoOneClamp() throws {
        let sepia = try #require(ShiftCurve(CurveMath.chromaCurve(shift: -16)))
        #expect((sepia.shift, sepia.low, sepia.high) == (-16, 16, 239))   // 255 − 16: the clamp at 240 is never reached
        #expect(ShiftCurve((0...255).map { UInt8($0) }) == ShiftCurve((0...255).map { UInt8($0) }))
        #expect(ShiftCurve([UInt8](repeating: 77, count: 256))?.limits == [128, 77, 77])
        var kinked = CurveMath.chromaCurve(shift: 3)
        kinked[100] += 1
        #expect(ShiftCurve(kinked) == nil)
        #expect(ShiftCurve((0...255).map { UInt8(255 - $0) }) == nil)   // decreasing
        for (shift, low, high) in [(9, 16, 240), (-250, 3, 200), (255, 0, 255), (40, 100, 100), (-300, 0, 255)] {
            let curve = (0...255).map { UInt8(Swift.min(Swift.max($0 + shift, low), high)) }
            let limits = try #require(ShiftCurve(curve)?.limits)
            let differing = (Int32(-5000)...5000).first { t in
                Int32(curve[ColorProgram.index(t, offset: 128)]) != Swift.min(Swift.max(t + limits[0], limits[1]), limits[2])
            }
            #expect(differing == nil, "shift \(shift) low \(low) high \(high)")
        }
    }
}
