import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import VRenderCore
import VRenderStudio

/// The studio's web server: the page, the state and actions (`/api/...`), the takes' media and
/// the live WebSocket, all over one `StudioBackend`. The CLI builds one and runs it until the
/// user stops the studio; everything it answers is checked by `RequestGuard` first.
package struct StudioServer: Sendable {
    let backend: any StudioBackend
    let host: String
    let port: Int
    let token: String?
    let limits: ConnectionLimits?

    /// `port` 0 picks any free port (`run` reports the real one). `token`: required on every
    /// request when set; a host beyond loopback must have one. `limits`: nil raises the
    /// descriptor limit and derives them from it (`ConnectionLimits.forDescriptors`).
    package init(backend: any StudioBackend, host: String, port: Int, token: String?, limits: ConnectionLimits? = nil) {
        self.backend = backend
        self.host = host
        self.port = port
        self.token = token
        self.limits = limits
    }

    /// Serves until the calling task is cancelled, then returns. `onListening` gets the page's
    /// address (its URLs carry `?token=` when there is one) once the socket is bound. A port in
    /// use or an address that is not this machine's is a `VRenderError` naming the option to change.
    package func run(onListening: @escaping @Sendable (PageAddress) -> Void) async throws {
        try checkSettings()
        let listening = ListeningPort()
        let guardian = RequestGuard(boundHost: host, token: token, listening: listening)
        let app = Application(
            router: HTTPRoutes(backend: backend, guardian: guardian).router(),
            server: watchedServer(guardian: guardian),
            configuration: .init(address: .hostname(host, port: port)),
            onServerRunning: { [host, token] channel in
                let port = channel.localAddress?.port ?? 0
                listening.set(port)
                onListening(PageAddress(host: host, port: port, token: token))
            },
            logger: Self.quietLogger()
        )
        do {
            try await app.run()
        } catch {
            // Stopping is how the studio ends, not a failure.
            if Task.isCancelled { return }
            // Once listening, failures are the server's own; before, they are the address's.
            if listening.port != 0 {
                throw VRenderError(.runtime, subject: "http://\(host):\(listening.port)", reason: "the studio's server stopped: \(error)")
            }
            throw bindFailure(error)
        }
    }

    /// HTTP/1 with the WebSocket upgrade, every connection watched (`ConnectionWatch`): at most
    /// `limits.maximum` open, each closed when silent or idle too long.
    private func watchedServer(guardian: RequestGuard) -> HTTPServerBuilder {
        let limits = limits ?? ConnectionLimits.forDescriptors(ConnectionLimits.raiseDescriptorLimit())
        let table = ConnectionTable(maximum: limits.maximum)
        let sockets = SocketRoutes(backend: backend, guardian: guardian).router().buildResponder()
        let configuration = HTTP1WebSocketUpgradeChannel.Configuration(http1: .init(idleTimeout: TimeAmount(limits.idleTimeout)))
        return HTTPServerBuilder { responder in
            WatchedChildChannel(inner: HTTP1WebSocketUpgradeChannel(responder: responder, webSocketResponder: sockets,
                                                                    configuration: configuration),
                                table: table, headerTimeout: limits.headerTimeout)
        }
    }

    /// A token for `--host` beyond loopback: 128 random bits as 32 hex digits (URL-safe, so
    /// the printed URL carries it as it is).
    package static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in
            let word = String(generator.next() as UInt32, radix: 16)
            return String(repeating: "0", count: 8 - word.count) + word
        }.joined()
    }

    private func checkSettings() throws {
        guard (0...65535).contains(port) else {
            throw VRenderError.option("--port", "\(port) is not a port number (0...65535; 0 picks a free one)")
        }
        if let token, token.isEmpty {
            throw VRenderError.option("--host", "the access token is empty")
        }
        // Beyond loopback anyone on the network can connect: only the token keeps them out.
        if token == nil && !RequestGuard.isLoopback(host) {
            throw VRenderError.option("--host", "serving on \(host) (beyond this machine) needs an access token")
        }
    }

    /// Turns the socket layer's error into what the user should change.
    private func bindFailure(_ error: any Error) -> any Error {
        if error is VRenderError { return error }
        let address = "\(host):\(port)"
        if let io = error as? IOError {
            switch io.errnoCode {
            case EADDRINUSE:
                return VRenderError.option("--port", "port \(port) on \(host) is in use (another vrender studio?): choose another with --port")
            case EACCES:
                return VRenderError.option("--port", "port \(port) needs privileges on \(host): choose one above 1023 with --port")
            case EADDRNOTAVAIL:
                return VRenderError.option("--host", "\(host) is not an address of this machine: choose one it has with --host")
            default:
                break
            }
        }
        if error is SocketAddressError {
            return VRenderError.option("--host", "\(host) is not an address or a name this machine can resolve: check --host")
        }
        return VRenderError(.runtime, subject: address, reason: "cannot serve the studio: \(error)")
    }

    /// Hummingbird logs requests, and stopping the server (a cancellation) as an error: the
    /// studio says what matters itself, so only its critical lines pass.
    private static func quietLogger() -> Logger {
        var logger = Logger(label: "vrender.studio")
        logger.logLevel = .critical
        return logger
    }
}
