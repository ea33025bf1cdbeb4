import Testing
import VRenderCore
import VRenderFilters
@testable import VRenderVulkan

/// True when the Vulkan loader finds at least one device (lavapipe counts). The GPU tests need
/// one; on a machine without any Vulkan driver they are skipped, and only then: CI and the
/// development machines install mesa-vulkan-drivers (scripts/install-deps.sh), so there they run.
let vulkanDeviceAvailable = !VulkanDevices.list().isEmpty

/// The geometries the GPU must handle exactly like the CPU: even and odd 4:2:0 (cut-off edge
/// blocks), 4:2:2, 4:4:4, 4:1:0 (4x4 blocks), the smallest picture and full HD.
let testGeometries: [TestGeometry] = [
    TestGeometry(width: 642, height: 362, layout: .yuv420),
    TestGeometry(width: 641, height: 361, layout: .yuv420),
    TestGeometry(width: 640, height: 360, layout: .yuv422),
    TestGeometry(width: 641, height: 361, layout: .yuv422),
    TestGeometry(width: 64, height: 64, layout: .yuv444),
    TestGeometry(width: 63, height: 65, layout: .yuv444),
    TestGeometry(width: 66, height: 63, layout: .yuv410),
    TestGeometry(width: 2, height: 2, layout: .yuv420),
    TestGeometry(width: 1, height: 1, layout: .yuv420),
    TestGeometry(width: 1920, height: 1080, layout: .yuv420),
]

/// Runs `programs` on one random picture on the GPU and on the CPU reference and compares
/// every sample; the destination's row padding must stay untouched.
func expectGPUMatchesReference(_ programs: [ColorProgram], _ geometry: TestGeometry, seed: UInt64,
                               depth: Int = 2, alwaysStage: Bool = false) throws {
    let source = TestPicture(geometry, padding: 5)
    source.fillRandom(seed: seed)
    let engine = try VulkanFilterEngine(context: VulkanContext(preference: .any),
                                        geometry: VulkanFrameGeometry(of: source.image),
                                        programs: programs, depth: depth, alwaysStage: alwaysStage)
    #expect(engine.usesStagingBuffers || !alwaysStage)
    let destination = TestPicture(geometry, padding: 7)
    try engine.process(source: source.image, into: destination.image)
    let difference = firstDifference(destination.samples, referenceChain(programs, source: source, geometry: geometry))
    #expect(difference == nil, "\(geometry) on \(engine.context.deviceInfo.name): \(difference ?? "")")
    #expect(destination.paddingIsUntouched, "\(geometry): bytes outside the planes were written")
}

@Suite("Vulkan colour programs match the CPU reference",
       .enabled(if: vulkanDeviceAvailable, "no Vulkan driver or device (install mesa-vulkan-drivers for lavapipe)"))
struct ColorProgramGPUTests {
    @Test("one program, every geometry", arguments: TestPrograms.single, testGeometries)
    func singleProgram(_ program: ProgramCase, _ geometry: TestGeometry) throws {
        try expectGPUMatchesReference(program.programs, geometry, seed: UInt64(geometry.width * 7 + geometry.height))
    }

    /// The path a GPU with memory of its own takes (staging copies, transfer barriers), forced
    /// on devices that would not need it.
    @Test("through staging buffers, every geometry", arguments: testGeometries)
    func staging(_ geometry: TestGeometry) throws {
        try expectGPUMatchesReference([TestPrograms.sepiaLike], geometry, seed: 31, alwaysStage: true)
    }

    @Test("chains of 2-3 programs run like referenceApply in sequence",
          arguments: TestPrograms.chains, [testGeometries[1], testGeometries[3], testGeometries[6], testGeometries[9]])
    func chain(_ chain: ProgramCase, _ geometry: TestGeometry) throws {
        try expectGPUMatchesReference(chain.programs, geometry, seed: 99)
        try expectGPUMatchesReference(chain.programs, geometry, seed: 98, alwaysStage: true)
    }

    @Test("no program: frames come back unchanged", arguments: [false, true])
    func emptyChain(alwaysStage: Bool) throws {
        try expectGPUMatchesReference([], testGeometries[1], seed: 5, alwaysStage: alwaysStage)
    }

