import Foundation
import Synchronization
import VRenderCore

/// The pages watching a session: each gets every state snapshot and preview picture, latest
/// only. A page that reads slowly skips pictures (and intermediate snapshots, which the next
/// one contains) instead of queueing them, so one slow page never holds back the others or
/// the capture.
final class StudioHub: Sendable {
    private struct Watcher {
        let states: AsyncStream<StudioState>.Continuation
        let previews: AsyncStream<PreviewFrame>.Continuation
    }

    private let watchers = Mutex([UUID: Watcher]())

    /// How many pages watch now (the preview is encoded only while one does).
    var count: Int { watchers.withLock { $0.count } }

    /// A new page's streams, starting with `current`.
    func subscribe(current: StudioState) -> StudioSubscription {
        let (states, stateInput) = AsyncStream.makeStream(of: StudioState.self, bufferingPolicy: .bufferingNewest(1))
        let (previews, previewInput) = AsyncStream.makeStream(of: PreviewFrame.self, bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        stateInput.yield(current)
        watchers.withLock { $0[id] = Watcher(states: stateInput, previews: previewInput) }
        let cancel: @Sendable () -> Void = { [weak self] in
            guard let watcher = self?.watchers.withLock({ $0.removeValue(forKey: id) }) else { return }
            watcher.states.finish()
            watcher.previews.finish()
        }
        stateInput.onTermination = { _ in cancel() }
        previewInput.onTermination = { _ in cancel() }
        return StudioSubscription(states: states, previews: previews, cancel: cancel)
    }

    func send(_ state: StudioState) {
        for watcher in watchers.withLock({ Array($0.values) }) { watcher.states.yield(state) }
    }

    func send(_ preview: PreviewFrame) {
        for watcher in watchers.withLock({ Array($0.values) }) { watcher.previews.yield(preview) }
    }

    /// Ends every page's streams (the studio is closing).
    func finish() {
        let all = watchers.withLock { watchers in
            defer { watchers.removeAll() }
            return Array(watchers.values)
        }
        for watcher in all {
            watcher.states.finish()
            watcher.previews.finish()
        }
    }
}
