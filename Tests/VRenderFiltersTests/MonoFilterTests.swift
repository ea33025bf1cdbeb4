import Testing
import VRenderCore
@testable import VRenderFilters

/// The mono tests' picture: the filter suite's test frame, described by its subsampling.
typealias TestPicture = FilterTestFrame

extension FilterTestFrame {
    convenience init(width: Int, height: Int, subsampleX: Bool = true, subsampleY: Bool = true, seed: UInt64 = 1) {
        precondition(subsampleX || !subsampleY, "no layout subsamples only vertically")
        let layout: ChromaLayout = subsampleY ? .yuv420p : (subsampleX ? .yuv422p : .yuv444p)
        self.init(width: width, height: height, layout: layout, seed: seed)
    }

    func sample(plane: Int, x: Int, y: Int) -> UInt8 {
        switch plane {
        case 0: return luma[y * strides[0] + x]
        case 1: return cb[y * strides[1] + x]
        default: return cr[y * strides[2] + x]
        }
    }
}

@Suite struct MonoFilterTests {
    /// The documented formula, written independently of the kernel with plain Ints.
    static func reference(_ luma: UInt8) -> UInt8 {
        let x = min(max(Int(luma), 16), 235) - 16
        return UInt8(24 + (x * 247) / 256 + (x * (219 - x)) / 1024)
    }

    @Test func curveMatchesDocumentedMath() {
        for code in 0...255 {
            #expect(MonoFilter.curve(UInt8(code)) == Self.reference(UInt8(code)), "code \(code)")
        }
        #expect(MonoFilter.curve(16) == 24)    // black lifted
        #expect(MonoFilter.curve(235) == 235)  // white kept
        #expect(MonoFilter.curve(0) == 24 && MonoFilter.curve(255) == 235)  // clamped to legal range
    }

    @Test func curveIsMonotonicAndSoftensContrast() {
        let outputs = (16...235).map { MonoFilter.curve(UInt8($0)) }
        #expect(zip(outputs, outputs.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(Int(outputs.last!) - Int(outputs.first!) < 219)
        #expect(MonoFilter.curve(126) > 126)   // mid-tones lifted
    }

    @Test(arguments: [(1920, 1080, true, true), (641, 361, true, true), (642, 362, true, false),
                      (15, 7, true, true), (33, 2, false, false)])
    func simdKernelMatchesScalarReference(width: Int, height: Int, subsampleX: Bool, subsampleY: Bool) {
        let source = TestPicture(width: width, height: height, subsampleX: subsampleX, subsampleY: subsampleY)
        let output = TestPicture(width: width, height: height, subsampleX: subsampleX, subsampleY: subsampleY, seed: 7)
        source.withImage { src in
            output.withImage { dst in
                FilterChain([MonoFilter()]).run(source: src, destination: dst, threads: 4)
            }
        }
        var lumaMismatches = 0
        for y in 0..<height {
            for x in 0..<width where output.sample(plane: 0, x: x, y: y) != Self.reference(source.sample(plane: 0, x: x, y: y)) {
                lumaMismatches += 1
            }
        }
        #expect(lumaMismatches == 0)
        var chromaNotNeutral = 0
        for plane in 1...2 {
            for y in 0..<output.chromaHeight {
                for x in 0..<output.chromaWidth where output.sample(plane: plane, x: x, y: y) != 128 {
                    chromaNotNeutral += 1
                }
            }
        }
        #expect(chromaNotNeutral == 0)
    }

    @Test func oneThreadAndManyThreadsGiveSameBytes() {
        let source = TestPicture(width: 1280, height: 722)
        let single = TestPicture(width: 1280, height: 722, seed: 3)
        let many = TestPicture(width: 1280, height: 722, seed: 5)
        source.withImage { src in
            single.withImage { FilterChain([MonoFilter()]).run(source: src, destination: $0, threads: 1) }
            many.withImage { FilterChain([MonoFilter()]).run(source: src, destination: $0, threads: 7) }
        }
        #expect(Self.visibleEqual(single, many))
    }

    @Test func inPlaceEqualsOutOfPlace() {
        let source = TestPicture(width: 100, height: 64)
        let copy = TestPicture(width: 100, height: 64)   // same seed: same content
        let out = TestPicture(width: 100, height: 64, seed: 9)
        source.withImage { src in out.withImage { FilterChain([MonoFilter()]).run(source: src, destination: $0, threads: 2) } }
        copy.withImage { FilterChain([MonoFilter()]).run(source: $0, destination: $0, threads: 2) }
        #expect(Self.visibleEqual(copy, out))
    }

    static func visibleEqual(_ a: TestPicture, _ b: TestPicture) -> Bool {
        for y in 0..<a.height { for x in 0..<a.width where a.sample(plane: 0, x: x, y: y) != b.sample(plane: 0, x: x, y: y) { return false } }
        for plane in 1...2 {
            for y in 0..<a.chromaHeight { for x in 0..<a.chromaWidth where a.sample(plane: plane, x: x, y: y) != b.sample(plane: plane, x: x, y: y) { return false } }
        }
        return true
    }
}

@Suite struct FilterRegistryTests {
    @Test func parsesChainsAndRejectsUnknownNames() throws {
        #expect(try FilterRegistry.chain("mono").names == ["mono"])
        #expect(try FilterRegistry.chain("none, mono").names == ["none", "mono"])
        #expect(try FilterRegistry.chain("none").isIdentity)
        #expect(throws: VRenderError.option("--filter", "unknown filter 'sepiaa' (known filters: none, mono, noir, chrome, fade, instant, process, tonal, transfer, sepia); did you mean 'sepia'?")) {
            try FilterRegistry.chain("sepiaa")
        }
        #expect(throws: VRenderError.option("--filter", "unknown filter 'xyzzy' (known filters: none, mono, noir, chrome, fade, instant, process, tonal, transfer, sepia)")) {
            try FilterRegistry.chain("mono,xyzzy")
        }
    }
}
