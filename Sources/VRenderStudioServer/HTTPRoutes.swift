import Foundation
import Hummingbird
import VRenderStudio

/// Every HTTP address the page uses (`StudioAction` documents the POSTs), behind the guard.
struct HTTPRoutes: Sendable {
    /// POST bodies are small JSON objects; anything bigger is refused before it is read whole.
    static let bodyLimit = 64 * 1024

    let backend: any StudioBackend
    let guardian: RequestGuard

    func router() -> Router<BasicRequestContext> {
        let router = Router()
        // Added first, so it wraps every route and the 404s.
        router.add(middleware: GuardMiddleware(guardian: guardian))
        PageRoutes.add(to: router)
        router.get("api/state") { _, _ in Answer.encoded(backend.state()) }
        router.get("api/filter-grid.png") { _, _ in try await filterGrid() }
        router.get("media/:kind/:name") { request, context in try await media(request, context) }
        for route in ActionDecoder.routes {
            let path = RouterPath("api/" + route)
            router.post(path) { request, _ in
                try await perform(route: route, request: request)
            }
            router.get(path) { _, _ in Answer.methodNotAllowed(allow: "POST") }
        }
        // A plain GET (no upgrade headers): say what /ws is. Refused upgrades never get here:
        // hummingbird-websocket answers them itself (400).
        router.get("ws") { request, _ in
            guardian.refusesOrigin(of: request, required: true)
                ?? Answer.error(.upgradeRequired, "/ws is the studio's WebSocket")
        }
        return router
    }

    private func perform(route: String, request: Request) async throws -> Response {
        if let refusal = guardian.refusesOrigin(of: request, required: false) { return refusal }
        let type = request.headers[.contentType]?.split(separator: ";").first?
            .trimmingCharacters(in: .whitespaces).lowercased()
        guard type == "application/json" else {
            return Answer.error(.unsupportedMediaType, "/api/\(route): send the body as application/json")
        }
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: Self.bodyLimit)
        } catch {
            return Answer.error(.contentTooLarge, "/api/\(route): the body is over \(Self.bodyLimit / 1024) KiB")
        }
        do {
            let action = try ActionDecoder.decode(route: route, body: Array(buffer: body))
            try await backend.perform(action)
            return Answer.ok
        } catch let error as ActionDecodingError {
            return Answer.error(.badRequest, error.message)
        } catch let refusal as StudioActionError {
            return Answer.error(.init(code: refusal.status), refusal.message)
        }
    }

    private func filterGrid() async throws -> Response {
        do {
            let png = try await offCooperativePool { [backend] in try backend.filterGrid() }
            return Answer.bytes(.ok, png, type: "image/png")
        } catch let refusal as StudioActionError {
            return Answer.error(.init(code: refusal.status), refusal.message)
        } catch {
            return Answer.error(.internalServerError, "the filter preview grid: \(error)")
        }
    }

    private func media(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        guard let kindName = context.parameters.get("kind"), let kind = MediaKind(rawValue: kindName),
              let raw = context.parameters.get("name")
        else { return Answer.error(.notFound, "no such media folder") }
        guard let name = MediaFile.checkedName(raw) else {
            return Answer.error(.badRequest, "\(raw): a media name is one plain file name")
        }
        // Looking the name up (takes.json) and opening the file touch the file system: off the
        // server's threads, which must keep answering whatever a file does.
        let opened = try await offCooperativePool { [backend] in
            backend.mediaLocation(kind, name: name).map { location in Result { try OpenFile(at: location) } }
        }
        guard let opened else {
            return Answer.error(.notFound, "\(name): no such \(kind.rawValue) file in this studio")
        }
        return MediaFile.response(opened, name: name, range: request.headers[.range])
    }
}
