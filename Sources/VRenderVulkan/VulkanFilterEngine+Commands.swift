internal import CVulkan

extension VulkanFilterEngine {
    /// Records one slot's work once; it is submitted unchanged for every frame in that slot:
    /// (staging → frame copy), one dispatch per program in place on the frame, (frame → staging
    /// copy), with the barriers that order them. Wraps `vkBeginCommandBuffer`,
    /// `vkCmdCopyBuffer`, `vkCmdPipelineBarrier`, `vkCmdBindPipeline`,
    /// `vkCmdBindDescriptorSets`, `vkCmdPushConstants`, `vkCmdDispatch` and `vkEndCommandBuffer`.
    static func record(_ commandBuffer: OpaquePointer, frame: DeviceBuffer, staging: DeviceBuffer?,
                       pipeline: Pipeline, descriptorSet: OpaquePointer, layout: FrameLayout,
                       programCount: Int) throws(VulkanError) {
        var begin = VkCommandBufferBeginInfo()
        begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO
        // No ONE_TIME_SUBMIT (it is resubmitted) and no SIMULTANEOUS_USE (the slot's fence is
        // waited on before the next submission).
        begin.flags = 0
        try check(vkBeginCommandBuffer(commandBuffer, &begin), "vkBeginCommandBuffer")

        // Where the last write to the frame buffer happened, for the barrier after the programs.
        var lastWriteStage = VK_PIPELINE_STAGE_HOST_BIT.rawValue
        var lastWriteAccess = VK_ACCESS_HOST_WRITE_BIT.rawValue
        if let staging {
            copy(commandBuffer, from: staging, to: frame, byteCount: layout.byteCount)
            lastWriteStage = VK_PIPELINE_STAGE_TRANSFER_BIT.rawValue
            lastWriteAccess = VK_ACCESS_TRANSFER_WRITE_BIT.rawValue
        }
        // Without staging the host wrote the frame before vkQueueSubmit, which already makes
        // those writes visible to the device: no barrier is needed before the first program.

        vkCmdBindPipeline(commandBuffer, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.pipeline)
        var set: VkDescriptorSet? = descriptorSet
        vkCmdBindDescriptorSets(commandBuffer, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.pipelineLayout,
                                0, 1, &set, 0, nil)
        let groups = workgroupCounts(layout)
        for program in 0..<programCount {
            if lastWriteStage != VK_PIPELINE_STAGE_HOST_BIT.rawValue {
                // Orders the previous writer of the frame (the upload copy, or the previous
                // program) before this program reads and overwrites the same words in place:
                // a read-after-write and a write-after-write hazard on the frame buffer.
                memoryBarrier(commandBuffer,
                              from: lastWriteStage, lastWriteAccess,
                              to: VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT.rawValue,
                              VK_ACCESS_SHADER_READ_BIT.rawValue | VK_ACCESS_SHADER_WRITE_BIT.rawValue)
            }
            var constants = layout.pushConstants(programOffsetWords: program * programTableStride)
            constants.withUnsafeMutableBytes { bytes in
                vkCmdPushConstants(commandBuffer, pipeline.pipelineLayout, VK_SHADER_STAGE_COMPUTE_BIT.rawValue,
                                   0, UInt32(bytes.count), bytes.baseAddress)
            }
            vkCmdDispatch(commandBuffer, groups.x, groups.y, 1)
            lastWriteStage = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT.rawValue
            lastWriteAccess = VK_ACCESS_SHADER_WRITE_BIT.rawValue
        }

        recordHandBack(commandBuffer, frame: frame, staging: staging, byteCount: layout.byteCount,
                       lastWrite: (lastWriteStage, lastWriteAccess), programCount: programCount)
        try check(vkEndCommandBuffer(commandBuffer), "vkEndCommandBuffer")
    }

    /// Records what makes the filtered frame readable by the host once the fence signals: the
    /// download copy into `staging` (after the frame's last write, `lastWrite`), or, with no
    /// staging buffer, a barrier on the frame itself.
    private static func recordHandBack(_ commandBuffer: OpaquePointer, frame: DeviceBuffer, staging: DeviceBuffer?,
                                       byteCount: Int, lastWrite: (stage: UInt32, access: UInt32), programCount: Int) {
        let (lastWriteStage, lastWriteAccess) = lastWrite
        if let staging {
            if lastWriteStage != VK_PIPELINE_STAGE_HOST_BIT.rawValue {
                // Orders the last write of the frame (the final program, or the upload when there
                // is no program) before the download copy reads it.
                memoryBarrier(commandBuffer, from: lastWriteStage, lastWriteAccess,
                              to: VK_PIPELINE_STAGE_TRANSFER_BIT.rawValue, VK_ACCESS_TRANSFER_READ_BIT.rawValue)
            }
            copy(commandBuffer, from: frame, to: staging, byteCount: byteCount)
            // Makes the download copy's writes to the staging buffer available to host reads
            // once the fence has signalled (`collect` reads right after vkWaitForFences).
            memoryBarrier(commandBuffer, from: VK_PIPELINE_STAGE_TRANSFER_BIT.rawValue,
                          VK_ACCESS_TRANSFER_WRITE_BIT.rawValue,
                          to: VK_PIPELINE_STAGE_HOST_BIT.rawValue, VK_ACCESS_HOST_READ_BIT.rawValue)
        } else if programCount > 0 {
            // Makes the last program's writes to the frame available to host reads once the
            // fence has signalled: the host reads this buffer directly.
            memoryBarrier(commandBuffer, from: VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT.rawValue,
                          VK_ACCESS_SHADER_WRITE_BIT.rawValue,
                          to: VK_PIPELINE_STAGE_HOST_BIT.rawValue, VK_ACCESS_HOST_READ_BIT.rawValue)
        }
    }

    /// Records a copy of the first `byteCount` bytes of `source` into `destination`.
    private static func copy(_ commandBuffer: OpaquePointer, from source: DeviceBuffer, to destination: DeviceBuffer,
                             byteCount: Int) {
        var region = VkBufferCopy()
        region.srcOffset = 0
        region.dstOffset = 0
        region.size = VkDeviceSize(byteCount)
        vkCmdCopyBuffer(commandBuffer, source.buffer, destination.buffer, 1, &region)
    }

    /// Records a global memory barrier (all buffers: the engine's command buffers touch one frame
    /// at a time, so a per-buffer barrier would order nothing more). The caller's comment says
    /// what it orders.
    private static func memoryBarrier(_ commandBuffer: OpaquePointer,
                                      from sourceStage: VkPipelineStageFlags, _ sourceAccess: VkAccessFlags,
                                      to destinationStage: VkPipelineStageFlags, _ destinationAccess: VkAccessFlags) {
        var barrier = VkMemoryBarrier()
        barrier.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER
        barrier.srcAccessMask = sourceAccess
        barrier.dstAccessMask = destinationAccess
        vkCmdPipelineBarrier(commandBuffer, sourceStage, destinationStage, 0, 1, &barrier, 0, nil, 0, nil)
    }
}
