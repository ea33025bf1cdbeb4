import Foundation
import Glibc
import Synchronization

/// A file that appears complete or not at all, even after a crash or a power cut: it is written
/// to a hidden temporary file beside the target (same folder, so the same file system),
/// flushed to disk (`fsync`), renamed over the target (`rename` replaces it atomically), and the
/// folder is flushed so that the rename itself is durable. Every failure removes the
/// temporary file and throws `VRenderError.output` naming the target.
///
/// The temporary is the one way vrender creates a file in a folder that may not be its own:
/// an unpredictable name, created through the folder's descriptor with
/// `O_CREAT|O_EXCL|O_NOFOLLOW`, so a link planted at any name cannot redirect the write, and
/// written only through the descriptor that creation returned (FFmpeg's muxer too: `Muxer`
/// gets the descriptor, not the name). The rename happens only while the temporary's name
/// still leads to that very file.
///
/// Two shapes:
/// - bytes in memory: `AtomicFile.write(_:to:)` (PNGs, takes.json);
/// - a file someone else writes (FFmpeg's muxer): make an `AtomicFile`, `open()` it and let the
///   writer fill the descriptor, then `commit()`, or `discard()` on failure.
public final class AtomicFile: Sendable {
    /// Where the finished file ends up.
    public let path: String
    /// `.<name>.<pid>-<random>.vrender-partial` in the target's folder: hidden, unpredictable
    /// (64 random bits), and marked with the process id so that `StaleTemporaries` can tell a
    /// dead process's leftover from a live one's. `<name>` is cut short when the whole would
    /// pass the 255-byte limit of a file name (NAME_MAX). A path for messages and tests: the
    /// file is only ever reached through the descriptor.
    public let temporaryPath: String
    private let temporaryName: String
    private let name: String
    private let directory: String
    /// The folder, when the caller opened it (a name confined below a takes or work folder).
    private let givenFolder: FolderHandle?
    private let system: FileSystemCalls
    /// The temporary once created: its folder and the descriptor creation returned.
    private let created = Mutex<Created?>(nil)

    private struct Created: Sendable {
        let folder: FolderHandle
        let descriptor: Int32
    }

    public convenience init(path: String) {
        self.init(path: path, system: .live)
    }

    /// The file `name` directly in `folder` (use `FolderHandle.parent(of:)` for a name below it).
    public convenience init(in folder: FolderHandle, name: String) {
        self.init(path: folder.join(name), folder: folder, system: .live)
    }

    /// The file at `path`, made in `folder` when the caller holds its folder open (by the
    /// path's last component, whatever the path's folder leads to by then), else by the path.
    public convenience init(path: String, heldFolder folder: FolderHandle?) {
        if let folder {
            self.init(in: folder, name: FileNames.split(path).name)
        } else {
            self.init(path: path)
        }
    }

    /// With replaceable system calls, so tests can make a write, flush or rename fail.
    init(path: String, folder: FolderHandle? = nil, system: FileSystemCalls) {
        self.path = path
        self.system = system
        givenFolder = folder
        (directory, name) = FileNames.split(path)
        var random = SystemRandomNumberGenerator()
        let hex = String(random.next() as UInt64, radix: 16)
        let suffix = ".\(getpid())-\(String(repeating: "0", count: 16 - hex.count) + hex)\(Self.temporarySuffix)"
        let shortName = FileNames.prefix(name, maxBytes: Int(NAME_MAX) - 1 - suffix.utf8.count)
        temporaryName = "." + shortName + suffix
        temporaryPath = "\(directory == "/" ? "" : directory)/\(temporaryName)"
    }

    deinit { discard() }

    /// What every temporary's name ends with.
    public static let temporarySuffix = ".vrender-partial"

    /// Writes `bytes` to `path` atomically.
    public static func write(_ bytes: UnsafeRawBufferPointer, to path: String) throws {
        try AtomicFile(path: path).write(bytes)
    }

    /// Writes `bytes` to `name` directly in `folder` atomically.
    public static func write(_ bytes: UnsafeRawBufferPointer, in folder: FolderHandle, name: String) throws {
        try AtomicFile(in: folder, name: name).write(bytes)
    }

    /// Creates the temporary file (once; later calls return the same descriptor). The
    /// descriptor stays this value's: it is closed by `commit()` or `discard()`.
    @discardableResult
    public func open() throws -> Int32 {
        try created.withLock { created in
            if let created { return created.descriptor }
            do {
                let folder = try givenFolder ?? FolderHandle.open(directory, as: .output)
                let descriptor = try folder.createExclusive(temporaryName)
                created = Created(folder: folder, descriptor: descriptor)
                return descriptor
            } catch let error as VRenderError {
                // Named after the file asked for, whatever failed: its folder or the temporary.
                let what = error.subject == directory ? "its folder \(directory)" : "its temporary file \(temporaryName)"
                throw VRenderError.output(path, "cannot create \(what): \(error.reason)")
            }
        }
    }

    /// A path that reaches the temporary file itself, whatever its name now leads to
    /// (`/proc/self/fd/N`), for a reader that wants a path (FFmpeg's demuxer checking a copy).
    public var readablePath: String {
        get throws { "/proc/self/fd/\(try open())" }
    }

