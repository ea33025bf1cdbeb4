import Foundation
import Testing
import VRenderStudio
import VRenderStudioServer
import VRenderTestSupport

/// A temporary folder with one 1000-byte media file (bytes 0, 1, ... 255, 0, ...) and a link to it.
struct MediaFolder {
    let folder: URL
    let file: String
    let link: String
    let bytes: [UInt8] = (0..<1000).map { UInt8($0 % 256) }

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("vrender-media-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        file = folder.appendingPathComponent("take.png").path
        link = folder.appendingPathComponent("link.png").path
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: file)
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }
}

/// `/media/KIND/NAME`: names checked before the backend sees them, links refused, ranges served.
@Suite struct StudioMediaTests {
    @Test func servesAFileWholeAndInRanges() async throws {
        let media = try MediaFolder()
        defer { media.remove() }
        let backend = FakeBackend()
        backend.serve("thumbnails/take.png", from: media.file)
        backend.serve("exports/export.mp4", from: media.file)
        try await withStudioServer(backend) { server in
            let whole = try await RawHTTP.get(port: server.port, "/media/thumbnails/take.png")
            #expect(whole.status == 200 && whole.body == media.bytes)
            #expect(whole.header("Content-Type") == "image/png")
            #expect(whole.header("Accept-Ranges") == "bytes" && whole.header("Cache-Control") == "no-store")

            let part = try await RawHTTP.get(port: server.port, "/media/exports/export.mp4", headers: ["Range": "bytes=300-555"])
            #expect(part.status == 206)
            #expect(part.header("Content-Type") == "video/mp4")
            #expect(part.header("Content-Range") == "bytes 300-555/1000")
            #expect(part.body == Array(media.bytes[300...555]))

            let tail = try await RawHTTP.get(port: server.port, "/media/exports/export.mp4", headers: ["Range": "bytes=-10"])
            #expect(tail.status == 206 && tail.body == Array(media.bytes[990...]))

            let outside = try await RawHTTP.get(port: server.port, "/media/exports/export.mp4", headers: ["Range": "bytes=1000-"])
            #expect(outside.status == 416 && outside.header("Content-Range") == "bytes */1000")
        }
    }

    @Test func aFileOfManyChunksArrivesWhole() async throws {
        let media = try MediaFolder()
        defer { media.remove() }
        let big = media.folder.appendingPathComponent("export.mov")
        let bytes = (0..<(3 * 256 * 1024 + 5)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try Data(bytes).write(to: big)
        let backend = FakeBackend()
        backend.serve("exports/export.mov", from: big.path)
        try await withStudioServer(backend) { server in
            let response = try await RawHTTP.get(port: server.port, "/media/exports/export.mov")
            #expect(response.status == 200 && response.header("Content-Type") == "video/quicktime")
            #expect(response.header("Content-Length") == "\(bytes.count)")
            #expect(response.body == bytes)
        }
    }

    @Test func aLinkIsRefused() async throws {
        let media = try MediaFolder()
        defer { media.remove() }
        let backend = FakeBackend()
        backend.serve("proxies/link.png", from: media.link)
        try await withStudioServer(backend) { server in
            let response = try await RawHTTP.get(port: server.port, "/media/proxies/link.png")
            #expect(response.status == 403)
            #expect(response.body != media.bytes)
        }
    }

    /// A FIFO listed as a thumbnail: refused at once (a 4xx naming it), and the server keeps
    /// answering meanwhile. Before, each GET waited in open() for a writer on one of Swift's
    /// cooperative threads: two of them stopped every other request (and this test, until the
    /// FIFO got a writer after 20 s).
    @Test func aFIFOIsRefusedAtOnceAndTheServerKeepsAnswering() async throws {
        let media = try MediaFolder()
        defer { media.remove() }
        let fifo = try PlantedFIFO(at: media.folder.appendingPathComponent("f1.png").path, seconds: 20)
        defer { fifo.done() }
        let backend = FakeBackend()
        backend.serve("thumbnails/f1.png", from: fifo.path)
        backend.serve("thumbnails/take.png", from: media.file)
        try await withStudioServer(backend) { server in
            async let first = RawHTTP.get(port: server.port, "/media/thumbnails/f1.png")
            async let second = RawHTTP.get(port: server.port, "/media/thumbnails/f1.png")
            let state = try await RawHTTP.get(port: server.port, "/api/state")
            #expect(state.status == 200)
            for response in [try await first, try await second] {
                #expect(response.status == 403)
                #expect(response.text.contains("f1.png: is a FIFO, not a regular file"), "\(response.text)")
            }
            #expect(try await RawHTTP.get(port: server.port, "/media/thumbnails/take.png").body == media.bytes)
        }
    }

    @Test func pathsAndHiddenNamesNeverReachTheBackend() async throws {
        let backend = FakeBackend()
        let attempts = [
            "/media/thumbnails/../../etc/passwd", "/media/thumbnails/..", "/media/thumbnails/%2e%2e",
            "/media/thumbnails/%2e%2e%2fetc%2fpasswd", "/media/thumbnails/a%2Fb.png", "/media/thumbnails/a%5Cb.png",
            "/media/thumbnails/.hidden", "/media/thumbnails/%2ehidden", "/media/thumbnails/x%00.png",
            "/media/thumbnails/%ff.png", "/media/thumbnails/", "/media/thumbnails/a/b.png", "/takes/../../etc/passwd",
            "/media/secrets/take.png",
        ]
        try await withStudioServer(backend) { server in
            for path in attempts {
                let status = try await RawHTTP.get(port: server.port, path).status
                #expect(status == 400 || status == 404, "\(path): \(status)")
            }
            // A plain name the backend does not know reaches it, and is a 404.
            #expect(try await RawHTTP.get(port: server.port, "/media/thumbnails/take%201.png").status == 404)
        }
        #expect(backend.mediaNames == ["take 1.png"])
    }
}
