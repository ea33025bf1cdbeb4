import Foundation
import Testing
import VRenderCore
@testable import VRenderVulkan

@Suite("Vulkan devices")
struct VulkanDeviceTests {
    @Test("listing devices never fails, and describes each one")
    func listing() throws {
        let devices = VulkanDevices.list()
        for device in devices {
            #expect(!device.name.isEmpty)
            #expect(["discrete", "integrated", "virtual", "cpu", "other"].contains(device.type))
            #expect(device.apiVersion.split(separator: ".").count == 3)
            #expect(device.isSoftware == (device.type == "cpu"))
        }
        // Codable for `vrender devices --json`.
        let decoded = try JSONDecoder().decode([VulkanDeviceInfo].self, from: JSONEncoder().encode(devices))
        #expect(decoded == devices)
    }

    @Test("--gpu vulkan takes the best device; --gpu auto refuses software ones",
          .enabled(if: vulkanDeviceAvailable, "no Vulkan driver or device (install mesa-vulkan-drivers for lavapipe)"))
    func preferences() throws {
        let devices = VulkanDevices.list()
        let context = try VulkanContext(preference: .any)
        #expect(context.deviceInfo == devices.first)
        if devices.allSatisfy(\.isSoftware) {
            #expect {
                _ = try VulkanContext(preference: .hardwareOnly)
            } throws: { error in
                guard let error = error as? VRenderError else { return false }
                return error.kind == .runtime && error.subject == "--gpu auto"
                    && error.reason.hasPrefix("no hardware Vulkan device found")
            }
        } else {
            #expect(try !VulkanContext(preference: .hardwareOnly).deviceInfo.isSoftware)
        }
    }

    /// The loader reads `VK_ICD_FILENAMES` when an instance is created, and tests share one
    /// process: so this test runs the test binary again, with no driver, for itself alone, and
    /// the child (marked by `noDriverChildMarker`) does the checks.
    @Test("no driver: the list is empty and --gpu vulkan says why")
    func noDriver() throws {
        if ProcessInfo.processInfo.environment[noDriverChildMarker] != nil {
            #expect(VulkanDevices.list().isEmpty)
            #expect {
                _ = try VulkanContext(preference: .any)
            } throws: { error in
                guard let error = error as? VRenderError else { return false }
                return error.kind == .runtime && error.subject == "--gpu vulkan"
                    && error.reason.hasPrefix("no Vulkan device found")
            }
            return
        }
        let (status, text) = try ChildTestRun.run(
            filter: "VulkanDeviceTests/noDriver",
            environment: ["VK_ICD_FILENAMES": "/nonexistent/icd.json", "VK_DRIVER_FILES": "/nonexistent/icd.json",
                          noDriverChildMarker: "1"])
        #expect(status == 0, "\(text)")
        // The child must really have run this test, not filtered it away.
        #expect(text.contains("Test run with 1 test") && text.contains("passed"), "\(text)")
    }
}

/// Set in the environment of the child process `VulkanDeviceTests.noDriver` starts.
let noDriverChildMarker = "VRENDER_VULKAN_NO_DRIVER_CHILD"

/// Runs some of this test binary's tests again in a child process with extra environment (the
/// Vulkan loader reads its variables once per process), returning its status and output.
enum ChildTestRun {
    static func run(filter: String, environment extra: [String: String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = ["--testing-library", "swift-testing", "--filter", filter]
        process.environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }
}

@Suite("GPU device nodes")
struct GPUDeviceNodeTests {
    /// A fake /dev with the given entries, and its dri/ folder with `dri` entries.
    private func fakeDev(_ entries: [String], dri: [String]) throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("vrender-dev-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root + "/dri", withIntermediateDirectories: true)
        for name in entries { try Data().write(to: URL(fileURLWithPath: root + "/" + name)) }
        for name in dri { try Data().write(to: URL(fileURLWithPath: root + "/dri/" + name)) }
        return root
    }

    @Test("a render node or an NVIDIA device node means a hardware driver may work; nothing else does")
    func nodes() throws {
        let cases: [(entries: [String], dri: [String], present: Bool)] = [
            ([], [], false),
            (["null", "nvidiactl", "nvidia-uvm", "nvidia-modeset"], ["card0"], false),
            ([], ["card0", "renderD128"], true),
            (["nvidia0", "nvidiactl"], [], true),
        ]
        for (entries, dri, present) in cases {
            let root = try fakeDev(entries, dri: dri)
            defer { try? FileManager.default.removeItem(atPath: root) }
            #expect(GPUDeviceNodes.present(dri: root + "/dri", dev: root) == present, "\(entries) \(dri)")
        }
        #expect(GPUDeviceNodes.present(dri: "/nonexistent/dri", dev: "/nonexistent") == false)
    }

    @Test("hardware() lists exactly the non-software devices, or none without device nodes")
    func hardwareList() {
        let hardware = VulkanDevices.hardware()
        #expect(hardware.allSatisfy { !$0.isSoftware })
        if GPUDeviceNodes.present() {
            #expect(hardware == VulkanDevices.list().filter { !$0.isSoftware })
        } else {
            #expect(hardware.isEmpty)
        }
    }
}
