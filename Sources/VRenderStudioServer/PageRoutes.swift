import Hummingbird
import VRenderStudio

/// The page itself: three files compiled into the binary (`PackageResources`), served with a
/// Content-Security-Policy that lets them load only from this server.
enum PageRoutes {
    static let contentSecurityPolicy = [
        "default-src 'self'", "img-src 'self' blob: data:", "media-src 'self' blob:",
        "connect-src 'self' ws: wss:", "object-src 'none'", "base-uri 'none'",
        "frame-ancestors 'none'", "form-action 'none'",
    ].joined(separator: "; ")

    static func add(to router: Router<BasicRequestContext>) {
        router.get("/") { _, _ in page(PackageResources.index_html, type: "text/html; charset=utf-8") }
        router.get("studio.css") { _, _ in page(PackageResources.studio_css, type: "text/css; charset=utf-8") }
        router.get("studio.js") { _, _ in page(PackageResources.studio_js, type: "text/javascript; charset=utf-8") }
    }

    private static func page(_ bytes: [UInt8], type: String) -> Response {
        var response = Answer.bytes(.ok, bytes, type: type)
        response.headers[.contentSecurityPolicy] = contentSecurityPolicy
        return response
    }
}
