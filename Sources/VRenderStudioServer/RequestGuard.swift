import Hummingbird
import HTTPTypes
import Synchronization
import VRenderStudio

/// The port the server got (0 until it listens): the Host and Origin checks need it, and with
/// `--port 0` it is only known once bound.
final class ListeningPort: Sendable {
    private let value = Atomic<Int>(0)

    var port: Int { value.load(ordering: .acquiring) }

    func set(_ port: Int) {
        value.store(port, ordering: .releasing)
    }
}

/// The studio's security rules (issue 23 item 6, the studio contract), one place for both
/// routers: the Host header (DNS rebinding), the token (beyond loopback), and the Origin of
/// WebSocket upgrades and POSTs (cross-site requests).
struct RequestGuard: Sendable {
    static let tokenHeader = HTTPField.Name("X-VRender-Token")!
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!

    let boundHost: String
    let token: [UInt8]?
    let listening: ListeningPort

    init(boundHost: String, token: String?, listening: ListeningPort) {
        self.boundHost = boundHost.lowercased()
        self.token = token.map { Array($0.utf8) }
        self.listening = listening
    }

    /// Checks every request: nil lets it through, else the refusal to send.
    func refusal(of request: Request) -> Response? {
        guard let host = Self.host(of: request), acceptsHost(host) else {
            return Answer.error(.forbidden, "this server answers only to its own address (Host header refused)")
        }
        if let token, !Self.isPublicAsset(request) {
            let given = request.headers[Self.tokenHeader] ?? request.uri.queryParameters.get("token")
            guard let given, Self.constantTimeEqual(Array(given.utf8), token) else {
                return Answer.error(.unauthorized, "the access token is missing or wrong: open the URL vrender printed")
            }
        }
        return nil
    }

    /// The page's stylesheet and script: the same bytes in every vrender binary, nothing of
    /// this studio in them, and loaded by `index.html`'s tags, which cannot carry the token.
    static func isPublicAsset(_ request: Request) -> Bool {
        request.method == .get && ["/studio.css", "/studio.js"].contains(request.uri.path)
    }

    /// The Origin rule: a WebSocket must come from the page's own origin; a POST may omit
    /// Origin (not a browser's cross-site request) but if it sends one it must be ours.
    func refusesOrigin(of request: Request, required: Bool) -> Response? {
        guard let origin = request.headers[.origin] else {
            return required ? Answer.error(.forbidden, "the request has no Origin: only the studio page may connect") : nil
        }
        let host = Self.host(of: request) ?? ""
        guard origin.lowercased() == "http://" + host.lowercased() else {
            return Answer.error(.forbidden, "requests from \(origin) are refused: only the studio page may do this")
        }
        return nil
    }

    /// The bound host or a loopback name, with the port we listen on. Bound to every address
    /// (0.0.0.0, ::) the machine's names are not known: any name with our port, the token guards.
    func acceptsHost(_ header: String) -> Bool {
        let port = listening.port
        let value = header.lowercased()
        let suffix = ":\(port)"
        let name: String
        if port != 0, value.hasSuffix(suffix) {
            name = String(value.dropLast(suffix.count))
        } else if port == 80, !(value.split(separator: "]", omittingEmptySubsequences: false).last ?? "").contains(":") {
            // Browsers leave HTTP's default port out of Host.
            name = value
        } else {
            return false
        }
        if boundHost == "0.0.0.0" || boundHost == "::" { return !name.isEmpty }
        let bound = boundHost.contains(":") ? "[\(boundHost)]" : boundHost
        return [bound, "localhost", "127.0.0.1", "[::1]"].contains(name)
    }

    /// HTTP/1.1's Host header, which the request head carries as its authority.
    static func host(of request: Request) -> String? {
        request.head.authority
    }

    /// Whether `host` keeps the server on this machine (no token needed).
    static func isLoopback(_ host: String) -> Bool {
        let host = host.lowercased()
        return host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    /// Compares every byte whatever the first difference, so timing tells nothing of the token.
    static func constantTimeEqual(_ given: [UInt8], _ expected: [UInt8]) -> Bool {
        // A length flag, not the lengths' bits: a token with 256 bytes more must differ too.
        var difference: UInt8 = given.count == expected.count ? 0 : 1
        for index in expected.indices {
            let byte = index < given.count ? given[index] : ~expected[index]
            difference |= byte ^ expected[index]
        }
        return difference == 0
    }
}

/// Applies `RequestGuard` to every request of a router (the matched routes and the 404s), and
/// adds the headers every answer carries.
struct GuardMiddleware<Context: RequestContext>: RouterMiddleware {
    let guardian: RequestGuard

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        if let refusal = guardian.refusal(of: request) {
            response = refusal
        } else {
            response = try await next(request, context)
        }
        response.headers[.xContentTypeOptions] = "nosniff"
        // The token is in the page's URL: no Referer may carry it elsewhere.
        response.headers[RequestGuard.referrerPolicy] = "no-referrer"
        if response.headers[.cacheControl] == nil {
            response.headers[.cacheControl] = "no-store"
        }
        return response
    }
}
