import Testing
import VRenderCore
import VRenderFilters
import VRenderVulkan

/// Every registered filter and a chain, on the Vulkan engine and on the CPU kernels, at odd and
/// tiny sizes where a layout or dispatch that rounds down would miss the last chroma column or
/// row: identical bytes in every plane, the last column and row included, and no byte written
/// outside the planes. Few sizes, so it stays quick on lavapipe.
@Suite(.serialized,
       .enabled(if: vulkanDeviceAvailable, "no Vulkan driver or device (install mesa-vulkan-drivers for lavapipe)"))
struct EdgeParityTests {
    static let specifications = FilterRegistry.names + ["process,instant,transfer,tonal,sepia,chrome,noir,mono=strength=40"]

    static let geometries = [
        TestGeometry(width: 853, height: 479, layout: .yuv444),
        TestGeometry(width: 641, height: 361, layout: .yuv420),
        TestGeometry(width: 33, height: 17, layout: .yuv422),
        TestGeometry(width: 1, height: 1, layout: .yuv420),
        TestGeometry(width: 1, height: 1, layout: .yuv444),
        TestGeometry(width: 3, height: 5, layout: .yuv420),
        TestGeometry(width: 5, height: 3, layout: .yuv422),
    ]

    static func programs(_ chain: FilterChain) throws -> [ColorProgram] {
        try chain.filters.map { try #require(($0 as? any ColorProgramFilter)?.program) }
    }

    @Test(arguments: specifications)
    func vulkanEqualsCPUToTheLastSample(specification: String) throws {
        let chain = try FilterRegistry.chain(specification)
        let programs = try Self.programs(chain)
        let context = try VulkanContext(preference: .any)
        for geometry in Self.geometries {
            let source = TestPicture(geometry, padding: 3)
            source.fillRandom(seed: UInt64(geometry.width * 1_000 + geometry.height))
            let gpu = TestPicture(geometry, padding: 5), cpu = TestPicture(geometry, padding: 5)
            let engine = try VulkanFilterEngine(context: context, geometry: VulkanFrameGeometry(of: source.image),
                                                programs: programs, depth: 1)
            try engine.process(source: source.image, into: gpu.image)
            chain.run(source: source.image, destination: cpu.image, threads: 3)
            let planes = [("Y", gpu.image.luma, cpu.image.luma), ("Cb", gpu.image.cb, cpu.image.cb),
                          ("Cr", gpu.image.cr, cpu.image.cr)]
            for (name, a, b) in planes {
                // The edges first, for a failure that names them.
                let lastRow = Array(UnsafeBufferPointer(start: a.row(a.height - 1), count: a.width))
                let cpuLastRow = Array(UnsafeBufferPointer(start: b.row(b.height - 1), count: b.width))
                let lastColumn = (0..<a.height).map { a.row($0)[a.width - 1] }
                let cpuLastColumn = (0..<b.height).map { b.row($0)[b.width - 1] }
                #expect(lastRow == cpuLastRow, "\(specification) \(geometry): last \(name) row")
                #expect(lastColumn == cpuLastColumn, "\(specification) \(geometry): last \(name) column")
            }
            #expect(firstDifference(gpu.samples, cpu.samples) == nil, "\(specification) \(geometry)")
            #expect(gpu.paddingIsUntouched, "\(specification) \(geometry): bytes outside the planes were written")
        }
    }

    /// The export's way: the picture rectangle (even origin, odd size) of a larger frame,
    /// filtered in place through `cropped(to:)`; nothing outside it may change.
    @Test(arguments: [TestGeometry(width: 862, height: 486, layout: .yuv444),
                      TestGeometry(width: 862, height: 486, layout: .yuv420),
                      TestGeometry(width: 40, height: 24, layout: .yuv422)])
    func croppedPictureInPlace(frame geometry: TestGeometry) throws {
        let chain = try FilterRegistry.chain("mono,process")
        let rect = geometry.width > 100 ? PixelRect(x: 2, y: 4, width: 853, height: 479)
            : PixelRect(x: 4, y: 2, width: 33, height: 17)
        let gpu = TestPicture(geometry, padding: 3)
        gpu.fillRandom(seed: 4)
        let cpu = TestPicture(geometry, padding: 3)
        cpu.copy(from: gpu)
        let engine = try VulkanFilterEngine(preference: .any, geometry: VulkanFrameGeometry(of: gpu.image.cropped(to: rect)),
                                            programs: try Self.programs(chain), depth: 1)
        let picture = gpu.image.cropped(to: rect)
        try engine.process(source: picture, into: picture)
        let cpuPicture = cpu.image.cropped(to: rect)
        chain.run(source: cpuPicture, destination: cpuPicture, threads: 3)
        #expect(firstDifference(gpu.samples, cpu.samples) == nil, "\(geometry) \(rect)")
        #expect(gpu.paddingIsUntouched, "\(geometry): row padding written")
        // The last chroma column of the rectangle is in the view and was filtered.
        let lastChroma = rect.x / gpu.image.chroma.blockWidth + picture.cb.width - 1
        #expect(lastChroma == (rect.x + rect.width - 1) / gpu.image.chroma.blockWidth)
    }
}
