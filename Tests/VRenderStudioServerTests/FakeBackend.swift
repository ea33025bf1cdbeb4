import Foundation
import Synchronization
import VRenderCore
import VRenderStudio
import VRenderStudioServer

/// A backend that records what the server asks of it: the actions performed, the media names
/// looked up, the subscriptions cancelled. `refusal` makes every action fail with it.
final class FakeBackend: StudioBackend {
    struct Recorded {
        var actions: [StudioAction] = []
        var mediaNames: [String] = []
        var subscriptions = 0
        var refusal: StudioActionError?
        var media: [String: String] = [:]
    }

    let recorded = Mutex(Recorded())
    let snapshot: StudioState
    /// A preview and a newer state (version 43) every new subscription finds waiting: the
    /// WebSocket forwards both after the state it starts with.
    let firstPreview = PreviewFrame(capturedAtUnixMilliseconds: 1234, sequence: 7, width: 16, height: 8, jpeg: [0xFF, 0xD8, 0xFF, 0xD9])
    /// Yields once for each subscription cancelled.
    let cancellations: AsyncStream<Void>
    private let cancelled: AsyncStream<Void>.Continuation

    init() {
        var state = StudioState(device: "synthetic:test", folder: "/tmp/takes", exportsFolder: "/tmp/exports")
        state.version = 42
        state.filters = ["mono", "warm"]
        snapshot = state
        (cancellations, cancelled) = AsyncStream.makeStream()
    }

    var actions: [StudioAction] { recorded.withLock { $0.actions } }
    var mediaNames: [String] { recorded.withLock { $0.mediaNames } }
    var subscriptions: Int { recorded.withLock { $0.subscriptions } }

    func refuse(_ error: StudioActionError?) { recorded.withLock { $0.refusal = error } }
    func serve(_ name: String, from path: String) { recorded.withLock { $0.media[name] = path } }

    func state() -> StudioState { snapshot }

    func subscribe() -> StudioSubscription {
        recorded.withLock { $0.subscriptions += 1 }
        let (states, stateInput) = AsyncStream.makeStream(of: StudioState.self, bufferingPolicy: .bufferingNewest(1))
        let (previews, previewInput) = AsyncStream.makeStream(of: PreviewFrame.self, bufferingPolicy: .bufferingNewest(1))
        previewInput.yield(firstPreview)
        var changed = snapshot
        changed.version += 1
        stateInput.yield(changed)
        let once = Mutex(false)
        return StudioSubscription(states: states, previews: previews) { [cancelled] in
            stateInput.finish()
            previewInput.finish()
            let first = once.withLock { done in defer { done = true }; return !done }
            if first { cancelled.yield() }
        }
    }

    func perform(_ action: StudioAction) throws {
        try recorded.withLock { recorded in
            if let refusal = recorded.refusal { throw refusal }
            recorded.actions.append(action)
        }
    }

    /// The file `serve` named, through its folder (opened now, as the studio holds its own).
    func mediaLocation(_ kind: MediaKind, name: String) -> MediaLocation? {
        let path: String? = recorded.withLock { recorded in
            recorded.mediaNames.append(name)
            return recorded.media["\(kind.rawValue)/\(name)"]
        }
        guard let path, let folder = try? FolderHandle.open((path as NSString).deletingLastPathComponent) else { return nil }
        return MediaLocation(folder: folder, name: (path as NSString).lastPathComponent)
    }

    func filterGrid() throws -> [UInt8] { [0x89, 0x50, 0x4E, 0x47] }
}

/// A running server on a free port for one test; stopped (its task cancelled) after `body`.
struct RunningServer {
    let port: Int
    let url: String
}

func withStudioServer(_ backend: FakeBackend, host: String = "127.0.0.1", token: String? = nil,
                      limits: ConnectionLimits? = nil, _ body: (RunningServer) async throws -> Void) async throws {
    let server = StudioServer(backend: backend, host: host, port: 0, token: token, limits: limits)
    let (events, input) = AsyncStream.makeStream(of: Result<String, any Error>.self)
    let task = Task {
        do {
            try await server.run { input.yield(.success($0.url)) }
        } catch {
            input.yield(.failure(error))
        }
        input.finish()
    }
    defer { task.cancel() }
    var iterator = events.makeAsyncIterator()
    guard let first = await iterator.next() else { throw RawSocket.Failure("the server ended without listening") }
    let url = try first.get()
    guard let port = URLComponents(string: url)?.port else { throw RawSocket.Failure("no port in \(url)") }
    try await body(RunningServer(port: port, url: url))
    task.cancel()
    _ = await task.result
}
