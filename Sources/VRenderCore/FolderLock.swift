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
/// its holder dies: a killed command never leaves the folder locked.
///
/// Life cycle: the first writer creates the file, mode 0600, and vrender never removes it (a
/// lock file unlinked while one process holds it lets the next lock a new file, and two writers
/// hold "the" lock at once). 0600, because `flock` needs only a descriptor: any user who could
/// open the file could hold the folder's lock for as long as they liked; an older vrender's
/// 0644 file of ours is tightened when next opened. A lock file, not the folder's own
/// descriptor, for the same reason: any user who may list the folder could lock that.
/// A reader that may not open the file (someone else's folder) reads without the lock, as it
/// reads a folder no writer has locked yet: `takes.json` is replaced atomically, never seen
/// half written.
public final class FolderLock: Sendable {
    public enum Mode: Sendable {
        case shared, exclusive
    }

    public static let fileName = ".vrender.lock"

    /// How long a command waits for another to finish with the folder before giving up: the
    /// holders keep it for one read-modify-write of `takes.json` (`takes recover`, which saves
    /// takes first, for longer).
    public static let defaultWait: Duration = .seconds(10)

    /// How long a caller that must not be kept waiting gives another holder: a studio request
    /// (refused as busy after it) and a capture numbering its next take (numbered without the
    /// lock after it). Another vrender command holds the lock for milliseconds.
    public static let briefWait: Duration = .milliseconds(200)

    /// How long a caller waits for the lock: `others` for a holder in another process, and
    /// `thisProcess` for one in this process (an exclusive holder's record names its pid).
    public struct Patience: Sendable, Equatable {
        public var others: Duration
        public var thisProcess: Duration

        /// `wait` for any holder.
        public init(_ wait: Duration) {
            self.init(others: wait, thisProcess: wait)
        }

        public init(others: Duration, thisProcess: Duration) {
            self.others = others
            self.thisProcess = thisProcess
        }

        /// A command: `defaultWait` for any holder.
        public static let command = Patience(defaultWait)
        /// A studio request: refused as busy after `briefWait` of another process's hold, but
        /// it waits up to `defaultWait` for the studio's own capture (listing a take, saving its
        /// check), whose hold ends by itself and, on a busy disk (fsync), outlasts `briefWait`.
        public static let request = Patience(others: briefWait, thisProcess: defaultWait)
    }

    /// What an attempt on the lock came to.
    public enum Attempt {
        case held(FolderLock)
        /// Another process held it for the whole wait: who ("pid 4242: vrender takes
        /// recover", or "another process reading it") and the error `acquire` throws.
        case busy(holder: String, error: VRenderError)

        /// The lock, when it was had.
        public var lock: FolderLock? {
            if case .held(let lock) = self { return lock }
            return nil
        }
    }

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
    public static func with<T>(_ folder: FolderHandle, _ mode: Mode, for command: String, wait: Patience = .command,
                               _ body: () throws -> T) throws -> T {
        let lock = try acquire(folder, mode, for: command, wait: wait)
        return try withExtendedLifetime(lock) { try body() }
    }

    /// As `with(_:_:for:wait:_:)`, for the folder at `directory`.
    public static func with<T>(_ directory: String, _ mode: Mode, for command: String, wait: Duration = defaultWait,
                               _ body: () throws -> T) throws -> T {
        try with(try FolderHandle.open(directory), mode, for: command, wait: Patience(wait), body)
    }

    /// Takes the lock, waiting up to `wait` for another holder to let go. Throws, naming the
    /// folder and the holder, when it does not. A shared lock on a folder without a lock file
    /// takes none: no writer has locked it yet, and a reader must not write into a folder of
    /// someone else's videos (or a read-only one).
    public static func acquire(_ folder: FolderHandle, _ mode: Mode, for command: String,
                               wait: Patience = .command) throws -> FolderLock {
        switch try attempt(folder, mode, for: command, wait: wait) {
        case .held(let lock): return lock
        case .busy(_, let error): throw error
        }
    }

    /// As `acquire`, but another holder that outlasts `wait` is an answer, not an error: the
    /// caller goes on without the lock (and tries again later) rather than failing. Throws for
    /// a lock file that cannot be used (a link, not a regular file, unreadable).
    public static func attempt(_ folder: FolderHandle, _ mode: Mode, for command: String,
                               wait: Patience) throws -> Attempt {
        let descriptor = try open(in: folder, create: mode == .exclusive)
        guard descriptor >= 0 else { return .held(FolderLock(descriptor: -1, mode: mode)) }
        do {
            if let waited = try take(descriptor, mode, path: folder.join(fileName), wait: wait) {
                let holder = holder(descriptor)
                close(descriptor)
                return .busy(holder: holder, error: busy(holder: holder, mode, directory: folder.path, waited: waited))
            }
        } catch {
            close(descriptor)
            throw error
        }
        if mode == .exclusive {
            let record = Array("pid \(getpid()): \(command)\n".utf8)
            _ = ftruncate(descriptor, 0)
            // Only the holder's name for a message: a lock without it still locks.
            _ = record.withUnsafeBytes { try? Syscall.writeAll(descriptor, $0, at: 0) }
        }
        return .held(FolderLock(descriptor: descriptor, mode: mode))
    }

