import VRenderCore
import VRenderFilters

/// Runs colour programs on a Vulkan device, one engine per picture geometry (in an export:
/// one per distinct take placement, built once, reused for every frame).
///
/// Everything it throws is for a user's eyes: a `VulkanError` (opening the device, building an
/// engine, a submit, a lost device) leaves as the `VRenderError` of `VulkanError.userError`,
/// naming the `--gpu` choice and the way out (`--gpu cpu`).
///
/// Thread safety: none; like its context, one thread uses it at a time.
package final class VulkanFilterExecutor: FilterExecutor {
    package let backendName: String
    /// The option that chose Vulkan (`--gpu vulkan`, `--gpu auto`), named in errors.
    private let option: String
    private let makeEngine: (VulkanFrameGeometry) throws -> VulkanFilterEngine
    private var engines: [VulkanFrameGeometry: VulkanFilterEngine] = [:]

    /// Opens the device `preference` allows and prepares to run `programs` on it.
    ///
    /// - Throws: `VRenderError` naming `--gpu vulkan` or `--gpu auto` when no device fits or
    ///   the device cannot be opened.
    package convenience init(preference: VulkanDevicePreference, programs: [ColorProgram]) throws {
        let context = try reportingToUser(option: preference.option) { try VulkanContext(preference: preference) }
        self.init(context: context, programs: programs, option: preference.option)
    }

    /// Runs `programs` on an open `context`; `option` is what errors name.
    package convenience init(context: VulkanContext, programs: [ColorProgram], option: String = "--gpu vulkan") {
        self.init(backendName: "vulkan: \(context.deviceInfo.name)", option: option) { geometry in
            // One slot: the caller waits for each frame (the stages around it overlap with it).
            try VulkanFilterEngine(context: context, geometry: geometry, programs: programs, depth: 1)
        }
    }

    /// `makeEngine` builds the engine for pictures of one geometry (tests make it fail).
    init(backendName: String, option: String, makeEngine: @escaping (VulkanFrameGeometry) throws -> VulkanFilterEngine) {
        self.backendName = backendName
        self.option = option
        self.makeEngine = makeEngine
    }

    /// The colour programs of `chain`, the form its filters take on the GPU.
    ///
    /// - Throws: `VRenderError` naming `--gpu` for a filter that has no GPU kernel.
    package static func programs(for chain: FilterChain) throws -> [ColorProgram] {
        try chain.filters.filter { !($0 is IdentityFilter) }.map { filter in
            guard let colour = filter as? any ColorProgramFilter else {
                throw VRenderError.option("--gpu", "filter '\(filter.descriptor.name)' has no GPU kernel")
            }
            return colour.program
        }
    }

    package func run(source: YUVImage, destination: YUVImage) throws {
        try reportingToUser(option: option) {
            try engine(for: VulkanFrameGeometry(of: source)).process(source: source, into: destination)
        }
    }

    private func engine(for geometry: VulkanFrameGeometry) throws -> VulkanFilterEngine {
        if let existing = engines[geometry] { return existing }
        let engine = try makeEngine(geometry)
        engines[geometry] = engine
        return engine
    }
}
