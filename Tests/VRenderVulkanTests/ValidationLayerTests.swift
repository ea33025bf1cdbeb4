import Foundation
import Testing
import VRenderVulkan

/// Where Debian's vulkan-validationlayers package installs the Khronos validation layer.
let validationLayerManifest = "/usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json"

/// Set in the environment of the child process `ValidationLayerTests` starts.
let validationChildMarker = "VRENDER_VULKAN_VALIDATION_CHILD"

/// Lavapipe computes the right bytes even with a missing barrier (it runs commands in order),
/// so the GPU tests alone cannot prove the barriers a real GPU needs. The Khronos validation
/// layer with synchronization validation can: it reports every hazard between the copies and
/// the dispatches. Runs when the layer is installed (vulkan-validationlayers).
@Suite("Vulkan usage passes the validation layer",
       .enabled(if: vulkanDeviceAvailable && FileManager.default.fileExists(atPath: validationLayerManifest)
                    && ProcessInfo.processInfo.environment[validationChildMarker] == nil,
                "needs a Vulkan device and the validation layer (apt-get install vulkan-validationlayers)"))
struct ValidationLayerTests {
    @Test("no validation or synchronization errors in chains, staging and frames in flight")
    func noErrors() throws {
        let settings = FileManager.default.temporaryDirectory
            .appendingPathComponent("vrender-vulkan-validation-\(getpid())")
        try FileManager.default.createDirectory(at: settings, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: settings) }
        // Errors and warnings to stdout, with synchronization validation on (the layer's
        // settings file format of Vulkan SDK 1.3.2xx).
        try """
        khronos_validation.debug_action = VK_DBG_LAYER_ACTION_LOG_MSG
        khronos_validation.report_flags = error,warn
        khronos_validation.log_filename = stdout
        khronos_validation.enables = VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT
        """.write(to: settings.appendingPathComponent("vk_layer_settings.txt"), atomically: true, encoding: .utf8)

        let (status, text) = try ChildTestRun.run(
            filter: "ColorProgramGPUTests/(chain|staging|framesInFlight|emptyChain)",
            environment: ["VK_INSTANCE_LAYERS": "VK_LAYER_KHRONOS_validation", "VK_LAYER_SETTINGS_PATH": settings.path,
                          validationChildMarker: "1"])

        #expect(status == 0, "\(text.suffix(4000))")
        #expect(text.contains("passed"), "the child ran no test: \(text.suffix(2000))")
        // Performance hints (small allocations) are fine; errors and spec warnings are not.
        let problems = text.split(separator: "\n").filter { $0.contains("(ERROR") || $0.contains("WARN / SPEC") }
        #expect(problems.isEmpty, "\(problems.prefix(5).joined(separator: "\n"))")
    }
}
