import Testing
import VRenderCore
import VRenderFilters
@testable import VRenderVulkan

/// `VkResult` raw values from `vulkan_core.h` (the C module is internal to VRenderVulkan).
private enum Result {
    static let outOfDeviceMemory: Int32 = -2
    static let deviceLost: Int32 = -4
    static let unknown: Int32 = -13
}

/// What a user reads when Vulkan fails: the `--gpu` choice at fault, the call, and a way out.
/// No device needed: the failures are made, not met.
@Suite struct VulkanErrorTests {
    @Test func eachFailureNamesTheOptionTheCallAndAWayOut() {
        let lost = VulkanError(call: "vkQueueSubmit", result: Result.deviceLost).userError(option: "--gpu vulkan")
        #expect(lost == VRenderError(.runtime, subject: "--gpu vulkan", reason:
            "the Vulkan device was lost (vkQueueSubmit: VK_ERROR_DEVICE_LOST); retry, or use --gpu cpu"))

        let memory = VulkanError(call: "vkAllocateMemory", result: Result.outOfDeviceMemory).userError(option: "--gpu auto")
        #expect(memory.subject == "--gpu auto")
        #expect(memory.reason.hasSuffix("close other GPU programs or use --gpu cpu"))

        let other = VulkanError(call: "vkCreateDevice", result: Result.unknown).userError(option: "--gpu vulkan")
        #expect(other.reason == "Vulkan failed (vkCreateDevice: VK_ERROR_UNKNOWN); retry, or use --gpu cpu")

        let setup = VulkanError(call: "frame layout", reason: "empty picture 0x0").userError(option: "--gpu vulkan")
        #expect(setup.reason == "Vulkan failed (frame layout: empty picture 0x0); retry, or use --gpu cpu")
    }

    @Test func theExecutorReportsAnEngineFailureAsAUserError() {
        let executor = VulkanFilterExecutor(backendName: "vulkan: test", option: "--gpu auto") { _ in
            throw VulkanError(call: "vkQueueSubmit", result: Result.deviceLost)
        }
        let picture = TestPicture(TestGeometry(width: 16, height: 8, layout: .yuv420), padding: 0)
        #expect(throws: VRenderError(.runtime, subject: "--gpu auto", reason:
            "the Vulkan device was lost (vkQueueSubmit: VK_ERROR_DEVICE_LOST); retry, or use --gpu cpu")) {
            try executor.run(source: picture.image, destination: picture.image)
        }
    }

    @Test func otherErrorsPassThroughUnchanged() {
        let unrelated = VRenderError.input("take.mov", "cannot be read")
        let executor = VulkanFilterExecutor(backendName: "vulkan: test", option: "--gpu vulkan") { _ in throw unrelated }
        let picture = TestPicture(TestGeometry(width: 16, height: 8, layout: .yuv420), padding: 0)
        #expect(throws: unrelated) { try executor.run(source: picture.image, destination: picture.image) }
    }
}
