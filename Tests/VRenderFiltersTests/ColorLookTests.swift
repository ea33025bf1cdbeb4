import Testing
import VRenderCore
@testable import VRenderFilters

/// What each look's documentation promises about its program.
@Suite struct ColorLookTests {
    static let looks: [(name: String, full: ColorProgram)] = [
        ("mono", MonoFilter.fullStrength), ("noir", NoirFilter.fullStrength), ("chrome", ChromeFilter.fullStrength),
        ("fade", FadeFilter.fullStrength), ("instant", InstantFilter.fullStrength),
        ("process", ProcessFilter.fullStrength), ("tonal", TonalFilter.fullStrength),
        ("transfer", TransferFilter.fullStrength), ("sepia", SepiaFilter.fullStrength),
    ]
    static let monochrome: Set = ["mono", "noir", "tonal"]

    static func isNonDecreasing(_ curve: [UInt8]) -> Bool {
        zip(curve, curve.dropFirst()).allSatisfy { $0 <= $1 }
    }

    @Test func registryListsEveryFilterInOrder() {
        #expect(FilterRegistry.names == ["none", "mono", "noir", "chrome", "fade", "instant", "process", "tonal",
                                         "transfer", "sepia"])
        for filter in FilterRegistry.all {
            #expect(filter is any ColorProgramFilter)
            #expect(filter.descriptor.pixelFormats == ["yuv420p", "yuv422p", "yuv444p"])
            #expect(!filter.descriptor.summary.isEmpty && !filter.descriptor.summary.contains("\n"))
            #expect(filter.descriptor.options == (filter.descriptor.name == "none" ? [] : [FilterOption.strength]))
        }
        #expect(FilterOption.strength.range == 0...100 && FilterOption.strength.defaultValue == 100)
    }

    @Test func defaultFiltersRunTheirFullLook() throws {
        for (name, full) in Self.looks {
            let filter = try #require(FilterRegistry.filter(named: name) as? any ColorProgramFilter)
            #expect(filter.program == full, "\(name)")
            #expect(filter.optionValues == ["strength": 100])
        }
        #expect(IdentityFilter().program == .identity)
    }

    /// Every look's curves are non-decreasing, as each one's documentation says, and luma
    /// stays in the legal range 16...235, chroma in 16...240.
    @Test func curvesAreMonotonicAndLegal() {
        for (name, program) in Self.looks {
            #expect(Self.isNonDecreasing(program.lumaCurve), "\(name) luma")
            #expect(Self.isNonDecreasing(program.cbCurve) && Self.isNonDecreasing(program.crCurve), "\(name) chroma")
            #expect(program.lumaCurve.allSatisfy { (16...235).contains($0) }, "\(name) luma range")
            if !Self.monochrome.contains(name) {
                #expect((program.cbCurve + program.crCurve).allSatisfy { (16...240).contains($0) }, "\(name) chroma range")
            }
        }
    }

    /// mono's program is the curve the seed's filter always had, entry for entry.
    @Test func monoProgramIsTheDocumentedCurve() {
        #expect(MonoFilter.fullStrength.lumaCurve == (0...255).map { MonoFilter.curve(UInt8($0)) })
        #expect(MonoFilter.fullStrength.matrix == [4096, 0, 0, 0, 0, 0, 0, 0, 0])
        #expect(MonoFilter().program == MonoFilter.fullStrength)
    }

    @Test(arguments: ["mono", "noir", "tonal", "sepia"])
    func monochromeLooksHaveConstantChroma(name: String) throws {
        let filter = try #require(FilterRegistry.filter(named: name))
        let frame = FilterTestFrame(width: 64, height: 36, layout: .yuv420p, seed: 4)
        frame.withImage { image in FilterChain([filter]).run(source: image, destination: image, threads: 2) }
        let (cb, cr): (UInt8, UInt8) = name == "sepia" ? (112, 140) : (128, 128)
        #expect(frame.chromaSamples(plane: 1).allSatisfy { $0 == cb })
        #expect(frame.chromaSamples(plane: 2).allSatisfy { $0 == cr })
    }

    @Test func documentedEndPointsAndTints() {
        func luma(_ program: ColorProgram, _ code: UInt8) -> UInt8 { program.luma(code, cb: 128, cr: 128) }
        #expect(luma(NoirFilter.fullStrength, 16) == 16 && luma(NoirFilter.fullStrength, 235) == 235)
        #expect(luma(NoirFilter.fullStrength, 40) < 40 && luma(NoirFilter.fullStrength, 200) > 200)   // contrast up
        #expect(luma(TonalFilter.fullStrength, 16) == 16 && luma(TonalFilter.fullStrength, 235) == 235)
        #expect(luma(TonalFilter.fullStrength, 40) > 40 && luma(TonalFilter.fullStrength, 200) < 200)  // flatter
        #expect(luma(FadeFilter.fullStrength, 16) == 44 && luma(FadeFilter.fullStrength, 235) == 223)
        #expect(luma(SepiaFilter.fullStrength, 16) == 24 && luma(SepiaFilter.fullStrength, 235) == 229)
        #expect(luma(InstantFilter.fullStrength, 16) == 28 && luma(InstantFilter.fullStrength, 235) == 229)
        #expect(luma(TransferFilter.fullStrength, 16) == 22 && luma(TransferFilter.fullStrength, 235) == 235)
        // process: blue-cyan shadows, yellow-orange highlights, neutral mid-grey.
        let process = ProcessFilter.fullStrength
        #expect(process.chroma(meanLuma: 16, cb: 128, cr: 128) == (137, 124))
        #expect(process.chroma(meanLuma: 235, cb: 128, cr: 128) == (119, 133))
        #expect(process.chroma(meanLuma: 126, cb: 128, cr: 128) == (128, 128))
        // Saturation: chrome raises it, fade lowers it.
        #expect(ChromeFilter.fullStrength.chroma(meanLuma: 126, cb: 168, cr: 88) == (178, 78))
        #expect(FadeFilter.fullStrength.chroma(meanLuma: 126, cb: 168, cr: 88) == (152, 104))
        // Warm looks move neutral grey toward yellow (Cb down) and red (Cr up).
        for program in [InstantFilter.fullStrength, TransferFilter.fullStrength] {
            let grey = program.chroma(meanLuma: 126, cb: 128, cr: 128)
            #expect(grey.cb < 128 && grey.cr > 128)
        }
    }
}

