import Foundation
import VRenderCore
import VRenderFilters
import VRenderVulkan

/// Chooses where a filter chain runs (`--gpu`) and builds the executor.
public enum FilterExecutors {
    /// The backend `choice` resolves to on this machine, without opening anything heavy:
    /// `auto` picks a hardware Vulkan device when one is listed, else the CPU.
    public static func describe(_ choice: FilterBackendChoice) -> String {
        switch choice {
        case .cpu:
            return "cpu"
        case .vulkan:
            return VulkanDevices.list().first.map { "vulkan: \($0.name)" } ?? "vulkan: no device"
        case .auto:
            return VulkanDevices.list().first { !$0.isSoftware }.map { "vulkan: \($0.name)" } ?? "cpu"
        }
    }

    /// An executor for `chain` on the backend `choice` picks. `threads` (0: all processors) is
    /// for the CPU kernels; width and height are the pictures' size (the GPU engine is built
    /// for it, and rebuilt only if a later picture differs).
    ///
    /// - Throws: `VRenderError` naming `--gpu vulkan` when no Vulkan device exists.
    public static func make(chain: FilterChain, choice: FilterBackendChoice, threads: Int,
                            width: Int, height: Int) throws -> any FilterExecutor {
        let cpuThreads = threads > 0 ? threads : ProcessInfo.processInfo.activeProcessorCount
        if chain.isIdentity || choice == .cpu {
            return CPUFilterExecutor(chain: chain, threads: cpuThreads)
        }
        let programs = try chain.filters.filter { !($0 is IdentityFilter) }.map { filter -> ColorProgram in
            guard let colour = filter as? any ColorProgramFilter else {
                throw VRenderError.option("--gpu", "filter '\(filter.descriptor.name)' has no GPU kernel")
            }
            return colour.program
        }
        switch choice {
        case .vulkan:
            return try VulkanFilterExecutor(context: VulkanContext(preference: .any), programs: programs)
        case .auto:
            guard VulkanDevices.list().contains(where: { !$0.isSoftware }),
                  let context = try? VulkanContext(preference: .hardwareOnly) else {
                return CPUFilterExecutor(chain: chain, threads: cpuThreads)
            }
            return VulkanFilterExecutor(context: context, programs: programs)
        case .cpu:
            return CPUFilterExecutor(chain: chain, threads: cpuThreads)
        }
    }
}
