internal import CVulkan
import VRenderFilters

/// Words per program in the program table, as `color_program.comp` reads it: the matrix
/// (words 0-8), 7 unused words, then the luma, Cb and Cr curves packed four entries per word.
let programTableStride = 16 + 3 * 64

/// The compute pipeline for `shaders/color_program.comp`, specialized for one block geometry,
/// with its layouts. Destroyed by the owner's `Teardown`.
struct Pipeline {
    let setLayout: OpaquePointer
    let pipelineLayout: OpaquePointer
    let pipeline: OpaquePointer
    /// Bytes of push constants: `FrameLayout.pushConstants`'s eight words.
    static let pushConstantBytes = 32

    /// Wraps `vkCreateDescriptorSetLayout`, `vkCreatePipelineLayout`, `vkCreateShaderModule`
    /// and `vkCreateComputePipelines`.
    init(context: VulkanContext, layout: FrameLayout, teardown: Teardown) throws(VulkanError) {
        let device = context.device
        // Binding 0: the frame, read and written in place. Binding 1: the program table.
        var bindings = (0..<2).map { binding in
            var entry = VkDescriptorSetLayoutBinding()
            entry.binding = UInt32(binding)
            entry.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER
            entry.descriptorCount = 1
            entry.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT.rawValue
            return entry
        }
        let setLayout = try teardown.make("vkCreateDescriptorSetLayout", destroy: { vkDestroyDescriptorSetLayout(device, $0, nil) }) { setLayout in
            bindings.withUnsafeMutableBufferPointer { bindingsPointer in
                var info = VkDescriptorSetLayoutCreateInfo()
                info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO
                info.bindingCount = UInt32(bindingsPointer.count)
                info.pBindings = UnsafePointer(bindingsPointer.baseAddress)
                return vkCreateDescriptorSetLayout(device, &info, nil, &setLayout)
            }
        }

        var range = VkPushConstantRange()
        range.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT.rawValue
        range.offset = 0
        range.size = UInt32(Self.pushConstantBytes)
        var setLayoutHandle: VkDescriptorSetLayout? = setLayout
        let pipelineLayout = try teardown.make("vkCreatePipelineLayout", destroy: { vkDestroyPipelineLayout(device, $0, nil) }) { layout in
            withUnsafePointer(to: &range) { rangePointer in
                withUnsafePointer(to: &setLayoutHandle) { setLayoutPointer in
                    var info = VkPipelineLayoutCreateInfo()
                    info.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO
                    info.setLayoutCount = 1
                    info.pSetLayouts = setLayoutPointer
                    info.pushConstantRangeCount = 1
                    info.pPushConstantRanges = rangePointer
                    return vkCreatePipelineLayout(device, &info, nil, &layout)
                }
            }
        }

        let module = try Teardown.made("vkCreateShaderModule") { module in
            Shaders.colorProgram.withUnsafeBufferPointer { code in
                var info = VkShaderModuleCreateInfo()
                info.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO
                info.codeSize = code.count * MemoryLayout<UInt32>.size
                info.pCode = code.baseAddress
                return vkCreateShaderModule(device, &info, nil, &module)
            }
        }
        // Only pipeline creation needs the module.
        defer { vkDestroyShaderModule(device, module, nil) }

        self.setLayout = setLayout
        self.pipelineLayout = pipelineLayout
        self.pipeline = try teardown.make("vkCreateComputePipelines", destroy: { vkDestroyPipeline(device, $0, nil) }) { pipeline in
            Self.makeComputePipeline(device: device, module: module, layout: pipelineLayout,
                                     blockWidth: layout.blockWidth, blockHeight: layout.blockHeight, into: &pipeline)
        }
    }

