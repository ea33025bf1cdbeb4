import CFFmpeg
import Foundation
import VRenderCore

/// SHA-256 of a chunk file, what ties a chunk to its done record: a chunk copied over another,
/// or changed after it was rendered, no longer matches and is never joined. Foundation on Linux
/// has no SHA-256; FFmpeg's libavutil (linked anyway) has one.
enum ChunkHash {
    /// Hex digits of a SHA-256.
    static let hexLength = 64

    /// The SHA-256 of the open file `descriptor`, read from its start, as 64 lowercase hex digits.
    static func sha256(descriptor: Int32, file: String) throws -> String {
        guard let context = av_sha_alloc() else { throw VRenderError(.runtime, subject: file, reason: "out of memory to hash it") }
        defer { av_free(UnsafeMutableRawPointer(context)) }
        av_sha_init(context, 256)
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var offset: off_t = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, offset) }
            if count < 0, case let failure = SystemError.last {
                if failure.code == EINTR { continue }
                throw VRenderError.input(file, failure.reason("cannot be read to check it"))
            }
            if count == 0 { break }
            buffer.withUnsafeBufferPointer { av_sha_update(context, $0.baseAddress, count) }
            offset += off_t(count)
        }
        var digest = [UInt8](repeating: 0, count: 32)
        av_sha_final(context, &digest)
        return digest.map { String(format: "%02x", $0) }.joined()
    }

    /// True for what `sha256` returns: 64 lowercase hex digits.
    static func isWellFormed(_ text: String) -> Bool {
        text.utf8.count == hexLength && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
