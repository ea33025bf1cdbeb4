internal import CCrypto
import Foundation
import VRenderCore

/// SHA-256 of a chunk file, what ties a chunk to its done record: a chunk copied over another,
/// or changed after it was rendered, no longer matches and is never joined. Foundation on Linux
/// has no SHA-256; OpenSSL's (loaded anyway, by FFmpeg's network protocols) uses the CPU's SHA
/// instructions: 1,960 MB/s here against libavutil's 510, and the join checks every chunk.
enum ChunkHash {
    /// Hex digits of a SHA-256.
    static let hexLength = 64

    /// The SHA-256 of the open file `descriptor`, read from its start, as 64 lowercase hex digits.
    static func sha256(descriptor: Int32, file: String) throws -> String {
        guard let context = EVP_MD_CTX_new() else { throw VRenderError(.runtime, subject: file, reason: "out of memory to hash it") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else {
            throw VRenderError(.runtime, subject: file, reason: "OpenSSL has no SHA-256 to hash it")
        }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var offset: Int64 = 0
        while true {
            let read = buffer.withUnsafeMutableBytes { space in
                Result { () throws(SystemError) in try Syscall.pread(descriptor, into: space, at: offset) }
            }
            let count: Int
            switch read {
            case .success(let got): count = got
            case .failure(let failure): throw VRenderError.input(file, failure.reason("cannot be read to check it"))
            }
            if count == 0 { break }
            _ = buffer.withUnsafeBufferPointer { EVP_DigestUpdate(context, $0.baseAddress, count) }
            offset += Int64(count)
        }
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context, &digest, &length) == 1, length == 32 else {
            throw VRenderError(.runtime, subject: file, reason: "OpenSSL could not finish its SHA-256")
        }
        return digest.map { String(format: "%02x", $0) }.joined()
    }

    /// True for what `sha256` returns: 64 lowercase hex digits.
    static func isWellFormed(_ text: String) -> Bool {
        text.utf8.count == hexLength && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
