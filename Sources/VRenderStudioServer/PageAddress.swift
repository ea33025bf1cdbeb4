import Foundation
import Glibc

/// Where the studio's page is, once the server listens: the URL to print and the URL this
/// machine's browser opens. Bound to every address (0.0.0.0, ::) there is no one address to
/// browse to: the printed URL names the machine (its host name), the local browser uses
/// loopback; the server answers to any name with its port there (`RequestGuard.acceptsHost`).
package struct PageAddress: Sendable, Equatable {
    package let host: String
    package let port: Int
    package let token: String?

    package init(host: String, port: Int, token: String?) {
        self.host = host
        self.port = port
        self.token = token
    }

    /// What `vrender studio` prints: reachable from other machines when the server is.
    package var url: String { Self.url(host: isWildcard ? Self.machineName() : host, port: port, token: token) }

    /// What this machine's browser opens.
    package var localURL: String {
        let local = host == "::" ? "::1" : host == "0.0.0.0" ? "127.0.0.1" : host
        return Self.url(host: local, port: port, token: token)
    }

    private var isWildcard: Bool { host == "0.0.0.0" || host == "::" }

    /// An IPv6 literal in brackets, the token as the page reads it.
    static func url(host: String, port: Int, token: String?) -> String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        let query = token.map { "?token=\($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? $0)" } ?? ""
        return "http://\(shownHost):\(port)/\(query)"
    }

    /// This machine's host name as a URL may carry it; "localhost" when it has none usable.
    static func machineName() -> String {
        var name = [CChar](repeating: 0, count: 256)
        guard gethostname(&name, name.count - 1) == 0 else { return "localhost" }
        let text = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let usable = !text.isEmpty && text.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || byte == 0x2D || byte == 0x2E
        }
        return usable ? text : "localhost"
    }
}
