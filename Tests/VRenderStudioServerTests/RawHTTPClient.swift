import Foundation

/// A deliberately dumb HTTP/1.1 client for the server tests: the request goes out byte for
/// byte as written (paths like `/media/thumbnails/../x` or `%2e%2e` reach the server as they
/// are, which URLSession would normalise), and the answer is read to the end.
struct RawResponse {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: [UInt8]

    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    var text: String { String(decoding: body, as: UTF8.self) }
}

enum RawHTTP {
    /// Sends one request (`Connection: close` is added) and reads the whole answer.
    static func request(port: Int, _ method: String, _ path: String, headers: [String: String] = [:],
                        host: String? = nil, body: [UInt8] = []) async throws -> RawResponse {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\nConnection: close\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" { head += "Content-Length: \(body.count)\r\n" }
        let bytes = Array((head + "\r\n").utf8) + body
        return try await onThread {
            let socket = try RawSocket(port: port)
            try socket.send(bytes)
            var all = try socket.readToEnd()
            return try parse(&all)
        }
    }

    static func get(port: Int, _ path: String, headers: [String: String] = [:]) async throws -> RawResponse {
        try await request(port: port, "GET", path, headers: headers)
    }

    static func post(port: Int, _ path: String, json: String, headers: [String: String] = [:]) async throws -> RawResponse {
        var headers = headers
        if headers["Content-Type"] == nil { headers["Content-Type"] = "application/json" }
        return try await request(port: port, "POST", path, headers: headers, body: Array(json.utf8))
    }

    /// Status line, headers, and the body (de-chunked when the server chunked it).
    static func parse(_ bytes: inout [UInt8]) throws -> RawResponse {
        guard let end = headEnd(bytes) else { throw RawSocket.Failure("no complete HTTP head in \(bytes.count) bytes") }
        let lines = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw RawSocket.Failure("bad status line \(lines[0])") }
        let headers = lines.dropFirst().compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        var response = RawResponse(status: status, headers: headers, body: Array(bytes[(end + 4)...]))
        if response.header("Transfer-Encoding")?.lowercased() == "chunked" {
            response.body = try dechunk(response.body)
        }
        return response
    }

    static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        return (0...(bytes.count - 4)).first { bytes[$0] == 13 && bytes[$0 + 1] == 10 && bytes[$0 + 2] == 13 && bytes[$0 + 3] == 10 }
    }

    private static func dechunk(_ bytes: [UInt8]) throws -> [UInt8] {
        var out: [UInt8] = [], index = 0
        while true {
            guard let lineEnd = (index..<(bytes.count - 1)).first(where: { bytes[$0] == 13 && bytes[$0 + 1] == 10 }),
                  let size = Int(String(decoding: bytes[index..<lineEnd], as: UTF8.self), radix: 16)
            else { throw RawSocket.Failure("bad chunk header") }
            if size == 0 { return out }
            out += bytes[(lineEnd + 2)..<(lineEnd + 2 + size)]
            index = lineEnd + 2 + size + 2
        }
    }
}

/// Runs blocking socket calls on a thread of their own: never on the test's cooperative
/// threads, nor on Dispatch's, which the server reads its files on.
func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}

/// A blocking TCP connection to 127.0.0.1 with a receive limit, so a server that never answers
/// fails the test instead of hanging it.
// @unchecked Sendable: one thread uses it at a time; each `onThread` call hands it over whole.
final class RawSocket: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    let descriptor: Int32
    var pending: [UInt8] = []

    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure("socket: \(errno)") }
        var limit = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { close(descriptor); throw Failure("connect to \(port): \(errno)") }
    }

    deinit { close(descriptor) }

    func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw Failure("send: \(errno)") }
            sent += count
        }
    }

    /// Appends what arrives to `pending`; false at the end of the stream.
    @discardableResult
    func receive() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        // A server that answers before reading a whole (too big) body resets the connection
        // once it has sent its answer: the answer is what counts.
        if count < 0 && errno == ECONNRESET && !pending.isEmpty { return false }
        if count < 0 { throw Failure("recv: errno \(errno) (timed out?)") }
        pending += chunk[..<count]
        return count > 0
    }

    func readToEnd() throws -> [UInt8] {
        while try receive() {}
        return pending
    }

    /// Exactly `count` bytes, from what was read ahead first.
    func read(_ count: Int) throws -> [UInt8] {
        while pending.count < count {
            guard try receive() else { throw Failure("connection closed after \(pending.count) of \(count) bytes") }
        }
        defer { pending.removeFirst(count) }
        return Array(pending[..<count])
    }

    /// The HTTP head of an answer that keeps the connection (a WebSocket's 101).
    func readHead() throws -> RawResponse {
        while RawHTTP.headEnd(pending) == nil {
            guard try receive() else { break }
        }
        guard let end = RawHTTP.headEnd(pending) else { throw Failure("no HTTP head") }
        var head = Array(pending[..<(end + 4)])
        pending.removeFirst(end + 4)
        return try RawHTTP.parse(&head)
    }

    /// One unmasked server frame: its opcode and payload.
    func readFrame() throws -> (opcode: UInt8, payload: [UInt8]) {
        let head = try read(2)
        var length = Int(head[1] & 0x7F)
        if length == 126 {
            length = try read(2).reduce(0) { $0 << 8 | Int($1) }
        } else if length == 127 {
            length = try read(8).reduce(0) { $0 << 8 | Int($1) }
        }
        return (head[0] & 0x0F, try read(length))
    }
}
