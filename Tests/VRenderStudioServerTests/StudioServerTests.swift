import Foundation
import Testing
import VRenderCore
@testable import VRenderStudioServer
import VRenderStudio

/// The server's routes against a fake backend, over real sockets (README "vrender studio").
@Suite struct StudioServerTests {
    @Test func servesThePageAndItsAssetsWithTheirTypes() async throws {
        try await withStudioServer(FakeBackend()) { server in
            let expected: [(String, String, [UInt8])] = [
                ("/", "text/html", PackageResources.index_html),
                ("/studio.css", "text/css", PackageResources.studio_css),
                ("/studio.js", "text/javascript", PackageResources.studio_js),
            ]
            for (path, type, bytes) in expected {
                let response = try await RawHTTP.get(port: server.port, path)
                #expect(response.status == 200, "\(path)")
                #expect(response.header("Content-Type")?.hasPrefix(type) == true, "\(path)")
                #expect(response.body == bytes, "\(path)")
                #expect(response.header("Content-Security-Policy")?.contains("default-src 'self'") == true)
                #expect(response.header("X-Content-Type-Options") == "nosniff")
            }
            #expect(try await RawHTTP.get(port: server.port, "/nothing-here").status == 404)
        }
    }

    @Test func answersTheStateAsJSON() async throws {
        let backend = FakeBackend()
        try await withStudioServer(backend) { server in
            let response = try await RawHTTP.get(port: server.port, "/api/state")
            #expect(response.status == 200)
            #expect(response.header("Content-Type")?.hasPrefix("application/json") == true)
            #expect(response.header("Cache-Control") == "no-store")
            #expect(try JSONDecoder().decode(StudioState.self, from: Data(response.body)) == backend.snapshot)
            let grid = try await RawHTTP.get(port: server.port, "/api/filter-grid.png")
            #expect(grid.status == 200 && grid.header("Content-Type") == "image/png" && grid.body == [0x89, 0x50, 0x4E, 0x47])
        }
    }

