import Foundation
import Synchronization
import Testing
import VRenderCore
import VRenderFilters
import VRenderTestSupport
@testable import VRenderExport
@testable import VRenderVulkan

/// Failures in the middle of a transcode reach the caller as the errors users read, and leave
/// nothing behind.
@Suite struct ExportFailureTests {
    let directory = TestMedia.scratchDirectory()

    /// A Vulkan executor whose engine fails as a lost device does; no device needed.
    private static func lostDevice(_ plan: ExportPlan) -> any FilterExecutor {
        VulkanFilterExecutor(backendName: "vulkan: lost", option: "--gpu vulkan") { _ in
            throw VulkanError(call: "vkQueueSubmit", result: -4)   // VK_ERROR_DEVICE_LOST
        }
    }

    @Test func aLostVulkanDeviceSaysWhatToDoAndLeavesNoOutput() throws {
        let output = directory + "/lost.mov"
        let options = ExportOptions(inputs: [TestMedia.path("small_a.mov")], output: output,
                                    filter: try FilterRegistry.chain("mono"), codec: .encode(.h264), preset: "ultrafast",
                                    gpu: .vulkan)
        let exporter = Exporter(options: options, progress: { _ in }, makeExecutor: Self.lostDevice)
        #expect(throws: VRenderError(.runtime, subject: "--gpu vulkan", reason:
            "the Vulkan device was lost (vkQueueSubmit: VK_ERROR_DEVICE_LOST); retry, or use --gpu cpu")) {
            try exporter.export()
        }
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect(TestMedia.files(in: directory, containing: "vrender-partial").isEmpty)
    }

    @Test func anExportCancelledBeforeItStartsWritesNothing() throws {
        let output = directory + "/early.mov"
        let options = ExportOptions(inputs: [TestMedia.path("small_a.mov")], output: output,
                                    codec: .encode(.h264), preset: "ultrafast")
        let exporter = Exporter(options: options)
        let plan = try ExportPlanner.plan(options)
        exporter.cancel()
        #expect(throws: VRenderError.cancelled) { try exporter.run(plan) }
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect(TestMedia.files(in: directory, containing: "vrender-partial").isEmpty)
    }
}

/// The one channel between a cancelling thread and an export.
@Suite struct ExportCancellationTests {
    private final class Calls: Sendable {
        let count = Mutex(0)
        func stop() { count.withLock { $0 += 1 } }
        var value: Int { count.withLock { $0 } }
    }

    @Test func cancelStopsWhatRunsNowAndOnlyThat() throws {
        let cancellation = ExportCancellation()
        let calls = Calls()
        try cancellation.run(stoppingWith: calls.stop) {
            #expect(calls.value == 0)
            cancellation.cancel()
            #expect(calls.value == 1)
        }
        cancellation.cancel()   // after the run: its stop action is gone
        #expect(calls.value == 1)
        #expect(cancellation.isCancelled)
    }

    @Test func aRunAfterCancelStopsAtOnce() throws {
        let cancellation = ExportCancellation()
        cancellation.cancel()
        let calls = Calls()
        try cancellation.run(stoppingWith: calls.stop) { #expect(calls.value == 1) }
    }
}
