import Foundation
import Glibc

/// A lock on a takes folder, between vrender commands: `flock(2)` on `.vrender.lock` in the
/// folder. Writers (a capture listing a take or reserving its number, `takes rm`, `takes
/// recover`) hold it exclusively while they read, change and save `takes.json`, so no change is
/// lost to another saved from an older copy; readers (`concat` of a folder) hold it shared while
/// they read the list. An exclusive holder writes "pid N: COMMAND" into the file, so a command
/// that gives up waiting can say who holds it.
///
/// Each lock is its own open file description, so two locks in one process exclude each other
/// as two processes do (a capture's writer and checker threads). The kernel drops the lock when
/// its holder dies: a killed command never leaves the folder locked. The file itself stays
/// (removing it would let two commands lock two different files).
public final class FolderLock: Sendable {
    public enum Mode: Sendable {
        case shared, exclusive
    }

    public static let fileName = ".vrender.lock"

    /// How long a command waits for another to finish with the folder before giving up: the
    /// holders keep it for one read-modify-write of `takes.json` (`takes recover`, which saves
    /// takes first, for longer).
    public static let defaultWait: Duration = .seconds(10)

    /// The lock file, open and locked; -1 for a folder read without a lock (see `acquire`).
    private let descriptor: Int32
    private let mode: Mode

    private init(descriptor: Int32, mode: Mode) {
        self.descriptor = descriptor
        self.mode = mode
    }

    deinit {
        guard descriptor >= 0 else { return }
        // The record names a holder only while it holds the lock.
        if mode == .exclusive { _ = ftruncate(descriptor, 0) }
        close(descriptor)   // drops the lock
    }

    /// Runs `body` holding the lock of `folder` in `mode`; `command` ("vrender capture") is what
    /// a command kept waiting is told holds it.
    public static func with<T>(_ folder: FolderHandle, _ mode: Mode, for command: String, wait: Duration = defaultWait,
                               _ body: () throws -> T) throws -> T {
        let lock = try acquire(folder, mode, for: command, wait: wait)
        return try withExtendedLifetime(lock) { try body() }
    }

    /// As `with(_:_:for:wait:_:)`, for the folder at `directory`.
    public static func with<T>(_ directory: String, _ mode: Mode, for command: String, wait: Duration = defaultWait,
                               _ body: () throws -> T) throws -> T {
        try with(try FolderHandle.open(directory), mode, for: command, wait: wait, body)
    }

    /// Takes the lock, waiting up to `wait` for another holder to let go. Throws, naming the
    /// folder and the holder, when it does not. A shared lock on a folder without a lock file
    /// takes none: no writer has locked it yet, and a reader must not write into a folder of
    /// someone else's videos (or a read-only one).
    public static func acquire(_ folder: FolderHandle, _ mode: Mode, for command: String,
                               wait: Duration = defaultWait) throws -> FolderLock {
        let descriptor = try open(in: folder, create: mode == .exclusive)
        guard descriptor >= 0 else { return FolderLock(descriptor: -1, mode: mode) }
        do {
            try take(descriptor, mode, path: folder.join(fileName), directory: folder.path, wait: wait)
        } catch {
            close(descriptor)
            throw error
        }
        if mode == .exclusive {
            let record = Array("pid \(getpid()): \(command)\n".utf8)
            _ = ftruncate(descriptor, 0)
            _ = record.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        }
        return FolderLock(descriptor: descriptor, mode: mode)
    }

    /// As `acquire(_:_:for:wait:)`, for the folder at `directory`.
    public static func acquire(_ directory: String, _ mode: Mode, for command: String,
                               wait: Duration = defaultWait) throws -> FolderLock {
        try acquire(try FolderHandle.open(directory), mode, for: command, wait: wait)
    }

    /// The lock file, opened through the folder's descriptor without following a link; -1 when
    /// it is absent and not to be made.
    private static func open(in folder: FolderHandle, create: Bool) throws -> Int32 {
        let flags = O_RDWR | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK
        var descriptor = openat(folder.descriptor, fileName, flags | (create ? O_CREAT : 0), 0o644)
        // A folder this user may read but not write: a shared lock on the file as it is.
        if descriptor < 0 && !create && [EACCES, EROFS].contains(SystemError.last.code) {
            descriptor = openat(folder.descriptor, fileName, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        }
        let failure = SystemError.last
        if descriptor < 0 && !create && failure.code == ENOENT { return -1 }
        let path = folder.join(fileName)
        guard descriptor >= 0 else {
            let reason = failure.code == ELOOP ? "is a symbolic link, not vrender's lock file" : failure.description
            throw VRenderError.output(path, "cannot open the folder's lock (\(reason))")
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw VRenderError.output(path, "is not a regular file, so it cannot lock the folder")
        }
        return descriptor
    }

    /// `flock` without blocking, retried until `wait` has passed: a blocking `flock` could not
    /// be given up on.
    private static func take(_ descriptor: Int32, _ mode: Mode, path: String, directory: String, wait: Duration) throws {
        let operation = mode == .exclusive ? LOCK_EX : LOCK_SH
        let clock = ContinuousClock()
        let deadline = clock.now + wait
        var pause: UInt32 = 1_000
        while flock(descriptor, operation | LOCK_NB) != 0 {
            let failure = SystemError.last
            guard failure.code == EWOULDBLOCK || failure.code == EINTR else {
                throw VRenderError.output(path, failure.reason("cannot lock the folder"))
            }
            guard clock.now < deadline else { throw busy(descriptor, mode, directory: directory, waited: wait) }
            usleep(pause)
            pause = Swift.min(pause * 2, 50_000)
        }
    }

    /// "DIR: is in use by pid 4242: vrender takes recover (waited 10 s); try again when it is done".
    private static func busy(_ descriptor: Int32, _ mode: Mode, directory: String, waited: Duration) -> VRenderError {
        var bytes = [UInt8](repeating: 0, count: 512)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        let record = String(decoding: bytes.prefix(Swift.max(0, count)), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        // Empty: only readers hold it (they write no record).
        let holder = record.isEmpty ? "another vrender command reading it" : record
        let kind: VRenderError.Kind = mode == .exclusive ? .output : .input
        return VRenderError(kind, subject: directory,
                            reason: "is in use by \(holder) (waited \(waited.components.seconds) s); try again when it is done")
    }
}
