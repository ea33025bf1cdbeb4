import Foundation
import Glibc
import Synchronization

/// A file that appears complete or not at all, even after a crash or a power cut: it is written
/// to a hidden temporary file beside the target (same directory, so the same file system),
/// flushed to disk (`fsync`), renamed over the target (`rename` replaces it atomically), and the
/// directory is flushed so that the rename itself is durable. Every failure removes the
/// temporary file and throws `VRenderError.output` naming the target.
///
/// Two shapes:
/// - bytes in memory: `AtomicFile.write(_:to:)` (PNGs, takes.json);
/// - a file someone else writes (FFmpeg's muxer): make an `AtomicFile`, let the writer fill
///   `temporaryPath`, then `commit()`, or `discard()` on failure.
///
/// A value describes one write; it holds no open descriptor and can be passed between threads.
public struct AtomicFile: Sendable {
    /// Where the finished file ends up.
    public let path: String
    /// `.<name>.<pid>-<n>.vrender-partial` in the target's directory: hidden, and unique to this
    /// process and this value, so concurrent writes of one target never share a temporary.
    /// `<name>` is cut short when the whole would pass the 255-byte limit of a file name
    /// (NAME_MAX), so that a target with a long name can still be written.
    public let temporaryPath: String
    private let system: FileSystemCalls

    public init(path: String) {
        self.init(path: path, system: .live)
    }

    /// With replaceable system calls, so tests can make a write, flush or rename fail.
    init(path: String, system: FileSystemCalls) {
        self.path = path
        self.system = system
        let (directory, name) = FileNames.split(path)
        let suffix = ".\(getpid())-\(Self.serial.add(1, ordering: .relaxed).newValue).vrender-partial"
        let shortName = FileNames.prefix(name, maxBytes: Int(NAME_MAX) - 1 - suffix.utf8.count)
        temporaryPath = "\(directory == "/" ? "" : directory)/.\(shortName)\(suffix)"
    }

    /// Writes `bytes` to `path` atomically.
    public static func write(_ bytes: UnsafeRawBufferPointer, to path: String) throws {
        try AtomicFile(path: path).write(bytes)
    }

    /// Writes `bytes` to the temporary file (`open` with `O_TRUNC`, a leftover of a crashed
    /// process with the same pid is overwritten) and commits it.
    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        do {
            let descriptor = FileNames.withPlatformPath(temporaryPath) { open($0, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666) }
            guard descriptor >= 0 else { throw failure("cannot create \(temporaryPath)") }
            defer { close(descriptor) }
            var written = 0
            while written < bytes.count, let base = bytes.baseAddress {
                let count = system.write(descriptor, base + written, bytes.count - written)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { throw failure("cannot write") }
                written += count
            }
        } catch {
            discard()
            throw error
        }
        try commit()
    }

    /// Flushes the filled temporary file, renames it onto `path` and flushes the directory.
    /// On failure the temporary file is removed and `path` is left as it was.
    public func commit() throws {
        do {
            try flush(temporaryPath, flags: O_RDONLY, what: "cannot flush to disk")
            guard system.rename(temporaryPath, path) == 0 else { throw failure("cannot move into place") }
        } catch {
            discard()
            throw error
        }
        // The file is in place now; this only makes the new directory entry survive a crash.
        try flush(FileNames.split(path).directory, flags: O_RDONLY | O_DIRECTORY, what: "cannot flush its directory to disk")
    }

    /// Removes the temporary file, if there is one.
    public func discard() {
        _ = FileNames.withPlatformPath(temporaryPath) { unlink($0) }
    }

    /// `fsync` of the file or directory at `target`. Linux flushes through a read-only
    /// descriptor too, which is all a directory can be opened with. A file system that cannot
    /// flush a directory (`EINVAL`) has nothing to flush.
    private func flush(_ target: String, flags: Int32, what: String) throws {
        let descriptor = FileNames.withPlatformPath(target) { open($0, flags | O_CLOEXEC) }
        guard descriptor >= 0 else { throw failure("\(what): cannot open \(target)") }
        defer { close(descriptor) }
        while system.fsync(descriptor) != 0 {
            if errno == EINTR { continue }
            if errno == EINVAL && flags & O_DIRECTORY != 0 { return }
            throw failure(what)
        }
    }

    /// The error for the call that just failed, with errno's text (read before anything else
    /// can change it).
    private func failure(_ what: String) -> VRenderError {
        let reason = String(cString: strerror(errno))
        return VRenderError.output(path, "\(what): \(reason)")
    }

    /// Checks, before any work is done, that the target can be written: it is not a directory,
    /// its directory exists and is writable, and (unless `overwrite`) it does not exist yet. Throws
    /// `VRenderError.output` naming the target. (The write itself reports what goes wrong later.)
    public func checkTarget(overwrite: Bool = true) throws {
        if let info = FileNames.status(path) {
            if info.st_mode & S_IFMT == S_IFDIR { throw VRenderError.output(path, "is a directory") }
            if !overwrite { throw VRenderError.output(path, "already exists (use --overwrite to replace it)") }
        }
        let directory = FileNames.split(path).directory
        guard let info = FileNames.status(directory), info.st_mode & S_IFMT == S_IFDIR else {
            throw VRenderError.output(path, "directory \(directory) does not exist")
        }
        // Found now rather than after minutes of work. (Root fails it only on a read-only file system.)
        if FileNames.withPlatformPath(directory, { access($0, W_OK | X_OK) }) != 0 {
            throw VRenderError.output(path, "directory \(directory) is not writable (\(String(cString: strerror(errno))))")
        }
    }

    private static let serial = Atomic<Int>(0)
}

/// The system calls an atomic write can fail in, replaceable so tests can simulate a full disk,
/// a failing flush or a refused rename. Each returns as the C call does and sets `errno`.
struct FileSystemCalls: Sendable {
    var write: @Sendable (_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int
    var fsync: @Sendable (_ descriptor: Int32) -> Int32
    var rename: @Sendable (_ from: String, _ to: String) -> Int32

    static let live = FileSystemCalls(
        write: { descriptor, bytes, count in Glibc.write(descriptor, bytes, count) },
        fsync: { descriptor in Glibc.fsync(descriptor) },
        rename: { from, to in
            FileNames.withPlatformPath(from) { from in FileNames.withPlatformPath(to) { Glibc.rename(from, $0) } }
        })
}

extension JSONEncoder {
    /// The one shape of all JSON vrender writes (takes.json, timing reports, chunk plans,
    /// `--json` output): indented, keys sorted, slashes unescaped, so files diff well.
    public static func readable() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}

extension AtomicFile {
    /// Writes `value` as JSON (`JSONEncoder.readable()`) to `path` atomically.
    public static func writeJSON(_ value: some Encodable, to path: String) throws {
        let data = try JSONEncoder.readable().encode(value)
        try data.withUnsafeBytes { try write($0, to: path) }
    }
}
