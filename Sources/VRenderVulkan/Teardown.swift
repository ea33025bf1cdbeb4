internal import CVulkan

/// Destroys Vulkan objects in the reverse order of their creation.
///
/// Every `vkCreate*`/`vkAllocate*` that succeeds is immediately followed by `add` with its
/// matching destroy call, so an initializer that throws halfway releases exactly what it had
/// made (when its local `Teardown` goes away) and a finished owner releases everything from its
/// `deinit`, children before parents, without a hand-written list that can drift out of order.
/// Not thread-safe: it belongs to one owner.
final class Teardown {
    private var steps: [() -> Void] = []

    func add(_ step: @escaping () -> Void) {
        steps.append(step)
    }

    /// Runs every step, newest first; running again does nothing.
    func run() {
        while let step = steps.popLast() {
            step()
        }
    }

    deinit {
        run()
    }
}

extension Teardown {
    /// Makes one Vulkan object: runs `create` (a `vkCreate*` call filling in the handle it is
    /// given), checks its result and the handle, and adds `destroy` for it. Throws
    /// `VulkanError` naming `call` when either fails.
    func make(_ call: String, destroy: @escaping (OpaquePointer) -> Void,
              _ create: (inout OpaquePointer?) -> VkResult) throws(VulkanError) -> OpaquePointer {
        let handle = try Teardown.made(call, create)
        add { destroy(handle) }
        return handle
    }

    /// `make` for an object the caller destroys itself (a shader module, needed only while
    /// the pipeline is made).
    static func made(_ call: String, _ create: (inout OpaquePointer?) -> VkResult) throws(VulkanError) -> OpaquePointer {
        var handle: OpaquePointer?
        try check(create(&handle), call)
        guard let handle else { throw VulkanError(call: call, reason: "returned nothing") }
        return handle
    }
}
