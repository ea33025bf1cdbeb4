import Foundation

/// The bytes libFuzzer hands `LLVMFuzzerTestOneInput`, and a place to put them as files.
public struct FuzzInput {
    public let bytes: UnsafeRawBufferPointer

    /// `data` may be nil when `size` is 0.
    public init(_ data: UnsafePointer<UInt8>?, _ size: Int) {
        bytes = UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size)
    }

    /// The bytes as text, invalid UTF-8 repaired the way vrender reads its text files.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Writes the bytes to `path` (created or truncated). A failure here is the harness's, not
    /// the code under test's, so it stops the run.
    public func write(to path: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        precondition(fd >= 0, "fuzz harness: cannot create \(path): \(String(cString: strerror(errno)))")
        defer { close(fd) }
        var offset = 0
        while offset < bytes.count {
            let written = Foundation.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 && errno == EINTR { continue }
            precondition(written > 0, "fuzz harness: cannot write \(path): \(String(cString: strerror(errno)))")
            offset += written
        }
    }
}

/// A folder of this process's own for the files a target writes: on tmpfs (/dev/shm) when there
/// is one, so thousands of inputs a second never touch the disk. Removed when the process exits
/// normally; a crash leaves it for the post-mortem (`/dev/shm/vrender-fuzz-PID`).
public enum FuzzScratch {
    public static let directory: String = {
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let path = "\(base)/vrender-fuzz-\(getpid())"
        try? FileManager.default.removeItem(atPath: path)
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            preconditionFailure("fuzz harness: cannot create \(path): \(error)")
        }
        atexit { try? FileManager.default.removeItem(atPath: FuzzScratch.directory) }
        return path
    }()

    /// `directory/name`.
    public static func path(_ name: String) -> String { directory + "/" + name }
}