    /// The pipeline with BLOCK_W and BLOCK_H (constant ids 0 and 1) specialized, into `pipeline`.
    private static func makeComputePipeline(device: OpaquePointer, module: OpaquePointer, layout: OpaquePointer,
                                            blockWidth: Int, blockHeight: Int, into pipeline: inout OpaquePointer?) -> VkResult {
        var constants: [UInt32] = [UInt32(blockWidth), UInt32(blockHeight)]
        var entries = (0..<2).map { id in
            var entry = VkSpecializationMapEntry()
            entry.constantID = UInt32(id)
            entry.offset = UInt32(id * MemoryLayout<UInt32>.size)
            entry.size = MemoryLayout<UInt32>.size
            return entry
        }
        return "main".withCString { entryPoint in
            constants.withUnsafeMutableBytes { data in
                entries.withUnsafeMutableBufferPointer { entriesPointer in
                    var specialization = VkSpecializationInfo()
                    specialization.mapEntryCount = UInt32(entriesPointer.count)
                    specialization.pMapEntries = UnsafePointer(entriesPointer.baseAddress)
                    specialization.dataSize = data.count
                    specialization.pData = UnsafeRawPointer(data.baseAddress)
                    return withUnsafePointer(to: &specialization) { specializationPointer in
                        var stage = VkPipelineShaderStageCreateInfo()
                        stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO
                        stage.stage = VK_SHADER_STAGE_COMPUTE_BIT
                        stage.module = module
                        stage.pName = entryPoint
                        stage.pSpecializationInfo = specializationPointer
                        var info = VkComputePipelineCreateInfo()
                        info.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO
                        info.stage = stage
                        info.layout = layout
                        return vkCreateComputePipelines(device, nil, 1, &info, nil, &pipeline)
                    }
                }
            }
        }
    }

    /// `count` descriptor sets of the pipeline's layout from a pool of their own. Wraps
    /// `vkCreateDescriptorPool` and `vkAllocateDescriptorSets`.
    func makeDescriptorSets(count: Int, context: VulkanContext, teardown: Teardown) throws(VulkanError) -> [OpaquePointer] {
        let device = context.device
        var size = VkDescriptorPoolSize()
        size.type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER
        size.descriptorCount = UInt32(2 * count)
        // Destroying the pool frees its sets.
        let pool = try teardown.make("vkCreateDescriptorPool", destroy: { vkDestroyDescriptorPool(device, $0, nil) }) { pool in
            withUnsafePointer(to: &size) { sizePointer in
                var info = VkDescriptorPoolCreateInfo()
                info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO
                info.maxSets = UInt32(count)
                info.poolSizeCount = 1
                info.pPoolSizes = sizePointer
                return vkCreateDescriptorPool(device, &info, nil, &pool)
            }
        }

        var layouts = [VkDescriptorSetLayout?](repeating: setLayout, count: count)
        var sets = [VkDescriptorSet?](repeating: nil, count: count)
        let result = layouts.withUnsafeMutableBufferPointer { layoutsPointer in
            var info = VkDescriptorSetAllocateInfo()
            info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO
            info.descriptorPool = pool
            info.descriptorSetCount = UInt32(count)
            info.pSetLayouts = UnsafePointer(layoutsPointer.baseAddress)
            return vkAllocateDescriptorSets(device, &info, &sets)
        }
        try check(result, "vkAllocateDescriptorSets")
        return sets.compactMap { $0 }
    }

    /// Points `set`'s binding 0 at `frame` and binding 1 at the program table. Wraps
    /// `vkUpdateDescriptorSets`.
    func bind(frame: DeviceBuffer, programs: DeviceBuffer, to set: OpaquePointer, context: VulkanContext) {
        var infos = [frame, programs].map { buffer in
            var info = VkDescriptorBufferInfo()
            info.buffer = buffer.buffer
            info.offset = 0
            info.range = VkDeviceSize(VK_WHOLE_SIZE)
            return info
        }
        infos.withUnsafeMutableBufferPointer { infosPointer in
            var writes = (0..<2).map { binding in
                var write = VkWriteDescriptorSet()
                write.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET
                write.dstSet = set
                write.dstBinding = UInt32(binding)
                write.descriptorCount = 1
                write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER
                write.pBufferInfo = UnsafePointer(infosPointer.baseAddress! + binding)
                return write
            }
            vkUpdateDescriptorSets(context.device, UInt32(writes.count), &writes, 0, nil)
        }
    }
}

