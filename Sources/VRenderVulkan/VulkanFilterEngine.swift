internal import CVulkan
import VRenderCore
import VRenderFilters

/// Runs a chain of `ColorProgram`s on frames of one geometry with Vulkan compute: the same
/// bytes as calling `referenceApply` for each program in turn.
///
/// Made once per export. Everything is created up front: one compute pipeline, and `depth`
/// slots, each with a device buffer for a frame (plus a host-visible staging buffer when the
/// device's memory is separate), a descriptor set, a command buffer recorded once (upload copy,
/// one dispatch per program, download copy) and a fence. Per frame there is no allocation, no
/// recording and no pipeline work: `submit` copies the frame into a free slot and submits its
/// command buffer; `collect` waits for that slot's fence and copies the result out. With
/// `depth` 2-3, the host uploads frame n+1 and downloads frame n-1 while the device filters
/// frame n:
///
///     var tickets: [VulkanFilterEngine.Ticket] = []
///     for frame in frames {
///         if engine.isFull { try engine.collect(tickets.removeFirst(), into: output(for: ...)) }
///         tickets.append(try engine.submit(source: frame))
///     }
///     for ticket in tickets { try engine.collect(ticket, into: ...) }
///
/// Thread safety: none; one thread or task uses an engine (and its context) at a time.
/// `submit` copies the source before it returns, so the caller may reuse the source at once.
public final class VulkanFilterEngine {
    /// A frame in flight, redeemed once with `collect`.
    public struct Ticket: Sendable, Hashable {
        let slot: Int
        let sequence: UInt64
    }

    /// Slots when the caller does not choose: enough to overlap upload, compute and download.
    public static let defaultDepth = 3

    public let context: VulkanContext
    public let geometry: VulkanFrameGeometry
    public let programs: [ColorProgram]
    /// The most frames that can be submitted and not yet collected.
    public let depth: Int
    /// True when frames go through host-visible staging buffers to device-local memory (a GPU
    /// with memory of its own); false when the device reads host-visible memory directly
    /// (integrated GPUs, lavapipe).
    public let usesStagingBuffers: Bool

    let layout: FrameLayout
    var slots: [Slot]
    private var nextSequence: UInt64 = 0
    private let teardown: Teardown

    /// One frame's worth of resources; `ticket` is the frame in it, nil when it is free.
    struct Slot {
        let frame: DeviceBuffer
        let staging: DeviceBuffer?
        let commandBuffer: OpaquePointer
        let fence: OpaquePointer
        var ticket: Ticket?

        /// Where the host writes the source and reads the result.
        var hostBase: UnsafeMutableRawPointer {
            guard let mapped = (staging ?? frame).mapped else { preconditionFailure("slot memory is not mapped") }
            return mapped
        }
    }

    /// Opens a context for `preference` (see `VulkanContext.init(preference:)`) and an engine on it.
    public convenience init(preference: VulkanDevicePreference, geometry: VulkanFrameGeometry,
                            programs: [ColorProgram], depth: Int = VulkanFilterEngine.defaultDepth) throws {
        try self.init(context: VulkanContext(preference: preference), geometry: geometry, programs: programs,
                      depth: depth)
    }

    /// Creates the pipeline and `depth` slots for frames of `geometry`; `programs` run in order
    /// (none: frames come back unchanged). Wraps the `vkCreate*`/`vkAllocate*` calls listed in
    /// `VulkanFilterEngine+Setup.swift` and records the command buffers.
    ///
    /// - Throws: `VulkanError` when a Vulkan call fails or the geometry is unsupported
    ///   (chroma must cover 1-4 luma samples each way; the frame must fit the device's limits).
    public convenience init(context: VulkanContext, geometry: VulkanFrameGeometry, programs: [ColorProgram],
                            depth: Int = VulkanFilterEngine.defaultDepth) throws {
        try self.init(context: context, geometry: geometry, programs: programs, depth: depth, alwaysStage: false)
    }

