import Foundation
import Testing
import VRenderStudio
import VRenderStudioServer

/// Issue 23's security acceptance: the token beyond loopback, the Host and Origin checks, and
/// the WebSocket's handshake.
@Suite struct StudioSecurityTests {
    @Test func everyRequestNeedsTheToken() async throws {
        let backend = FakeBackend()
        let media = try MediaFolder()
        backend.serve("thumbnails/take.png", from: media.file)
        try await withStudioServer(backend, token: "s3cret") { server in
            #expect(server.url == "http://127.0.0.1:\(server.port)/?token=s3cret")
            // The page's own script and stylesheet carry nothing of this studio: the page's tags
            // load them without the token.
            #expect(try await RawHTTP.get(port: server.port, "/studio.js").status == 200)
            #expect(try await RawHTTP.get(port: server.port, "/studio.css").status == 200)
            for path in ["/", "/api/state", "/api/filter-grid.png", "/media/thumbnails/take.png", "/nothing"] {
                #expect(try await RawHTTP.get(port: server.port, path).status == 401, "\(path)")
                #expect(try await RawHTTP.get(port: server.port, path + "?token=s3cre").status == 401, "\(path)")
                #expect(try await RawHTTP.get(port: server.port, path, headers: ["X-VRender-Token": "s3cret!"]).status == 401)
            }
            let post = try await RawHTTP.post(port: server.port, "/api/record", json: #"{"record":true}"#)
            #expect(post.status == 401)
            // hummingbird-websocket answers every refused upgrade with its own 400.
            let socket = try await WebSocketProbe.open(port: server.port, origin: "http://127.0.0.1:\(server.port)")
            #expect(socket.status == 400)
            #expect(backend.subscriptions == 0)

            #expect(try await RawHTTP.get(port: server.port, "/?token=s3cret").status == 200)
            #expect(try await RawHTTP.get(port: server.port, "/media/thumbnails/take.png?token=s3cret").status == 200)
            #expect(try await RawHTTP.get(port: server.port, "/api/state", headers: ["X-VRender-Token": "s3cret"]).status == 200)
            let allowed = try await WebSocketProbe.open(port: server.port, path: "/ws?token=s3cret",
                                                        origin: "http://127.0.0.1:\(server.port)")
            #expect(allowed.status == 101)
        }
        #expect(backend.actions.isEmpty)
    }

    @Test func anotherHostNameIsRefused() async throws {
        try await withStudioServer(FakeBackend()) { server in
            let port = server.port
            let hosts = ["evil.example:\(port)": 403, "127.0.0.1:\(port + 1)": 403, "localhost:\(port)": 200, "[::1]:\(port)": 200]
            for (host, status) in hosts {
                let response = try await RawHTTP.request(port: port, "GET", "/", host: host)
                #expect(response.status == status, "\(host)")
            }
        }
    }

    @Test func aPostFromAnotherOriginIsRefused() async throws {
        let backend = FakeBackend()
        try await withStudioServer(backend) { server in
            let foreign = try await RawHTTP.post(port: server.port, "/api/record", json: #"{"record":true}"#,
                                                 headers: ["Origin": "http://evil.example"])
            #expect(foreign.status == 403)
            #expect(backend.actions.isEmpty)
            let own = try await RawHTTP.post(port: server.port, "/api/record", json: #"{"record":true}"#,
                                             headers: ["Origin": "http://127.0.0.1:\(server.port)"])
            #expect(own.status == 200)
        }
        #expect(backend.actions == [.record(true)])
    }

    @Test func theWebSocketChecksOriginThenSendsStateAndPreviews() async throws {
        let backend = FakeBackend()
        try await withStudioServer(backend) { server in
            // Refused upgrades: hummingbird-websocket answers them with its own 400.
            let foreign = try await WebSocketProbe.open(port: server.port, origin: "http://evil.example")
            #expect(foreign.status == 400)
            let none = try await WebSocketProbe.open(port: server.port, origin: nil)
            #expect(none.status == 400)
            #expect(backend.subscriptions == 0)
            // Without an upgrade, /ws says what it is (after the same Origin check).
            #expect(try await RawHTTP.get(port: server.port, "/ws", headers: ["Origin": "http://evil.example"]).status == 403)
            #expect(try await RawHTTP.get(port: server.port, "/ws", headers: ["Origin": "http://127.0.0.1:\(server.port)"]).status == 426)

            let own = try await WebSocketProbe.open(port: server.port, origin: "http://127.0.0.1:\(server.port)", frames: 3)
            #expect(own.status == 101)
            #expect(backend.subscriptions == 1)
            try #require(own.frames.count == 3)
            #expect(own.frames[0].opcode == 1)
            #expect(try stateVersion(own.frames[0].payload) == 42)
            // The newer state and the preview come from two streams, in either order.
            let rest = own.frames.dropFirst()
            #expect(rest.filter { $0.opcode == 2 }.map(\.payload) == [backend.firstPreview.bytes])
            let states = rest.filter { $0.opcode == 1 }
            try #require(states.count == 1)
            #expect(try stateVersion(states[0].payload) == 43)
            // The probe closed its socket: the server ends the page's subscription.
            var cancellations = backend.cancellations.makeAsyncIterator()
            #expect(await cancellations.next() != nil)
        }
    }
}

/// Stopping the studio (cancelling `run`) with a page still connected returns, and the page's
/// socket is closed: the CLI's Ctrl-C must not wait for the browser.
@Suite struct StudioServerStopTests {
    @Test func cancellingTheServerClosesAnOpenWebSocket() async throws {
        let backend = FakeBackend()
        let server = StudioServer(backend: backend, host: "127.0.0.1", port: 0, token: nil)
        let (urls, input) = AsyncStream.makeStream(of: String.self)
        let task = Task { try await server.run { input.yield($0.url) } }
        var iterator = urls.makeAsyncIterator()
        let url = try #require(await iterator.next())
        let port = try #require(URLComponents(string: url)?.port)
        let socket = try await onThread {
            let socket = try RawSocket(port: port)
            try socket.send(Array(("GET /ws HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\n"
                + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                + "Origin: http://127.0.0.1:\(port)\r\n\r\n").utf8))
            #expect(try socket.readHead().status == 101)
            #expect(try socket.readFrame().opcode == 1)
            return socket
        }
        task.cancel()
        // Stopping is the normal end: `run` returns without an error.
        await #expect(throws: Never.self) { try await task.value }
        var cancellations = backend.cancellations.makeAsyncIterator()
        #expect(await cancellations.next() != nil)
        // What is left on the socket ends (a close frame at most): the server let the page go.
        let rest = try await onThread { try socket.readToEnd() }
        #expect(rest.count < 4096)
    }
}

/// The version of a `{"type":"state","state":{...}}` message.
func stateVersion(_ payload: [UInt8]) throws -> Int? {
    let message = try JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any]
    guard message?["type"] as? String == "state" else { return nil }
    return (message?["state"] as? [String: Any])?["version"] as? Int
}

/// A WebSocket handshake over a raw socket, and the first `frames` frames the server sends.
enum WebSocketProbe {
    struct Result: Sendable {
        var status: Int
        var frames: [(opcode: UInt8, payload: [UInt8])]
    }

    static func open(port: Int, path: String = "/ws", origin: String?, frames: Int = 0) async throws -> Result {
        var head = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        if let origin { head += "Origin: \(origin)\r\n" }
        let request = Array((head + "\r\n").utf8)
        return try await onThread {
            let socket = try RawSocket(port: port)
            try socket.send(request)
            let response = try socket.readHead()
            var result = Result(status: response.status, frames: [])
            if response.status == 101 {
                for _ in 0..<frames { result.frames.append(try socket.readFrame()) }
            }
            return result
        }
    }
}
