import Foundation
import Hummingbird
import VRenderCore
import VRenderStudio

/// `/media/KIND/NAME`: NAME checked before the backend sees it, the file opened without
/// following links, and served in chunks (an export can be gigabytes) with Range support
/// (a <video> element seeks with it).
enum MediaFile {
    static let chunkSize = 256 * 1024

    /// NAME as one plain file name, percent-decoded once; nil: refuse it (a path, a parent,
    /// a hidden file, a NUL, or bytes that are not UTF-8).
    static func checkedName(_ raw: String) -> String? {
        guard let name = raw.removingPercentEncoding, !name.isEmpty, name.utf8.count <= 255,
              !name.hasPrefix("."), !name.contains(".."),
              !name.contains(where: { $0 == "/" || $0 == "\\" || $0 == "\0" })
        else { return nil }
        return name
    }

    static func contentType(of name: String) -> String {
        switch (name as NSString).pathExtension.lowercased() {
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "mp4", "m4v": "video/mp4"
        case "mov": "video/quicktime"
        case "vtt": "text/vtt; charset=utf-8"
        default: "application/octet-stream"
        }
    }

    /// The answer for a file opened (or refused) for NAME: the whole file, a part of it, or why not.
    static func response(_ file: Result<OpenFile, any Error>, name: String, range: String?) -> Response {
        let opened: OpenFile
        do {
            opened = try file.get()
        } catch let refusal as MediaRefusal {
            return Answer.error(refusal.status, "\(name): \(refusal.message)")
        } catch {
            return Answer.error(.internalServerError, "\(name): \(error)")
        }
        var headers = HTTPFields()
        headers[.contentType] = contentType(of: name)
        headers[.acceptRanges] = "bytes"
        let size = opened.size
        switch ByteRange.parse(range, size: size) {
        case .whole:
            return Response(status: .ok, headers: headers, body: body(opened, from: 0, count: size))
        case .part(let part):
            headers[.contentRange] = "bytes \(part.lowerBound)-\(part.upperBound - 1)/\(size)"
            return Response(status: .partialContent, headers: headers,
                            body: body(opened, from: part.lowerBound, count: part.count))
        case .unsatisfiable:
            var response = Answer.error(.rangeNotSatisfiable, "\(name): the range \(range ?? "") is outside its \(size) bytes")
            response.headers[.contentRange] = "bytes */\(size)"
            return response
        }
    }

    /// Reads as the socket takes it: the writer waits for the peer, so at most a chunk or
    /// two are in memory however big the file.
    private static func body(_ file: OpenFile, from start: Int, count: Int) -> ResponseBody {
        ResponseBody(contentLength: count) { writer in
            var offset = start
            let end = start + count
            while offset < end {
                let length = min(chunkSize, end - offset)
                let chunk = try await file.read(at: offset, count: length)
                try await writer.write(chunk)
                offset += length
            }
            try await writer.finish(nil)
        }
    }
}

/// Why a media file is not served: a link (403), a FIFO, a device or a folder (403), not
/// there (404).
struct MediaRefusal: Error {
    let status: HTTPResponse.Status
    let message: String
}

/// An open media file; closed when the last answer reading it is done.
final class OpenFile: Sendable {
    private let file: HeldFile
    var descriptor: Int32 { file.descriptor }
    var size: Int { file.size }

    /// Opens `location`'s file through its folder, never by path: no link followed (a link
    /// put where a take was, or a folder swapped for a link, leads nowhere), never waiting (a
    /// FIFO), regular files only.
    init(at location: MediaLocation) throws {
        do {
            file = try HeldFile.open(location.name, in: location.folder)
        } catch {
            switch error.why {
            case .link: throw MediaRefusal(status: .forbidden, message: "is a link; only plain files are served")
            case .notRegular: throw MediaRefusal(status: .forbidden, message: "\(error.reason); only plain files are served")
            case .missing: throw MediaRefusal(status: .notFound, message: error.reason)
            case .failed: throw MediaRefusal(status: .internalServerError, message: error.reason)
            }
        }
    }

    /// `count` bytes at `offset`; a file cut short meanwhile ends the answer with an error.
    func read(at offset: Int, count: Int) async throws -> ByteBuffer {
        try await offCooperativePool { [self] in
            var buffer = ByteBufferAllocator().buffer(capacity: count)
            var failure = "the file ended"
            _ = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { space in
                do throws(SystemError) {
                    return try Syscall.pread(descriptor, into: UnsafeMutableRawBufferPointer(rebasing: space.prefix(count)), at: Int64(offset))
                } catch {
                    failure = error.description
                    return 0
                }
            }
            guard buffer.readableBytes == count else {
                throw MediaRefusal(status: .internalServerError, message: "read stopped early (\(failure))")
            }
            return buffer
        }
    }
}

/// A `Range` header against a file of `size` bytes (one range; others are served whole, as
/// HTTP allows).
enum ByteRange: Equatable {
    case whole
    case part(Range<Int>)
    case unsatisfiable

    static func parse(_ header: String?, size: Int) -> ByteRange {
        guard let header, header.hasPrefix("bytes="), !header.contains(",") else { return .whole }
        let spec = header.dropFirst("bytes=".count).trimmingCharacters(in: .whitespaces)
        guard let dash = spec.firstIndex(of: "-") else { return .whole }
        let first = spec[..<dash], last = spec[spec.index(after: dash)...]
        if first.isEmpty {
            // "-N": the last N bytes.
            guard let suffix = Int(last) else { return .whole }
            guard suffix > 0, size > 0 else { return .unsatisfiable }
            return .part(max(0, size - suffix)..<size)
        }
        guard let start = Int(first), start >= 0 else { return .whole }
        let end: Int
        if last.isEmpty {
            end = size - 1
        } else {
            guard let value = Int(last), value >= start else { return .whole }
            end = min(value, size - 1)
        }
        guard start < size else { return .unsatisfiable }
        return .part(start..<(end + 1))
    }
}
