import Foundation
import Hummingbird
import VRenderStudio

/// The server's answers in the contract's shapes: `{"ok":true}`, `{"error":"message"}`, JSON
/// snapshots and the page's files.
enum Answer {
    static let jsonType = "application/json; charset=utf-8"

    static var ok: Response { json(.ok, Array(#"{"ok":true}"#.utf8)) }

    static func error(_ status: HTTPResponse.Status, _ message: String) -> Response {
        let body = (try? JSONEncoder().encode(["error": message])).map { [UInt8]($0) } ?? Array(#"{"error":"refused"}"#.utf8)
        return json(status, body)
    }

    static func json(_ status: HTTPResponse.Status, _ body: [UInt8]) -> Response {
        bytes(status, body, type: jsonType)
    }

    static func encoded(_ value: some Encodable) -> Response {
        do {
            return json(.ok, [UInt8](try JSONEncoder().encode(value)))
        } catch {
            return Answer.error(.internalServerError, "cannot encode the answer: \(error)")
        }
    }

    static func bytes(_ status: HTTPResponse.Status, _ body: [UInt8], type: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = type
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// A route that exists for another method: the status says so and `Allow` says which.
    static func methodNotAllowed(allow: String) -> Response {
        var response = error(.methodNotAllowed, "use \(allow) for this address")
        response.headers[.allow] = allow
        return response
    }
}

/// Blocking work (file reads, the filter grid) on Dispatch's threads, so the server's
/// cooperative threads keep answering the page and the WebSocket meanwhile.
func offCooperativePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async {
            continuation.resume(with: Result { try body() })
        }
    }
}