    @Test("several frames in flight, collected in and out of order", arguments: [1, 2, 3], [false, true])
    func framesInFlight(depth: Int, alwaysStage: Bool) throws {
        let geometry = TestGeometry(width: 641, height: 361, layout: .yuv420)
        let programs = TestPrograms.chains[1].programs
        let sources = (0..<7).map { index in
            let picture = TestPicture(geometry, padding: 1)
            picture.fillRandom(seed: 1000 + UInt64(index))
            return picture
        }
        let expected = sources.map { referenceChain(programs, source: $0, geometry: geometry) }
        let engine = try VulkanFilterEngine(context: VulkanContext(preference: .any),
                                            geometry: VulkanFrameGeometry(of: sources[0].image),
                                            programs: programs, depth: depth, alwaysStage: alwaysStage)
        var tickets: [(index: Int, ticket: VulkanFilterEngine.Ticket)] = []
        var results: [Int: [UInt8]] = [:]
        func collect(at position: Int) throws {
            let (index, ticket) = tickets.remove(at: position)
            let destination = TestPicture(geometry, padding: 2)
            try engine.collect(ticket, into: destination.image)
            results[index] = destination.samples
        }
        for (index, source) in sources.enumerated() {
            if engine.isFull {
                // Odd frames take the newest ticket first, so slots are freed out of order.
                try collect(at: index % 2 == 1 ? tickets.count - 1 : 0)
            }
            tickets.append((index, try engine.submit(source: source.image)))
            // submit copied the frame: overwriting the source must not change the result.
            source.fillRandom(seed: 2000 + UInt64(index))
        }
        #expect(engine.framesInFlight == min(depth, sources.count))
        while !tickets.isEmpty { try collect(at: 0) }
        #expect(engine.framesInFlight == 0)
        for index in sources.indices {
            #expect(firstDifference(results[index] ?? [], expected[index]) == nil, "frame \(index) at depth \(depth)\(alwaysStage ? ", staged" : "")")
        }
    }

    @Test("in place: destination is the source")
    func inPlace() throws {
        let geometry = TestGeometry(width: 640, height: 360, layout: .yuv422)
        let picture = TestPicture(geometry, padding: 0)
        picture.fillRandom(seed: 77)
        let expected = referenceChain([TestPrograms.sepiaLike], source: picture, geometry: geometry)
        let engine = try VulkanFilterEngine(preference: .any, geometry: VulkanFrameGeometry(of: picture.image),
                                            programs: [TestPrograms.sepiaLike])
        try engine.process(source: picture.image, into: picture.image)
        #expect(firstDifference(picture.samples, expected) == nil)
    }

    @Test("an engine is reused for many frames with the same result per frame")
    func reuse() throws {
        let geometry = TestGeometry(width: 642, height: 362, layout: .yuv420)
        let source = TestPicture(geometry, padding: 4)
        let engine = try VulkanFilterEngine(preference: .any, geometry: VulkanFrameGeometry(of: source.image),
                                            programs: [TestPrograms.random(seed: 8)], depth: 2)
        for frame in 0..<5 {
            source.fillRandom(seed: 500 + UInt64(frame))
            let destination = TestPicture(geometry, padding: 4)
            try engine.process(source: source.image, into: destination.image)
            #expect(firstDifference(destination.samples,
                                    referenceChain([TestPrograms.random(seed: 8)], source: source, geometry: geometry)) == nil,
                    "frame \(frame)")
        }
    }

    @Test("chroma planes that do not subsample the picture are rejected")
    func unsupportedGeometry() throws {
        let context = try VulkanContext(preference: .any)
        #expect(throws: VulkanError.self) {
            _ = try VulkanFilterEngine(context: context,
                                       geometry: VulkanFrameGeometry(width: 64, height: 5, chromaWidth: 32, chromaHeight: 4),
                                       programs: [.identity])
        }
        #expect(throws: VulkanError.self) {
            _ = try VulkanFilterEngine(context: context,
                                       geometry: VulkanFrameGeometry(width: 640, height: 360, chromaWidth: 100, chromaHeight: 360),
                                       programs: [.identity])
        }
    }
}