    /// Writes `bytes` to the temporary file and commits it.
    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        do {
            let descriptor = try open()
            do throws(SystemError) {
                try Syscall.writeAll(descriptor, bytes, through: system.write)
            } catch {
                throw failure("cannot write", error)
            }
        } catch {
            discard()
            throw error
        }
        try commit()
    }

    /// Flushes the filled temporary file, renames it onto `path` and flushes the folder.
    /// On failure the temporary file is removed and `path` is left as it was.
    public func commit() throws {
        guard let file = created.withLock({ $0 }) else { throw VRenderError.output(path, "nothing was written to commit") }
        do {
            do throws(SystemError) {
                try Syscall.retrying { system.fsync(file.descriptor) }
            } catch {
                throw failure("cannot flush to disk", error)
            }
            guard isStillOurs(file) else {
                throw VRenderError.output(path, "its temporary file \(temporaryName) was replaced by something else while it was written; nothing was moved into place")
            }
            guard system.rename(file.folder.descriptor, temporaryName, name) == 0 else { throw failure("cannot move into place") }
        } catch {
            discard()
            throw error
        }
        created.withLock { $0 = nil }
        close(file.descriptor)
        // The file is in place now; this only makes the new folder entry survive a crash.
        if file.folder.flush() != 0 { throw failure("cannot flush its folder to disk") }
    }

    /// Removes the temporary file, if there is one (only while its name still leads to it).
    public func discard() {
        guard let file = created.withLock({ value in defer { value = nil }; return value }) else { return }
        if isStillOurs(file) { file.folder.remove(temporaryName) }
        close(file.descriptor)
    }

    /// True while the temporary's name in the folder is the file the descriptor writes.
    private func isStillOurs(_ file: Created) -> Bool {
        var written = stat()
        guard fstat(file.descriptor, &written) == 0, let named = file.folder.status(temporaryName) else { return false }
        return named.st_dev == written.st_dev && named.st_ino == written.st_ino
    }

    /// The error for a call that failed with `failure` (by default the one that just failed:
    /// errno read before anything else can change it).
    private func failure(_ what: String, _ failure: SystemError = .last) -> VRenderError {
        VRenderError.output(path, "\(what): \(failure)")
    }

    /// Checks, before any work is done, that the target can be written: its name fits the
    /// system's limit, it is not a directory, its directory exists (the folder given is not
    /// removed) and is writable, and (unless `overwrite`) it does not exist yet. Throws `VRenderError.output` naming the target. (The
    /// write itself reports what goes wrong later.)
    public func checkTarget(overwrite: Bool = true) throws {
        if FileNames.platformBytes(name).count > Int(NAME_MAX) {
            throw VRenderError.output(path, "the file name is longer than the \(NAME_MAX) bytes a name may have")
        }
        if let info = targetStatus {
            if info.st_mode & S_IFMT == S_IFDIR { throw VRenderError.output(path, "is a directory") }
            if !overwrite { throw VRenderError.output(path, "already exists (use --overwrite to replace it)") }
        }
        if let givenFolder {
            guard !givenFolder.isRemoved else { throw VRenderError.output(path, "its folder \(directory) was removed") }
        } else {
            guard let info = FileNames.status(directory), info.st_mode & S_IFMT == S_IFDIR else {
                throw VRenderError.output(path, "directory \(directory) does not exist")
            }
        }
        // Found now rather than after minutes of work. (Root fails it only on a read-only file system.)
        let writable = givenFolder.map { faccessat($0.descriptor, ".", W_OK | X_OK, 0) }
            ?? FileNames.withPlatformPath(directory) { access($0, W_OK | X_OK) }
        if writable != 0 {
            throw VRenderError.output(path, SystemError.last.reason("directory \(directory) is not writable"))
        }
    }

    /// The finished file's size (0 when it is not there): through the held folder when there is one.
    public var size: Int { targetStatus.map { Int($0.st_size) } ?? 0 }

    /// `lstat` of the target: in a folder the caller holds, through it (a name, never followed).
    private var targetStatus: stat? {
        if let givenFolder { return givenFolder.status(name) }
        return FileNames.status(path)
    }
}

/// The system calls an atomic write can fail in, replaceable so tests can simulate a full disk,
/// a failing flush or a refused rename. Each returns as the C call does and sets `errno`.
struct FileSystemCalls: Sendable {
    var write: Syscall.WriteStep
    var fsync: @Sendable (_ descriptor: Int32) -> Int32
    /// `renameat` within one folder (its descriptor).
    var rename: @Sendable (_ folder: Int32, _ from: String, _ to: String) -> Int32

    static let live = FileSystemCalls(
        write: Syscall.writeOnce,
        fsync: { descriptor in Glibc.fsync(descriptor) },
        rename: { folder, from, to in
            FileNames.withPlatformPath(from) { from in FileNames.withPlatformPath(to) { renameat(folder, from, folder, $0) } }
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

    /// Writes `value` as JSON to `name` directly in `folder` atomically.
    public static func writeJSON(_ value: some Encodable, in folder: FolderHandle, name: String) throws {
        let data = try JSONEncoder.readable().encode(value)
        try data.withUnsafeBytes { try write($0, in: folder, name: name) }
    }
}