    /// `alwaysStage` forces the staging path even where the device reads host memory directly,
    /// so tests on lavapipe cover the copies and barriers a discrete GPU needs.
    init(context: VulkanContext, geometry: VulkanFrameGeometry, programs: [ColorProgram], depth: Int,
         alwaysStage: Bool) throws {
        precondition((1...8).contains(depth), "depth must be 1 to 8 frames")
        let layout = try FrameLayout(geometry)
        try Self.checkLimits(of: context, for: layout)
        let teardown = Teardown()
        let table = try Self.makeProgramTable(programs, context: context, teardown: teardown)
        let pipeline = try Pipeline(context: context, layout: layout, teardown: teardown)
        let descriptorSets = try pipeline.makeDescriptorSets(count: depth, context: context, teardown: teardown)
        let commandBuffers = try Self.allocateCommandBuffers(count: depth, context: context, teardown: teardown)

        var slots: [Slot] = []
        for index in 0..<depth {
            let frame = try context.makeBuffer(
                byteCount: layout.byteCount,
                usage: VK_BUFFER_USAGE_STORAGE_BUFFER_BIT.rawValue | VK_BUFFER_USAGE_TRANSFER_SRC_BIT.rawValue
                    | VK_BUFFER_USAGE_TRANSFER_DST_BIT.rawValue,
                // Memory both sides read fast (unified memory) first; else the device's own.
                choices: [MemoryFlags.deviceLocal | MemoryFlags.hostShared | MemoryFlags.hostCached,
                          MemoryFlags.deviceLocal, 0],
                teardown: teardown)
            var staging: DeviceBuffer?
            if alwaysStage || frame.mapped == nil || !frame.hasFlags(MemoryFlags.hostCached) {
                // Uncached host-visible memory is very slow for the host to read back: stage.
                staging = try context.makeBuffer(
                    byteCount: layout.byteCount,
                    usage: VK_BUFFER_USAGE_TRANSFER_SRC_BIT.rawValue | VK_BUFFER_USAGE_TRANSFER_DST_BIT.rawValue,
                    choices: [MemoryFlags.hostShared | MemoryFlags.hostCached, MemoryFlags.hostShared],
                    teardown: teardown)
            }
            pipeline.bind(frame: frame, programs: table, to: descriptorSets[index], context: context)
            try Self.record(commandBuffers[index], frame: frame, staging: staging, pipeline: pipeline,
                            descriptorSet: descriptorSets[index], layout: layout, programCount: programs.count)
            let fence = try Self.makeFence(context: context, teardown: teardown)
            slots.append(Slot(frame: frame, staging: staging, commandBuffer: commandBuffers[index], fence: fence))
        }

        self.context = context
        self.geometry = geometry
        self.programs = programs
        self.depth = depth
        self.usesStagingBuffers = slots[0].staging != nil
        self.layout = layout
        self.slots = slots
        self.teardown = teardown
    }

    deinit {
        // Resources in use by the device are freed only after their fence has signalled.
        var pending = slots.filter { $0.ticket != nil }.map { Optional($0.fence) }
        if !pending.isEmpty {
            _ = vkWaitForFences(context.device, UInt32(pending.count), &pending, VkBool32(VK_TRUE), UInt64.max)
        }
        teardown.run()
    }

    /// Frames submitted and not yet collected.
    public var framesInFlight: Int { slots.reduce(0) { $0 + ($1.ticket == nil ? 0 : 1) } }

    /// True when every slot holds a frame: `collect` one before the next `submit`.
    public var isFull: Bool { framesInFlight == depth }

    /// Copies `source` into a free slot and starts filtering it. Wraps `vkResetFences` and
    /// `vkQueueSubmit`. The source may be reused as soon as this returns.
    ///
    /// - Precondition: `source` has the engine's geometry and a slot is free (`!isFull`).
    public func submit(source: YUVImage) throws -> Ticket {
        precondition(geometry.matches(source), "frame \(VulkanFrameGeometry(of: source)) does not match the engine's \(geometry)")
        guard let index = slots.firstIndex(where: { $0.ticket == nil }) else {
            preconditionFailure("all \(depth) slots hold frames: collect one before submitting another")
        }
        let slot = slots[index]
        // Host writes made before vkQueueSubmit are visible to the device without a barrier
        // (the submission is a host-write memory dependency, and the memory is host-coherent).
        layout.upload(source, to: slot.hostBase)

        var fence: VkFence? = slot.fence
        try check(vkResetFences(context.device, 1, &fence), "vkResetFences")
        var commandBuffer: VkCommandBuffer? = slot.commandBuffer
        let result = withUnsafePointer(to: &commandBuffer) { commandBuffers in
            var submit = VkSubmitInfo()
            submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO
            submit.commandBufferCount = 1
            submit.pCommandBuffers = commandBuffers
            return vkQueueSubmit(context.queue, 1, &submit, slot.fence)
        }
        try check(result, "vkQueueSubmit")

        nextSequence += 1
        let ticket = Ticket(slot: index, sequence: nextSequence)
        slots[index].ticket = ticket
        return ticket
    }

    /// Waits until the frame of `ticket` is filtered and copies it into `destination` (only its
    /// samples: padding and bytes outside its rows are left alone). Frees the slot. Wraps
    /// `vkWaitForFences`.
    ///
    /// - Throws: `VulkanError` if the device fails (`VK_ERROR_DEVICE_LOST`) or takes longer
    ///   than a minute for one frame; the ticket then stays in flight.
    /// - Precondition: the ticket came from this engine's `submit` and was not collected yet;
    ///   `destination` has the engine's geometry.
    public func collect(_ ticket: Ticket, into destination: YUVImage) throws {
        precondition(slots.indices.contains(ticket.slot) && slots[ticket.slot].ticket == ticket,
                     "ticket was already collected or belongs to another engine")
        precondition(geometry.matches(destination),
                     "frame \(VulkanFrameGeometry(of: destination)) does not match the engine's \(geometry)")
        let slot = slots[ticket.slot]
        var fence: VkFence? = slot.fence
        let result = vkWaitForFences(context.device, 1, &fence, VkBool32(VK_TRUE), 60_000_000_000)
        if result == VK_TIMEOUT {
            throw VulkanError(call: "vkWaitForFences", reason: "a frame took more than 60 s on \(context.deviceInfo.name)")
        }
        try check(result, "vkWaitForFences")
        // The command buffer's last barrier made the result visible to host reads.
        layout.download(from: slot.hostBase, into: destination)
        slots[ticket.slot].ticket = nil
    }

    /// Filters one frame and waits for it: `submit` then `collect`. `destination` may be `source`.
    public func process(source: YUVImage, into destination: YUVImage) throws {
        let ticket = try submit(source: source)
        try collect(ticket, into: destination)
    }
}
