import Foundation
import VRenderCore
import VRenderFilters
import VRenderVulkan

/// Chooses where a filter chain runs (`--gpu`) and builds the executor.
package enum FilterExecutors {
    /// The backend `choice` resolves to on this machine, without opening anything heavy:
    /// `auto` picks a hardware Vulkan device when one is listed, else the CPU.
    package static func describe(_ choice: FilterBackendChoice) -> String {
        switch choice {
        case .cpu:
            return "cpu"
        case .vulkan:
            return VulkanDevices.list().first.map { "vulkan: \($0.name)" } ?? "vulkan: no device"
        case .auto:
            return VulkanDevices.hardware().first.map { "vulkan: \($0.name)" } ?? "cpu"
        }
    }

    /// An executor for `chain` on the backend `choice` picks. `threads` (bands per picture:
    /// `ThreadBudget.pictureBands`) is for the CPU kernels; width and height are the pictures' size (the GPU engine is built
    /// for it, and rebuilt only if a later picture differs).
    ///
    /// - Throws: `VRenderError` naming `--gpu vulkan` when no Vulkan device exists. The Vulkan
    ///   executor reports its own failures the same way, with the hint to use `--gpu cpu`.
    package static func make(chain: FilterChain, choice: FilterBackendChoice, threads: Int,
                            width: Int, height: Int) throws -> any FilterExecutor {
        let cpuThreads = max(1, threads)
        if chain.isIdentity || choice == .cpu {
            return CPUFilterExecutor(chain: chain, threads: cpuThreads)
        }
        let programs = try VulkanFilterExecutor.programs(for: chain)
        switch choice {
        case .vulkan:
            return try VulkanFilterExecutor(preference: .any, programs: programs)
        case .auto:
            guard !VulkanDevices.hardware().isEmpty,
                  let gpu = try? VulkanFilterExecutor(preference: .hardwareOnly, programs: programs) else {
                return CPUFilterExecutor(chain: chain, threads: cpuThreads)
            }
            return gpu
        case .cpu:
            return CPUFilterExecutor(chain: chain, threads: cpuThreads)
        }
    }

    /// The executor of `plan`'s transcode: its filter chain on the backend `--gpu` chose, with
    /// its bands per picture, for its canvas (`TranscodePipeline.ExecutorFactory`).
    static func make(for plan: ExportPlan) throws -> any FilterExecutor {
        try make(chain: plan.encoding.filter, choice: plan.encoding.gpu, threads: plan.filterBands,
                 width: plan.canvasWidth, height: plan.canvasHeight)
    }
}
