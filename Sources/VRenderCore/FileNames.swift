import Glibc

/// File names on Linux are bytes, not text: `\xff.mov` is a valid name that no Swift `String`
/// can hold (Swift's `CommandLine.arguments` turns the byte into U+FFFD, naming another file).
/// vrender keeps such names in `String`s by escaping each byte that is not part of valid UTF-8
/// as one code point of a private-use block, U+10FE80…U+10FEFF, and turns them back into the
/// same bytes wherever a path goes to the system (`withPlatformPath`). A valid name that itself
/// contains one of those code points is escaped byte by byte, so every name round-trips.
///
/// Paths enter through `string(fromPlatformBytes:)` (the command line's arguments), reach
/// the system through `withPlatformPath`/`status`, and are shown to people with `display`.
package enum FileNames {
    /// Byte b (0x80…0xFF) is kept as U+10FE00 + b.
    private static let escapeBase: UInt32 = 0x10_FE00

    private static func isEscape(_ scalar: Unicode.Scalar) -> Bool {
        (escapeBase + 0x80...escapeBase + 0xFF).contains(scalar.value)
    }

    private static func escape(_ byte: UInt8) -> Unicode.Scalar {
        Unicode.Scalar(escapeBase + UInt32(byte))!
    }

    /// A platform path (bytes, no NUL) as a `String`: valid UTF-8 as it is, every other byte
    /// escaped.
    package static func string(fromPlatformBytes bytes: some Collection<UInt8>) -> String {
        let bytes = Array(bytes)
        var scalars = String.UnicodeScalarView()
        var index = 0
        while index < bytes.count {
            let length = sequenceLength(lead: bytes[index])
            if let length, index + length <= bytes.count,
               let text = String(validating: bytes[index..<index + length], as: UTF8.self),
               let scalar = text.unicodeScalars.first, !isEscape(scalar) {
                scalars.append(scalar)
                index += length
            } else {
                // Not valid UTF-8 here (or an escape code point written literally): this byte alone.
                scalars.append(escape(bytes[index]))
                index += 1
            }
        }
        return String(scalars)
    }

    /// The bytes UTF-8 says a sequence starting with `lead` has; nil for a byte no valid
    /// sequence starts with. `String(validating:)` checks the rest (overlong forms, surrogates).
    private static func sequenceLength(lead: UInt8) -> Int? {
        switch lead {
        case 0..<0x80: 1
        case 0xC2...0xDF: 2
        case 0xE0...0xEF: 3
        case 0xF0...0xF4: 4
        default: nil
        }
    }

    /// The name in a `readdir` record, read in place: a record may be shorter than
    /// `sizeof(dirent)` (glibc packs them), so copying `entry.pointee` would read past it.
    package static func name(of entry: UnsafePointer<dirent>) -> String {
        let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        let start = UnsafeRawPointer(entry).advanced(by: offset).assumingMemoryBound(to: CChar.self)
        return string(fromPlatformBytes: UnsafeRawBufferPointer(start: start, count: strlen(start)))
    }

    /// The bytes the system knows `path` by (escapes turned back into their bytes), no NUL.
    package static func platformBytes(_ path: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(path.utf8.count)
        for scalar in path.unicodeScalars {
            if isEscape(scalar) {
                bytes.append(UInt8(scalar.value - escapeBase))
            } else {
                bytes += String(scalar).utf8
            }
        }
        return bytes
    }

    /// Calls `body` with `path` as the C string the system knows it by.
    package static func withPlatformPath<T>(_ path: String, _ body: (UnsafePointer<CChar>) throws -> T) rethrows -> T {
        guard path.unicodeScalars.contains(where: isEscape) else { return try path.withCString(body) }
        let bytes = platformBytes(path) + [0]
        return try bytes.withUnsafeBufferPointer { buffer in
            try buffer.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) }
        }
    }

    /// `stat(2)` of `path`, nil when it fails (`errno` says why).
    package static func status(_ path: String) -> stat? {
        var info = stat()
        return withPlatformPath(path) { stat($0, &info) } == 0 ? info : nil
    }

    /// The folder ("." for a bare name, "/" at the root) and the file name of `path`: one
    /// home for it, as Foundation's `deletingLastPathComponent` traps on a one-character
    /// relative path on Linux (`--out q` crashed).
    package static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let directory = String(path[..<slash])
        return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
    }

    /// `path` made absolute against the current directory, with `.`, `..` and repeated slashes
    /// taken out by their spelling (symbolic links stay): how a path is written down for other
    /// processes and machines (a chunk plan), or shown as where a result is.
    package static func absolute(_ path: String) -> String {
        let full = fromCurrentDirectory(path) ?? "/" + path
        var parts: [Substring] = []
        for part in full.split(separator: "/") where part != "." {
            if part == ".." { _ = parts.popLast() } else { parts.append(part) }
        }
        return "/" + parts.joined(separator: "/")
    }

    /// `path` with the current directory before it when it is relative, spelled otherwise as it
    /// is (`..` after a symbolic link stays, so it names the file the system would open); nil
    /// when the current directory cannot be found (removed, or too long).
    package static func fromCurrentDirectory(_ path: String) -> String? {
        guard !path.hasPrefix("/") else { return path }
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
        let found = buffer.withUnsafeMutableBufferPointer { pointer in
            pointer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: pointer.count) { getcwd($0, pointer.count) } != nil
        }
        return found ? string(fromPlatformBytes: buffer.prefix { $0 != 0 }) + "/" + path : nil
    }

    /// `path` as people should read it: escaped bytes and control characters (a newline in a
    /// name would break a one-line error) as `\xNN`, everything else as it is.
    package static func display(_ path: String) -> String {
        var text = ""
        for scalar in path.unicodeScalars {
            if isEscape(scalar) {
                text += hex(UInt8(scalar.value - escapeBase))
            } else if scalar.value < 0x20 || scalar.value == 0x7F {
                text += hex(UInt8(scalar.value))
            } else {
                text.unicodeScalars.append(scalar)
            }
        }
        return text
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return "\\x" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0xF)])
    }

    /// The longest prefix of `name` whose platform bytes fit in `maxBytes`, cut between
    /// characters' scalars (never inside one's UTF-8 sequence).
    package static func prefix(_ name: String, maxBytes: Int) -> String {
        var kept = String.UnicodeScalarView()
        var used = 0
        for scalar in name.unicodeScalars {
            let size = isEscape(scalar) ? 1 : String(scalar).utf8.count
            guard used + size <= maxBytes else { break }
            kept.append(scalar)
            used += size
        }
        return String(kept)
    }
}
