import Foundation
import Hummingbird
import HummingbirdWebSocket
import VRenderStudio

/// `/ws`: the live page. On connect the state, then every new state (text) and preview picture
/// (binary) until the page goes. The backend's streams keep only the latest of each, and a
/// write waits for the socket, so a slow page skips pictures instead of queueing them.
struct SocketRoutes: Sendable {
    let backend: any StudioBackend
    let guardian: RequestGuard

    func router() -> Router<BasicWebSocketRequestContext> {
        let router = Router(context: BasicWebSocketRequestContext.self)
        router.add(middleware: GuardMiddleware(guardian: guardian))
        router.ws("ws") { request, _ in
            // Refused (here or by the guard): hummingbird-websocket 2.8 answers 400 itself and
            // offers no way to choose the status; the browser's WebSocket fails either way.
            guardian.refusesOrigin(of: request, required: true) == nil ? .upgrade([:]) : .dontUpgrade
        } onUpgrade: { inbound, outbound, _ in
            try await serve(inbound: inbound, outbound: outbound)
        }
        return router
    }

    private func serve(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
        // Subscribed before the first state is read, so no change falls between the two.
        let subscription = backend.subscribe()
        defer { subscription.cancel() }
        try await outbound.write(.text(try Self.stateMessage(backend.state())))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await state in subscription.states {
                    try await outbound.write(.text(try Self.stateMessage(state)))
                }
            }
            group.addTask {
                for await frame in subscription.previews {
                    try await outbound.write(.binary(ByteBuffer(bytes: frame.bytes)))
                }
            }
            group.addTask {
                // The page sends nothing; reading sees its close (or the connection's end).
                for try await _ in inbound {}
            }
            // Whichever ends first (the page left, the session ended) ends the others.
            _ = try await group.next()
            subscription.cancel()
            group.cancelAll()
        }
    }

    /// `{"type":"state","state":{...}}`
    static func stateMessage(_ state: StudioState) throws -> String {
        struct Message: Encodable {
            let type = "state"
            let state: StudioState
        }
        return String(decoding: try JSONEncoder().encode(Message(state: state)), as: UTF8.self)
    }
}
