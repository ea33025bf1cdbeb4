internal import CVulkan
import VRenderCore

/// One Vulkan device ready for compute: it owns the `VkInstance`, the chosen physical device,
/// the `VkDevice`, one compute queue and a command pool, and destroys them in reverse order.
///
/// Thread safety: none. Vulkan requires external synchronization of the queue and the command
/// pool, so a context and every engine made from it belong to one thread or task at a time
/// (hand them over, never share them). Engines keep their context alive.
public final class VulkanContext {
    /// The device the context runs on.
    public let deviceInfo: VulkanDeviceInfo

    let instance: OpaquePointer
    let physicalDevice: OpaquePointer
    let device: OpaquePointer
    let queue: OpaquePointer
    let queueFamilyIndex: UInt32
    let commandPool: OpaquePointer
    let memoryProperties: VkPhysicalDeviceMemoryProperties
    let limits: VkPhysicalDeviceLimits
    private let teardown: Teardown

    /// Opens the best device `preference` allows: discrete before integrated before virtual
    /// before software. Wraps `vkCreateInstance`, `vkCreateDevice`, `vkGetDeviceQueue` and
    /// `vkCreateCommandPool`.
    ///
    /// - Throws: `VRenderError` (kind `.runtime`, subject `--gpu vulkan` for `.any`, `--gpu auto`
    ///   for `.hardwareOnly`) when no acceptable device exists: "no Vulkan device found (...)";
    ///   `VulkanError` when a Vulkan call fails.
    public init(preference: VulkanDevicePreference = .any) throws {
        let teardown = Teardown()
        let instance: OpaquePointer
        switch Result(catching: { () throws(VulkanError) in try createInstance() }) {
        case .success(let created):
            instance = created
        case .failure(let error) where error.result == VK_ERROR_INCOMPATIBLE_DRIVER.rawValue:
            throw VRenderError(.runtime, subject: preference.option, reason: PhysicalDevice.noDriverReason)
        case .failure(let error):
            throw error
        }
        teardown.add { vkDestroyInstance(instance, nil) }

        let chosen = try PhysicalDevice.select(from: PhysicalDevice.all(of: instance), preference: preference)
        guard let family = chosen.computeQueueFamily else { preconditionFailure("select returns compute devices") }

        let device = try Self.createDevice(chosen.handle, queueFamily: family)
        teardown.add { vkDestroyDevice(device, nil) }

        var queue: VkQueue?
        vkGetDeviceQueue(device, family, 0, &queue)
        guard let queue else { throw VulkanError(call: "vkGetDeviceQueue", reason: "returned no queue") }

        let pool = try Self.createCommandPool(device, queueFamily: family)
        teardown.add { vkDestroyCommandPool(device, pool, nil) }

        var memoryProperties = VkPhysicalDeviceMemoryProperties()
        vkGetPhysicalDeviceMemoryProperties(chosen.handle, &memoryProperties)
        var properties = VkPhysicalDeviceProperties()
        vkGetPhysicalDeviceProperties(chosen.handle, &properties)

        self.deviceInfo = chosen.info
        self.instance = instance
        self.physicalDevice = chosen.handle
        self.device = device
        self.queue = queue
        self.queueFamilyIndex = family
        self.commandPool = pool
        self.memoryProperties = memoryProperties
        self.limits = properties.limits
        self.teardown = teardown
    }

    /// A logical device on `physicalDevice` with one queue of `queueFamily`.
    private static func createDevice(_ physicalDevice: VkPhysicalDevice, queueFamily: UInt32) throws -> VkDevice {
        var device: VkDevice?
        var priority: Float = 1
        let created = withUnsafePointer(to: &priority) { priorityPointer in
            var queueInfo = VkDeviceQueueCreateInfo()
            queueInfo.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO
            queueInfo.queueFamilyIndex = queueFamily
            queueInfo.queueCount = 1
            queueInfo.pQueuePriorities = priorityPointer
            return withUnsafePointer(to: &queueInfo) { queuePointer in
                // No features or extensions: the shaders use 32-bit integer storage buffers only.
                var create = VkDeviceCreateInfo()
                create.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO
                create.queueCreateInfoCount = 1
                create.pQueueCreateInfos = queuePointer
                return vkCreateDevice(physicalDevice, &create, nil, &device)
            }
        }
        try check(created, "vkCreateDevice")
        guard let device else { throw VulkanError(call: "vkCreateDevice", reason: "returned no device") }
        return device
    }

    /// The command pool every engine on this context records from.
    private static func createCommandPool(_ device: VkDevice, queueFamily: UInt32) throws -> VkCommandPool {
        var poolInfo = VkCommandPoolCreateInfo()
        poolInfo.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO
        // No RESET flag: engines record each command buffer once and submit it for every frame.
        poolInfo.queueFamilyIndex = queueFamily
        var pool: VkCommandPool?
        try check(vkCreateCommandPool(device, &poolInfo, nil, &pool), "vkCreateCommandPool")
        guard let pool else { throw VulkanError(call: "vkCreateCommandPool", reason: "returned no pool") }
        return pool
    }

    deinit {
        // Engines wait for their own fences before they go (and hold the context until then);
        // this is the backstop so that no destroy below races work still on the queue.
        _ = vkDeviceWaitIdle(device)
        teardown.run()
    }

    /// The index of the first memory type allowed by `allowedTypes` (a `memoryTypeBits` mask)
    /// that has every flag of the first satisfiable set in `choices`, and that set.
    func memoryType(allowedTypes: UInt32, choices: [VkMemoryPropertyFlags])
        -> (index: UInt32, flags: VkMemoryPropertyFlags)? {
        let count = Int(memoryProperties.memoryTypeCount)
        let types = withUnsafeBytes(of: memoryProperties.memoryTypes) { raw in
            Array(raw.bindMemory(to: VkMemoryType.self).prefix(count))
        }
        for wanted in choices {
            for (index, type) in types.enumerated()
            where allowedTypes & (1 << UInt32(index)) != 0 && type.propertyFlags & wanted == wanted {
                return (UInt32(index), type.propertyFlags)
            }
        }
        return nil
    }
}
