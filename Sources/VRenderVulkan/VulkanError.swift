internal import CVulkan
import VRenderCore

/// A failed Vulkan call: which one (`vkCreateDevice`, ...) and the `VkResult` it returned, or
/// what could not be set up when no single call is at fault (no memory type fits a buffer).
///
/// Thrown by the one chokepoint, `check`, inside this module. At its public boundary with
/// work a user asked for (`VulkanFilterExecutor`), `userError` turns it into the `VRenderError`
/// the command line prints, hint included.
package struct VulkanError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The Vulkan function that failed, or the step that could not be done.
    package let call: String
    /// The `VkResult` raw value, nil when the failure is not a call's result.
    package let result: Int32?
    /// What went wrong, in words.
    package let reason: String

    init(call: String, result: Int32) {
        self.call = call
        self.result = result
        self.reason = VulkanError.name(ofResult: result)
    }

    init(call: String, reason: String) {
        self.call = call
        self.result = nil
        self.reason = reason
    }

    package var description: String { "\(call): \(reason)" }

    /// The error a user sees for `option` (`--gpu vulkan` or `--gpu auto`): what failed, and
    /// what to do about it. Every Vulkan failure has a way out: the CPU runs the same filters.
    package func userError(option: String) -> VRenderError {
        switch result {
        case VK_ERROR_DEVICE_LOST.rawValue:
            return VRenderError(.runtime, subject: option, reason: "the Vulkan device was lost (\(description)); "
                                + "retry, or use --gpu cpu")
        case VK_ERROR_OUT_OF_DEVICE_MEMORY.rawValue, VK_ERROR_OUT_OF_HOST_MEMORY.rawValue:
            return VRenderError(.runtime, subject: option, reason: "out of memory (\(description)); "
                                + "close other GPU programs or use --gpu cpu")
        default:
            return VRenderError(.runtime, subject: option, reason: "Vulkan failed (\(description)); "
                                + "retry, or use --gpu cpu")
        }
    }

    /// The name `vulkan_core.h` gives a result code.
    static func name(ofResult result: Int32) -> String {
        switch result {
        case VK_SUCCESS.rawValue: return "VK_SUCCESS"
        case VK_NOT_READY.rawValue: return "VK_NOT_READY"
        case VK_TIMEOUT.rawValue: return "VK_TIMEOUT"
        case VK_INCOMPLETE.rawValue: return "VK_INCOMPLETE"
        case VK_ERROR_OUT_OF_HOST_MEMORY.rawValue: return "VK_ERROR_OUT_OF_HOST_MEMORY"
        case VK_ERROR_OUT_OF_DEVICE_MEMORY.rawValue: return "VK_ERROR_OUT_OF_DEVICE_MEMORY"
        case VK_ERROR_INITIALIZATION_FAILED.rawValue: return "VK_ERROR_INITIALIZATION_FAILED"
        case VK_ERROR_DEVICE_LOST.rawValue: return "VK_ERROR_DEVICE_LOST"
        case VK_ERROR_MEMORY_MAP_FAILED.rawValue: return "VK_ERROR_MEMORY_MAP_FAILED"
        case VK_ERROR_LAYER_NOT_PRESENT.rawValue: return "VK_ERROR_LAYER_NOT_PRESENT"
        case VK_ERROR_EXTENSION_NOT_PRESENT.rawValue: return "VK_ERROR_EXTENSION_NOT_PRESENT"
        case VK_ERROR_FEATURE_NOT_PRESENT.rawValue: return "VK_ERROR_FEATURE_NOT_PRESENT"
        case VK_ERROR_INCOMPATIBLE_DRIVER.rawValue: return "VK_ERROR_INCOMPATIBLE_DRIVER (no usable Vulkan driver)"
        case VK_ERROR_TOO_MANY_OBJECTS.rawValue: return "VK_ERROR_TOO_MANY_OBJECTS"
        case VK_ERROR_FORMAT_NOT_SUPPORTED.rawValue: return "VK_ERROR_FORMAT_NOT_SUPPORTED"
        case VK_ERROR_FRAGMENTED_POOL.rawValue: return "VK_ERROR_FRAGMENTED_POOL"
        case VK_ERROR_OUT_OF_POOL_MEMORY.rawValue: return "VK_ERROR_OUT_OF_POOL_MEMORY"
        case VK_ERROR_INVALID_EXTERNAL_HANDLE.rawValue: return "VK_ERROR_INVALID_EXTERNAL_HANDLE"
        case VK_ERROR_FRAGMENTATION.rawValue: return "VK_ERROR_FRAGMENTATION"
        case VK_ERROR_UNKNOWN.rawValue: return "VK_ERROR_UNKNOWN"
        default: return "VkResult \(result)"
        }
    }
}

/// Runs `body`, turning a `VulkanError` it throws into `userError(option:)`: the boundary where
/// Vulkan's errors leave this module for a user's eyes. Other errors pass unchanged.
@inline(__always)
func reportingToUser<Result>(option: String, _ body: () throws -> Result) throws -> Result {
    do {
        return try body()
    } catch let error as VulkanError {
        throw error.userError(option: option)
    }
}

/// The one chokepoint for `VkResult`s: anything but `VK_SUCCESS` is thrown with the call's name.
/// (The few calls that return other success codes, `VK_TIMEOUT` from `vkWaitForFences`, check
/// for them before calling this.)
@inline(__always)
func check(_ result: VkResult, _ call: @autoclosure () -> String) throws(VulkanError) {
    if result != VK_SUCCESS {
        throw VulkanError(call: call(), result: result.rawValue)
    }
}
