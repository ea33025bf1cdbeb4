import VRenderCore
import VRenderFilters

/// Runs colour programs on a Vulkan device, one engine per picture geometry (in an export:
/// one per distinct take placement, built once, reused for every frame).
public final class VulkanFilterExecutor: FilterExecutor {
    private let context: VulkanContext
    private let programs: [ColorProgram]
    private var engines: [VulkanFrameGeometry: VulkanFilterEngine] = [:]

    public init(context: VulkanContext, programs: [ColorProgram]) {
        self.context = context
        self.programs = programs
    }

    public var backendName: String { "vulkan: \(context.deviceInfo.name)" }

    public func run(source: YUVImage, destination: YUVImage) throws {
        let geometry = VulkanFrameGeometry(of: source)
        let engine: VulkanFilterEngine
        if let existing = engines[geometry] {
            engine = existing
        } else {
            // One slot: this stage waits for each frame (the stages around it overlap with it).
            engine = try VulkanFilterEngine(context: context, geometry: geometry, programs: programs, depth: 1)
            engines[geometry] = engine
        }
        try engine.process(source: source, into: destination)
    }
}