/// `strength`: the blend toward the identity, entry by entry.
@Suite struct StrengthTests {
    @Test func zeroIsIdentityAndHundredIsTheLook() {
        for (name, full) in ColorLookTests.looks {
            #expect(full.atStrength(0) == .identity, "\(name)")
            #expect(full.atStrength(100) == full, "\(name)")
        }
    }

    @Test func blendIsTheDocumentedIntegerFormula() {
        let full = SepiaFilter.fullStrength
        let blended = full.atStrength(60)
        // id + ⌊((full − id)·60 + 50) / 100⌋: diagonal 4096 + ⌊(−4096·60 + 50)/100⌋ = 4096 − 2458.
        #expect(blended.matrix == [4096, 0, 0, 0, 1638, 0, 0, 0, 1638])
        #expect(blended.cbCurve[128] == 128 - 10)          // −16·0.6 = −9.6 → ⌊−9.1⌋ = −10
        #expect(blended.crCurve[128] == 128 + 7)           // 12·0.6 = 7.2 → ⌊7.7⌋ = 7
        #expect(blended.lumaCurve[16] == 16 + 5)           // 8·0.6 = 4.8 → ⌊5.3⌋ = 5
        // Negative and positive differences round the same way (half up), even for −x.5.
        let half = ColorProgram(matrix: [4096, 0, 0, 0, 4096 - 1, 0, 0, 0, 4096 + 1]).atStrength(50)
        #expect(half.matrix[4] == 4096 && half.matrix[8] == 4097)
    }

    @Test func partialStrengthKeepsCurvesMonotonic() {
        for strength in [1, 33, 50, 99] {
            for (name, full) in ColorLookTests.looks {
                let program = full.atStrength(strength)
                #expect(ColorLookTests.isNonDecreasing(program.lumaCurve), "\(name) at \(strength)")
            }
        }
    }

    @Test func strengthZeroLeavesThePictureAndTheChainIsIdentity() throws {
        for name in ColorFilterReferenceTests.colourFilters {
            let chain = try FilterRegistry.chain("\(name)=strength=0")
            #expect(chain.isIdentity, "\(name)")
            let source = FilterTestFrame(width: 65, height: 33, layout: .yuv420p, seed: 8)
            let output = FilterTestFrame(width: 65, height: 33, layout: .yuv420p, seed: 9)
            source.withImage { src in output.withImage { chain.run(source: src, destination: $0, threads: 2) } }
            #expect(output.firstDifference(from: source) == nil, "\(name)")
        }
        #expect(try !FilterRegistry.chain("mono=strength=1").isIdentity)
    }

    @Test func configuredKeepsUnnamedOptions() throws {
        let filter = NoirFilter(strength: 30)
        #expect(filter.configured(with: [:]).optionValues == ["strength": 30])
        #expect(filter.configured(with: ["strength": 70]).optionValues == ["strength": 70])
        let program = try #require(filter.configured(with: ["strength": 70]) as? NoirFilter).program
        #expect(program == NoirFilter.fullStrength.atStrength(70))
    }
}
