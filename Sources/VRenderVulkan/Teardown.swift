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
