internal import CVulkan
import Foundation
import VRenderCore

/// Which Vulkan devices a caller accepts.
public enum VulkanDevicePreference: Sendable, Hashable {
    /// `--gpu auto`: a GPU (discrete, integrated or virtual), never a software rasterizer, which
    /// would be slower than vrender's own CPU kernels.
    case hardwareOnly
    /// `--gpu vulkan`: any device, software ones such as lavapipe ("llvmpipe") included.
    case any

    /// The option a user wrote to ask for this preference, named in errors.
    var option: String { self == .any ? "--gpu vulkan" : "--gpu auto" }
}

/// One Vulkan device as `vrender devices` shows it.
public struct VulkanDeviceInfo: Sendable, Codable, Hashable, CustomStringConvertible {
    /// `VkPhysicalDeviceProperties.deviceName`, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)".
    public var name: String
    /// "discrete", "integrated", "virtual", "cpu" or "other" (`VkPhysicalDeviceType`).
    public var type: String
    /// The Vulkan version the driver implements, "major.minor.patch".
    public var apiVersion: String
    /// True for devices that run on the CPU (`VK_PHYSICAL_DEVICE_TYPE_CPU`: lavapipe, SwiftShader).
    public var isSoftware: Bool

    public init(name: String, type: String, apiVersion: String, isSoftware: Bool) {
        self.name = name
        self.type = type
        self.apiVersion = apiVersion
        self.isSoftware = isSoftware
    }

    public var description: String { "\(name) (\(type), Vulkan \(apiVersion))" }
}

public enum VulkanDevices {
    /// The devices the Vulkan loader finds, best first (discrete, integrated, virtual, cpu).
    /// Empty, never a crash or an error, when there is no driver (`vkCreateInstance` answers
    /// `VK_ERROR_INCOMPATIBLE_DRIVER`) or no device. Creates and destroys a `VkInstance`.
    public static func list() -> [VulkanDeviceInfo] {
        guard let instance = try? createInstance() else { return [] }
        defer { vkDestroyInstance(instance, nil) }
        return ((try? PhysicalDevice.all(of: instance)) ?? []).map(\.info)
    }

    /// The Vulkan loader's version ("1.3.239"), from `vkEnumerateInstanceVersion`: asks the
    /// loader only, loads no driver.
    package static func loaderVersion() -> String {
        var version: UInt32 = 0
        guard vkEnumerateInstanceVersion(&version) == VK_SUCCESS else { return "1.0 (a loader older than 1.1)" }
        return apiVersionText(version)
    }

    /// The hardware devices (`--gpu auto`'s candidates), best first. Without a GPU device node
    /// (`/dev/dri/renderD*`, `/dev/nvidia<N>`) no hardware driver can work, so the loader is
    /// not asked at all: asking loads every installed driver, and a software one (lavapipe
    /// maps LLVM) stays resident for the rest of the process, ~45 MB on an export that never
    /// uses it.
    public static func hardware() -> [VulkanDeviceInfo] {
        guard GPUDeviceNodes.present() else { return [] }
        return list().filter { !$0.isSoftware }
    }
}

/// A packed Vulkan version (`VK_MAKE_API_VERSION`) as "major.minor.patch".
func apiVersionText(_ version: UInt32) -> String {
    "\(vr_vk_api_version_major(version)).\(vr_vk_api_version_minor(version)).\(vr_vk_api_version_patch(version))"
}

/// The device nodes through which Linux GPU drivers are reached.
enum GPUDeviceNodes {
    static func present(dri: String = "/dev/dri", dev: String = "/dev") -> Bool {
        let fileManager = FileManager.default
        let render = (try? fileManager.contentsOfDirectory(atPath: dri))?.contains { $0.hasPrefix("renderD") } ?? false
        // nvidia0, nvidia1, ...: not nvidiactl or nvidia-uvm, which exist without a usable GPU.
        let nvidia = (try? fileManager.contentsOfDirectory(atPath: dev))?.contains { name in
            let number = name.dropFirst("nvidia".count)
            return name.hasPrefix("nvidia") && !number.isEmpty && number.allSatisfy(\.isNumber)
        } ?? false
        return render || nvidia
    }
}