    /// As `acquire(_:_:for:wait:)`, for the folder at `directory`.
    public static func acquire(_ directory: String, _ mode: Mode, for command: String,
                               wait: Duration = defaultWait) throws -> FolderLock {
        try acquire(try FolderHandle.open(directory), mode, for: command, wait: Patience(wait))
    }

    /// The lock file, opened through the folder's descriptor without following a link, made
    /// 0600 (see the type's notes); -1 when it is absent and not to be made, or a reader may
    /// not open it.
    private static func open(in folder: FolderHandle, create: Bool) throws -> Int32 {
        func open(_ flags: Int32) -> Result<Int32, SystemError> {
            Result { () throws(SystemError) in try Syscall.openat(folder.descriptor, fileName, flags | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, mode: 0o600) }
        }
        var opened = open(O_RDWR | (create ? O_CREAT : 0))
        // A folder this user may read but not write: a shared lock on the file as it is.
        if !create, case .failure(let failure) = opened, [EACCES, EROFS].contains(failure.code) {
            opened = open(O_RDONLY)
        }
        let path = folder.join(fileName)
        let descriptor: Int32
        switch opened {
        case .success(let file): descriptor = file
        case .failure(let failure) where !create && [ENOENT, EACCES].contains(failure.code): return -1
        case .failure(let failure):
            let reason = failure.code == ELOOP ? "is a symbolic link, not vrender's lock file" : failure.description
            throw VRenderError.output(path, "cannot open the folder's lock (\(reason))")
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw VRenderError.output(path, "is not a regular file, so it cannot lock the folder")
        }
        // An older vrender's 0644 file of ours: from now on no one else may open it.
        if info.st_uid == geteuid() && info.st_mode & 0o077 != 0 { _ = fchmod(descriptor, 0o600) }
        return descriptor
    }

    /// `flock` without blocking, retried until `wait` has passed for the holder (a blocking
    /// `flock` could not be given up on); nil when had, or the wait another holder outlasted.
    private static func take(_ descriptor: Int32, _ mode: Mode, path: String, wait: Patience) throws -> Duration? {
        let operation = mode == .exclusive ? LOCK_EX : LOCK_SH
        let clock = ContinuousClock()
        let start = clock.now
        var pause: UInt32 = 1_000
        while true {
            do throws(SystemError) {
                try Syscall.retrying { flock(descriptor, operation | LOCK_NB) }
                return nil
            } catch {
                // EWOULDBLOCK: another holder has it; asked again shortly, until the deadline.
                guard error.code == EWOULDBLOCK else { throw VRenderError.output(path, error.reason("cannot lock the folder")) }
            }
            let waited = clock.now - start
            if waited >= wait.others {
                // Past the wait for others, the holder is read: it may be this process's own.
                let limit = heldByThisProcess(descriptor) ? wait.thisProcess : wait.others
                guard waited < limit else { return limit }
            }
            usleep(pause)
            pause = Swift.min(pause * 2, 50_000)
        }
    }

    /// Whether the holder's record ("pid N: COMMAND") names this process, in a lock file of this
    /// user's (another user's file, which they may hold and write, could claim any pid).
    private static func heldByThisProcess(_ descriptor: Int32) -> Bool {
        var info = stat()
        return fstat(descriptor, &info) == 0 && info.st_uid == geteuid() && holder(descriptor).hasPrefix("pid \(getpid()): ")
    }

    /// Who holds the lock, from the record an exclusive holder writes: "pid 4242: vrender takes
    /// recover", or, with no record, a reader (which writes none; `flock -s` by hand too).
    private static func holder(_ descriptor: Int32) -> String {
        var bytes = [UInt8](repeating: 0, count: 512)
        let count = bytes.withUnsafeMutableBytes { (try? Syscall.pread(descriptor, into: $0, at: 0)) ?? 0 }
        let record = String(decoding: bytes.prefix(count), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return record.isEmpty ? "another process reading it" : record
    }

    /// "DIR: is in use by pid 4242: vrender takes recover (waited 10 s); try again when it is done".
    private static func busy(holder: String, _ mode: Mode, directory: String, waited: Duration) -> VRenderError {
        let kind: VRenderError.Kind = mode == .exclusive ? .output : .input
        return VRenderError(kind, subject: directory,
                            reason: "is in use by \(holder) (waited \(seconds(waited)) s); try again when it is done")
    }

    /// "10", "0.2": a wait as the messages show it.
    static func seconds(_ duration: Duration) -> String {
        let (whole, attoseconds) = duration.components
        guard attoseconds != 0 else { return "\(whole)" }
        return String(format: "%.1f", Double(whole) + Double(attoseconds) / 1e18)
    }
}