extension VulkanFilterEngine {
    /// The programs as `color_program.comp` reads them, in a host-visible buffer (device-local
    /// too where the device has such memory: every sample of every frame reads it).
    static func makeProgramTable(_ programs: [ColorProgram], context: VulkanContext,
                                 teardown: Teardown) throws(VulkanError) -> DeviceBuffer {
        var words: [UInt32] = []
        for program in programs {
            words += program.matrix.map { UInt32(bitPattern: $0) }
            words += [UInt32](repeating: 0, count: 16 - program.matrix.count)
            for curve in [program.lumaCurve, program.cbCurve, program.crCurve] {
                for index in stride(from: 0, to: 256, by: 4) {
                    words.append(UInt32(curve[index]) | UInt32(curve[index + 1]) << 8
                                 | UInt32(curve[index + 2]) << 16 | UInt32(curve[index + 3]) << 24)
                }
            }
        }
        // A descriptor needs a buffer even when there is no program to run.
        if words.isEmpty { words = [UInt32](repeating: 0, count: programTableStride) }
        let buffer = try context.makeBuffer(
            byteCount: words.count * MemoryLayout<UInt32>.size, usage: VK_BUFFER_USAGE_STORAGE_BUFFER_BIT.rawValue,
            choices: [MemoryFlags.deviceLocal | MemoryFlags.hostShared, MemoryFlags.hostShared], teardown: teardown)
        guard let mapped = buffer.mapped else { preconditionFailure("host-shared memory is mapped") }
        words.withUnsafeBytes { mapped.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        return buffer
    }

    /// Wraps `vkAllocateCommandBuffers` (primary buffers from the context's pool).
    static func allocateCommandBuffers(count: Int, context: VulkanContext,
                                       teardown: Teardown) throws(VulkanError) -> [OpaquePointer] {
        let (device, pool) = (context.device, context.commandPool)
        var info = VkCommandBufferAllocateInfo()
        info.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO
        info.commandPool = pool
        info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY
        info.commandBufferCount = UInt32(count)
        var buffers = [VkCommandBuffer?](repeating: nil, count: count)
        try check(vkAllocateCommandBuffers(device, &info, &buffers), "vkAllocateCommandBuffers")
        teardown.add { vkFreeCommandBuffers(device, pool, UInt32(buffers.count), &buffers) }
        return buffers.compactMap { $0 }
    }

    /// An unsignalled fence. Wraps `vkCreateFence`.
    static func makeFence(context: VulkanContext, teardown: Teardown) throws(VulkanError) -> OpaquePointer {
        let device = context.device
        var info = VkFenceCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO
        return try teardown.make("vkCreateFence", destroy: { vkDestroyFence(device, $0, nil) }) { vkCreateFence(device, &info, nil, &$0) }
    }

    /// Rejects frames the device cannot address in one storage buffer or dispatch.
    static func checkLimits(of context: VulkanContext, for layout: FrameLayout) throws(VulkanError) {
        let limits = context.limits
        if layout.byteCount > Int(limits.maxStorageBufferRange) {
            throw VulkanError(call: "frame layout", reason: "a \(layout.geometry) frame needs \(layout.byteCount) bytes, "
                              + "more than \(context.deviceInfo.name)'s storage buffer limit of \(limits.maxStorageBufferRange)")
        }
        let groups = workgroupCounts(layout)
        if groups.x > limits.maxComputeWorkGroupCount.0 || groups.y > limits.maxComputeWorkGroupCount.1 {
            throw VulkanError(call: "frame layout", reason: "a \(layout.geometry) frame needs \(groups) workgroups, "
                              + "more than \(context.deviceInfo.name) dispatches")
        }
    }

    /// Workgroups per dispatch: the shader's 64 invocations along a chroma row handle 4 chroma
    /// samples each; one row of workgroups per chroma row.
    static func workgroupCounts(_ layout: FrameLayout) -> (x: UInt32, y: UInt32) {
        (UInt32((layout.chromaStrideWords + 63) / 64), UInt32(layout.geometry.chromaHeight))
    }
}