/// The application's instance: Vulkan 1.0 and no layers or extensions, which is all compute
/// on buffers needs. Wraps `vkCreateInstance`; the caller owns the result and destroys it with
/// `vkDestroyInstance`.
func createInstance() throws(VulkanError) -> OpaquePointer {
    var instance: VkInstance?
    let result = "vrender".withCString { name in
        var application = VkApplicationInfo()
        application.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO
        application.pApplicationName = name
        application.applicationVersion = 1
        application.pEngineName = name
        application.engineVersion = 1
        application.apiVersion = vr_vk_api_version_1_0()
        return withUnsafePointer(to: &application) { applicationPointer in
            var create = VkInstanceCreateInfo()
            create.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO
            create.pApplicationInfo = applicationPointer
            return vkCreateInstance(&create, nil, &instance)
        }
    }
    try check(result, "vkCreateInstance")
    guard let instance else { throw VulkanError(call: "vkCreateInstance", reason: "returned no instance") }
    return instance
}

/// A physical device with what device selection needs to know about it.
struct PhysicalDevice {
    let handle: OpaquePointer
    let info: VulkanDeviceInfo
    /// Lower is better: discrete 0, integrated 1, virtual 2, cpu 3, other 4.
    let rank: Int
    /// The first queue family that can run compute work (and so transfers), if any.
    let computeQueueFamily: UInt32?

    /// Every device of `instance`, best first. Wraps `vkEnumeratePhysicalDevices`,
    /// `vkGetPhysicalDeviceProperties` and `vkGetPhysicalDeviceQueueFamilyProperties`.
    static func all(of instance: OpaquePointer) throws(VulkanError) -> [PhysicalDevice] {
        var count: UInt32 = 0
        try check(vkEnumeratePhysicalDevices(instance, &count, nil), "vkEnumeratePhysicalDevices")
        var handles = [VkPhysicalDevice?](repeating: nil, count: Int(count))
        try check(vkEnumeratePhysicalDevices(instance, &count, &handles), "vkEnumeratePhysicalDevices")
        let devices = handles.prefix(Int(count)).compactMap { $0 }.map(PhysicalDevice.init(handle:))
        // Stable: among equals, the loader's order (which honours the user's device-select layer).
        return devices.enumerated().sorted { ($0.element.rank, $0.offset) < ($1.element.rank, $1.offset) }
            .map(\.element)
    }

    init(handle: OpaquePointer) {
        self.handle = handle
        var properties = VkPhysicalDeviceProperties()
        vkGetPhysicalDeviceProperties(handle, &properties)
        let name = withUnsafeBytes(of: properties.deviceName) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        let type: String
        switch properties.deviceType {
        case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: (type, rank) = ("discrete", 0)
        case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: (type, rank) = ("integrated", 1)
        case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: (type, rank) = ("virtual", 2)
        case VK_PHYSICAL_DEVICE_TYPE_CPU: (type, rank) = ("cpu", 3)
        default: (type, rank) = ("other", 4)
        }
        info = VulkanDeviceInfo(
            name: name, type: type,
            apiVersion: apiVersionText(properties.apiVersion),
            isSoftware: properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU)

        var familyCount: UInt32 = 0
        vkGetPhysicalDeviceQueueFamilyProperties(handle, &familyCount, nil)
        var families = [VkQueueFamilyProperties](repeating: VkQueueFamilyProperties(), count: Int(familyCount))
        vkGetPhysicalDeviceQueueFamilyProperties(handle, &familyCount, &families)
        computeQueueFamily = families.prefix(Int(familyCount)).firstIndex {
            $0.queueCount > 0 && $0.queueFlags & VK_QUEUE_COMPUTE_BIT.rawValue != 0
        }.map(UInt32.init)
    }

    /// The device `preference` picks among `devices` (sorted best first), or the error that
    /// says why there is none, naming `--gpu vulkan` or `--gpu auto`.
    static func select(from devices: [PhysicalDevice], preference: VulkanDevicePreference) throws -> PhysicalDevice {
        let option = preference.option
        let usable = devices.filter { $0.computeQueueFamily != nil }
        let accepted = preference == .any ? usable : usable.filter { !$0.info.isSoftware }
        if let best = accepted.first { return best }
        let names = devices.map(\.info.description).joined(separator: ", ")
        if devices.isEmpty {
            throw VRenderError(.runtime, subject: option, reason: noDriverReason)
        }
        if usable.isEmpty {
            throw VRenderError(.runtime, subject: option,
                               reason: "no Vulkan device found (no device can run compute work: \(names))")
        }
        throw VRenderError(.runtime, subject: option,
                           reason: "no hardware Vulkan device found (only software devices: \(names)); "
                               + "--gpu vulkan uses them")
    }

    static let noDriverReason = "no Vulkan device found (the Vulkan loader found no driver; install a GPU "
        + "driver, or mesa-vulkan-drivers for the software device lavapipe, or use --gpu cpu)"
}
