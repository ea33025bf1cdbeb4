import Testing
import VRenderCore
import VRenderFilters
import VRenderVulkan

/// Every registered filter, alone and chained, through both backends: the Vulkan engine and the
/// CPU kernels (`FilterChain.run`) must give identical bytes.
@Suite(.serialized,
       .enabled(if: vulkanDeviceAvailable, "no Vulkan driver or device (install mesa-vulkan-drivers for lavapipe)"))
struct RegisteredFilterParityTests {
    static let chains = FilterRegistry.names.filter { $0 != "none" }
        + ["fade,mono", "sepia,chrome,noir", "instant=strength=35,process"]

    static let geometries = [
        TestGeometry(width: 642, height: 362, layout: .yuv420),
        TestGeometry(width: 641, height: 361, layout: .yuv420),
        TestGeometry(width: 640, height: 360, layout: .yuv422),
        TestGeometry(width: 96, height: 64, layout: .yuv444),
    ]

    @Test(arguments: chains)
    func vulkanEqualsCPU(chain specification: String) throws {
        let chain = try FilterRegistry.chain(specification)
        let programs = chain.filters.compactMap { ($0 as? any ColorProgramFilter)?.program }
        #expect(programs.count == chain.filters.count)
        let context = try VulkanContext(preference: .any)
        for geometry in Self.geometries {
            let source = TestPicture(geometry, padding: 7)
            source.fillRandom(seed: UInt64(geometry.width * 31 + geometry.height))
            let gpu = TestPicture(geometry, padding: 7)
            let cpu = TestPicture(geometry, padding: 7)
            let engine = try VulkanFilterEngine(context: context, geometry: VulkanFrameGeometry(of: source.image),
                                                programs: programs, depth: 1)
            try engine.process(source: source.image, into: gpu.image)
            chain.run(source: source.image, destination: cpu.image, threads: 3)
            #expect(gpu.samples == cpu.samples, "\(specification) at \(geometry)")
        }
    }
}
