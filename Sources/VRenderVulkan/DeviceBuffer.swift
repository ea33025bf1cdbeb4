internal import CVulkan

/// A `VkBuffer` with its own `VkDeviceMemory`, mapped for its whole life when the memory is
/// host-visible. Its owner's `Teardown` destroys it (unmap, free, destroy).
struct DeviceBuffer {
    let buffer: OpaquePointer
    let memory: OpaquePointer
    let byteCount: Int
    /// The memory type's property flags (`VK_MEMORY_PROPERTY_*`).
    let memoryFlags: VkMemoryPropertyFlags
    /// Where the host reads and writes the buffer; nil unless host-visible. Always host-coherent
    /// memory (see `VulkanContext.makeBuffer`), so no flush or invalidate is ever needed.
    let mapped: UnsafeMutableRawPointer?

    func hasFlags(_ flags: VkMemoryPropertyFlags) -> Bool { memoryFlags & flags == flags }
}

/// Memory property flags as the masks `VkMemoryType.propertyFlags` holds.
enum MemoryFlags {
    static let deviceLocal = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT.rawValue
    static let hostVisible = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT.rawValue
    static let hostCoherent = VK_MEMORY_PROPERTY_HOST_COHERENT_BIT.rawValue
    static let hostCached = VK_MEMORY_PROPERTY_HOST_CACHED_BIT.rawValue
    /// Memory the host can use without flushes or invalidations.
    static let hostShared = hostVisible | hostCoherent
}

extension VulkanContext {
    /// Creates a buffer of `byteCount` bytes and binds it to new memory of the first type that
    /// has all the flags of one of `choices` (tried in order). Host-visible memory is accepted
    /// only when it is also host-coherent, and is mapped. Wraps `vkCreateBuffer`,
    /// `vkAllocateMemory`, `vkBindBufferMemory` and `vkMapMemory`; registers their undoing with
    /// `teardown`.
    func makeBuffer(byteCount: Int, usage: VkBufferUsageFlags, choices: [VkMemoryPropertyFlags],
                    teardown: Teardown) throws(VulkanError) -> DeviceBuffer {
        let device = self.device
        var info = VkBufferCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO
        info.size = VkDeviceSize(byteCount)
        info.usage = usage
        info.sharingMode = VK_SHARING_MODE_EXCLUSIVE // one queue uses it
        var buffer: VkBuffer?
        try check(vkCreateBuffer(device, &info, nil, &buffer), "vkCreateBuffer")
        guard let buffer else { throw VulkanError(call: "vkCreateBuffer", reason: "returned no buffer") }
        let memory: OpaquePointer
        let flags: VkMemoryPropertyFlags
        do {
            (memory, flags) = try allocateMemory(for: buffer, byteCount: byteCount, choices: choices)
        } catch {
            vkDestroyBuffer(device, buffer, nil)
            throw error
        }
        // Registered memory first so that the buffer is destroyed before its memory is freed.
        teardown.add { vkFreeMemory(device, memory, nil) }
        teardown.add { vkDestroyBuffer(device, buffer, nil) }

        var mapped: UnsafeMutableRawPointer?
        if flags & MemoryFlags.hostShared == MemoryFlags.hostShared {
            try check(vkMapMemory(device, memory, 0, VkDeviceSize(VK_WHOLE_SIZE), 0, &mapped), "vkMapMemory")
            teardown.add { vkUnmapMemory(device, memory) }
        }
        return DeviceBuffer(buffer: buffer, memory: memory, byteCount: byteCount, memoryFlags: flags, mapped: mapped)
    }

    /// Memory for `buffer` of the first type that has all the flags of one of `choices`, bound
    /// to it. Wraps `vkAllocateMemory` and `vkBindBufferMemory`; frees the memory if binding fails.
    private func allocateMemory(for buffer: OpaquePointer, byteCount: Int, choices: [VkMemoryPropertyFlags])
        throws(VulkanError) -> (OpaquePointer, VkMemoryPropertyFlags) {
        var requirements = VkMemoryRequirements()
        vkGetBufferMemoryRequirements(device, buffer, &requirements)
        // A host-visible type that is not coherent would need flushes: only coherent ones qualify.
        let acceptable = choices.map { $0 & MemoryFlags.hostVisible != 0 ? $0 | MemoryFlags.hostCoherent : $0 }
        guard let type = memoryType(allowedTypes: requirements.memoryTypeBits, choices: acceptable) else {
            throw VulkanError(call: "vkAllocateMemory",
                              reason: "no memory type fits a \(byteCount)-byte buffer on \(deviceInfo.name)")
        }
        var allocation = VkMemoryAllocateInfo()
        allocation.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO
        allocation.allocationSize = requirements.size
        allocation.memoryTypeIndex = type.index
        var memory: VkDeviceMemory?
        try check(vkAllocateMemory(device, &allocation, nil, &memory), "vkAllocateMemory")
        guard let memory else { throw VulkanError(call: "vkAllocateMemory", reason: "returned no memory") }
        let bound = vkBindBufferMemory(device, buffer, memory, 0)
        if bound != VK_SUCCESS {
            vkFreeMemory(device, memory, nil)
            throw VulkanError(call: "vkBindBufferMemory", result: bound.rawValue)
        }
        return (memory, type.flags)
    }
}