    @Test func eachPostPerformsItsAction() async throws {
        let posts: [(String, String, StudioAction)] = [
            ("record", #"{"record":true}"#, .record(true)),
            ("record", #"{"record":false}"#, .record(false)),
            ("camera", #"{"lens":0.5}"#, .lens(0.5)),
            ("camera", #"{"zoom":1.75}"#, .zoom(1.75)),
            ("camera", #"{"torch":true}"#, .torch(true)),
            ("camera", #"{"flip":true}"#, .flip),
            ("camera", #"{"exposurePoint":[0.25,0.75]}"#, .exposurePoint(x: 0.25, y: 0.75)),
            ("preview", #"{"filter":"mono"}"#, .previewFilter("mono")),
            ("preview", #"{"filter":""}"#, .previewFilter("")),
            ("prompter", #"{"command":"faster"}"#, .prompter(.faster)),
            ("prompter", #"{"command":"restart"}"#, .prompter(.restart)),
            ("prompter", #"{"box":[0.1,0.2,0.5,0.3]}"#, .prompterBox([0.1, 0.2, 0.5, 0.3])),
            ("takes/delete", #"{"file":"take-002.mov"}"#, .deleteTake(file: "take-002.mov")),
            ("takes/order", #"{"files":["b.mov","a.mov"]}"#, .reorderTakes(files: ["b.mov", "a.mov"])),
            ("export", #"{"filter":"mono","prompter":true}"#, .export(filter: "mono", burnPrompter: true)),
            ("export", #"{"captions":true,"cutRetakes":true}"#, .export(filter: "", burnPrompter: false, captions: true, cutRetakes: true)),
            ("export/cancel", "{}", .cancelExport),
        ]
        let backend = FakeBackend()
        try await withStudioServer(backend) { server in
            for (route, body, _) in posts {
                let response = try await RawHTTP.post(port: server.port, "/api/\(route)", json: body)
                #expect(response.status == 200 && response.text == #"{"ok":true}"#, "\(route) \(body): \(response.text)")
            }
        }
        #expect(backend.actions == posts.map(\.2))
    }

    @Test func postRoutesRefuseGet() async throws {
        try await withStudioServer(FakeBackend()) { server in
            for route in ActionDecoder.routes {
                let response = try await RawHTTP.get(port: server.port, "/api/\(route)")
                #expect(response.status == 405, "\(route)")
                #expect(response.header("Allow") == "POST")
            }
        }
    }

    @Test func badBodiesAreRefusedNamingTheField() async throws {
        let bad: [(String, String, String)] = [
            ("record", "{not json", "not JSON"),
            ("record", "[true]", "JSON object"),
            ("record", #"{"record":1}"#, "\"record\""),
            ("record", #"{"record":true,"extra":1}"#, "\"extra\""),
            ("camera", #"{"lens":3}"#, "\"lens\""),
            ("camera", #"{"zoom":2,"torch":true}"#, "exactly one"),
            ("camera", #"{"exposurePoint":[0.5]}"#, "\"exposurePoint\""),
            ("prompter", #"{"command":"sideways"}"#, "\"command\""),
            ("prompter", #"{"box":[0,0,2,1]}"#, "\"box\""),
            ("takes/order", #"{"files":["a",3]}"#, "\"files\""),
            ("takes/delete", "{}", "\"file\" is missing"),
        ]
        let backend = FakeBackend()
        try await withStudioServer(backend) { server in
            for (route, body, named) in bad {
                let response = try await RawHTTP.post(port: server.port, "/api/\(route)", json: body)
                #expect(response.status == 400, "\(route) \(body)")
                let message = try JSONDecoder().decode([String: String].self, from: Data(response.body))["error"]
                #expect(message?.contains(named) == true, "\(route) \(body): \(message ?? "")")
            }
            let plain = try await RawHTTP.post(port: server.port, "/api/record", json: #"{"record":true}"#,
                                               headers: ["Content-Type": "text/plain"])
            #expect(plain.status == 415)
            let huge = #"{"files":["# + String(repeating: #""a","#, count: 20_000) + #""a"]}"#
            #expect(try await RawHTTP.post(port: server.port, "/api/takes/order", json: huge).status == 413)
        }
        #expect(backend.actions.isEmpty)
    }

    @Test func refusalsKeepTheirStatusAndMessage() async throws {
        let backend = FakeBackend()
        backend.refuse(StudioActionError(status: 409, "cannot export while recording"))
        try await withStudioServer(backend) { server in
            let response = try await RawHTTP.post(port: server.port, "/api/export", json: "{}")
            #expect(response.status == 409)
            #expect(response.text == #"{"error":"cannot export while recording"}"#)
        }
    }

    @Test func aSecondServerOnTheSamePortIsAClearError() async throws {
        try await withStudioServer(FakeBackend()) { server in
            let second = StudioServer(backend: FakeBackend(), host: "127.0.0.1", port: server.port, token: nil)
            do {
                try await second.run { _ in Issue.record("the second server listened") }
                Issue.record("the second server ran")
            } catch let error as VRenderError {
                #expect(error.subject == "--port")
                #expect(error.reason.contains("port \(server.port) on 127.0.0.1 is in use"), "\(error)")
                #expect(error.reason.contains("choose another with --port"))
            }
        }
    }

    @Test func beyondLoopbackWithoutATokenIsRefusedBeforeListening() async throws {
        let server = StudioServer(backend: FakeBackend(), host: "0.0.0.0", port: 0, token: nil)
        let error = await #expect(throws: VRenderError.self) {
            try await server.run { _ in Issue.record("listened without a token") }
        }
        #expect(error?.subject == "--host")
    }

    @Test func anAddressNotOfThisMachineIsAClearError() async throws {
        // 203.0.113.0/24 is documentation-only (RFC 5737): no machine has it.
        let server = StudioServer(backend: FakeBackend(), host: "203.0.113.7", port: 0, token: "t")
        let error = await #expect(throws: VRenderError.self) {
            try await server.run { _ in Issue.record("listened on an address it does not have") }
        }
        #expect(error?.subject == "--host")
        #expect(error?.reason.contains("203.0.113.7 is not an address of this machine") == true, "\(String(describing: error))")
    }

    @Test func randomTokensAreLongAndDiffer() {
        let tokens = Set((0..<8).map { _ in StudioServer.randomToken() })
        #expect(tokens.count == 8)
        #expect(tokens.allSatisfy { $0.count == 32 && $0.allSatisfy(\.isHexDigit) })
    }

    @Test func hostHeadersNameThisServer() {
        let listening = ListeningPort()
        let loopback = RequestGuard(boundHost: "127.0.0.1", token: nil, listening: listening)
        #expect(!loopback.acceptsHost("127.0.0.1:8750"), "nothing before listening")
        listening.set(8750)
        for host in ["127.0.0.1:8750", "LOCALHOST:8750", "[::1]:8750"] { #expect(loopback.acceptsHost(host), "\(host)") }
        for host in ["127.0.0.1", "127.0.0.1:8751", "evil.example:8750", "127.0.0.1.evil:8750", ":8750"] {
            #expect(!loopback.acceptsHost(host), "\(host)")
        }
        let lan = RequestGuard(boundHost: "192.168.1.5", token: "t", listening: listening)
        #expect(lan.acceptsHost("192.168.1.5:8750") && !lan.acceptsHost("192.168.1.6:8750"))
        let everywhere = RequestGuard(boundHost: "0.0.0.0", token: "t", listening: listening)
        #expect(everywhere.acceptsHost("studio-box.lan:8750") && !everywhere.acceptsHost("studio-box.lan:80"))
        // Port 80: browsers send the name alone.
        listening.set(80)
        #expect(loopback.acceptsHost("127.0.0.1") && loopback.acceptsHost("[::1]") && loopback.acceptsHost("localhost:80"))
        #expect(!loopback.acceptsHost("127.0.0.1:81") && !loopback.acceptsHost("evil.example"))
    }

    @Test func tokensCompareWhole() {
        let token = Array("s3cret".utf8)
        #expect(RequestGuard.constantTimeEqual(token, token))
        #expect(!RequestGuard.constantTimeEqual([], token))
        #expect(!RequestGuard.constantTimeEqual(Array("s3cre".utf8), token))
        #expect(!RequestGuard.constantTimeEqual(Array("s3creT".utf8), token))
        // Longer by a multiple of 256 bytes, the right token first: still wrong.
        #expect(!RequestGuard.constantTimeEqual(token + [UInt8](repeating: 0x41, count: 256), token))
    }

    @Test func byteRangesFollowHTTP() {
        #expect(ByteRange.parse(nil, size: 10) == .whole)
        #expect(ByteRange.parse("bytes=2-5", size: 10) == .part(2..<6))
        #expect(ByteRange.parse("bytes=4-", size: 10) == .part(4..<10))
        #expect(ByteRange.parse("bytes=-3", size: 10) == .part(7..<10))
        #expect(ByteRange.parse("bytes=8-99", size: 10) == .part(8..<10))
        #expect(ByteRange.parse("bytes=10-", size: 10) == .unsatisfiable)
        #expect(ByteRange.parse("bytes=-0", size: 10) == .unsatisfiable)
        #expect(ByteRange.parse("bytes=5-2", size: 10) == .whole)
        #expect(ByteRange.parse("bytes=0-1,4-5", size: 10) == .whole)
        #expect(ByteRange.parse("items=0-1", size: 10) == .whole)
    }
}
