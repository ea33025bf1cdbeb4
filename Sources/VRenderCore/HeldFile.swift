import Foundation
import Glibc

/// A regular file opened once, through its folder's descriptor, and read only through that
/// descriptor afterwards: what vrender serves or hands to FFmpeg from a folder others can write
/// (a takes folder). Whatever the name is changed into after the open (a link to a private
/// file, a FIFO), the file checked is the file read. (A file the user names by path, a
/// script, is opened by that path instead, its links followed: `open(path:)`.)
///
/// The open through a folder never follows a link (`O_NOFOLLOW`); no open waits (`O_NONBLOCK`:
/// a FIFO with no writer would otherwise block the opening thread for good), and the opened
/// file is checked with `fstat` to be a regular file before a byte is read. The descriptor
/// stays open for the value's life.
public final class HeldFile: Sendable {
    /// Where the file was found (`folder/name`), for messages.
    public let path: String
    public let descriptor: Int32
    /// Its size when it was opened.
    public let size: Int

    private init(path: String, descriptor: Int32, size: Int) {
        self.path = path
        self.descriptor = descriptor
        self.size = size
    }

    deinit { close(descriptor) }

    /// A path that reaches this very file, whatever its name leads to by now (`/proc/self/fd/N`),
    /// for a reader that only takes a path (FFmpeg's demuxer). Valid while this value lives.
    public var readablePath: String { "/proc/self/fd/\(descriptor)" }

    /// Why a file was not opened.
    public struct Refusal: Error, Sendable, CustomStringConvertible {
        public enum Why: Sendable, Equatable {
            /// Nothing by that name.
            case missing
            /// The name is a symbolic link.
            case link
            /// A FIFO, a device, a socket or a folder.
            case notRegular
            /// Another failure of the open (permissions, too many open files).
            case failed
        }
        public let why: Why
        /// The file, as `HeldFile.path` would have been.
        public let path: String
        /// In words: "is a FIFO, not a regular file".
        public let reason: String

        public var description: String { "\(path): \(reason)" }

        /// The refusal as the error a command reports.
        public func error(as kind: VRenderError.Kind = .input) -> VRenderError {
            VRenderError(kind, subject: path, reason: reason)
        }
    }

    /// Opens the direct child `name` of `folder` read-only: refused when it is a link, missing,
    /// or anything but a regular file.
    public static func open(_ name: String, in folder: FolderHandle) throws(Refusal) -> HeldFile {
        try opened(folder.join(name), refusingLinks: true) { () throws(SystemError) in
            try Syscall.openat(folder.descriptor, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        }
    }

    /// Opens the file at `path`, a path the user gave (`--prompter FILE`): its links are
    /// followed, as the user named it, but it is opened without waiting and refused unless it is
    /// a regular file, and it is checked through the descriptor that reads it (no `stat` of the
    /// path first that a swap after it would fool).
    public static func open(path: String) throws(Refusal) -> HeldFile {
        try opened(path, refusingLinks: false) { () throws(SystemError) in try Syscall.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
    }

    /// Everything in the file, read through its descriptor from its start: refused, naming the
    /// file, when it is over `limit` bytes, when it was opened or grew while it was read (a
    /// crafted file must not make vrender read gigabytes).
    public func contents(limit: Int) throws -> Data {
        guard size <= limit else {
            throw VRenderError.input(path, "is \(size) bytes, more than the \(limit) a file of its kind may have")
        }
        return try Syscall.readAll(descriptor, limit: limit, file: path)
    }

    /// Why `contents(ofPath:limit:)` gave nothing: each user file (a prompter script, an action
    /// script) words these its own way.
    public enum PathReadFailure: Error, Sendable {
        /// Not opened: missing, not a regular file, or the open failed.
        case refused(Refusal)
        /// Over the limit when opened: its size in bytes.
        case tooLarge(Int)
        /// The read failed, or the file grew past the limit while read: why, in words.
        case unreadable(String)
    }

    /// The whole of the file at `path` (a file the user named: `open(path:)`), at most `limit`
    /// bytes, checked and read through one descriptor: the one home of "read a user's file".
    public static func contents(ofPath path: String, limit: Int) throws(PathReadFailure) -> Data {
        let file: HeldFile
        do { file = try open(path: path) } catch { throw .refused(error) }
        guard file.size <= limit else { throw .tooLarge(file.size) }
        do {
            return try file.contents(limit: limit)
        } catch {
            throw .unreadable((error as? VRenderError)?.reason ?? "\(error)")
        }
    }

    /// The descriptor `open` gives, checked with `fstat` to be a regular file. `ELOOP` is the
    /// link `O_NOFOLLOW` refused when `refusingLinks`, else a chain of links too long.
    private static func opened(_ path: String, refusingLinks: Bool,
                               _ open: () throws(SystemError) -> Int32) throws(Refusal) -> HeldFile {
        let opened: Int32
        do throws(SystemError) {
            opened = try open()
        } catch {
            switch error.code {
            case ENOENT: throw Refusal(why: .missing, path: path, reason: "no such file")
            case ELOOP where refusingLinks: throw Refusal(why: .link, path: path, reason: "is a symbolic link; vrender does not follow links inside a folder it works in")
            default: throw Refusal(why: .failed, path: path, reason: error.reason("cannot open"))
            }
        }
        var info = stat()
        guard fstat(opened, &info) == 0 else {
            let failure = SystemError.last
            close(opened)
            throw Refusal(why: .failed, path: path, reason: failure.reason("cannot read its status"))
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            close(opened)
            throw Refusal(why: .notRegular, path: path, reason: "is \(kindName(info.st_mode)), not a regular file")
        }
        return HeldFile(path: path, descriptor: opened, size: Int(info.st_size))
    }

    /// `text` with every `readablePath` of `files` written as the file's `path`: a message from
    /// a reader that was given the `/proc` path, as the user knows the file.
    public static func naming(_ text: String, _ files: [HeldFile]) -> String {
        let paths = Dictionary(files.map { (String($0.descriptor), $0.path) }, uniquingKeysWith: { first, _ in first })
        // The whole number: "/proc/self/fd/1" is not the start of "/proc/self/fd/12".
        return text.replacing(/\/proc\/self\/fd\/([0-9]+)/) { match in paths[String(match.1)] ?? String(match.0) }
    }

    /// `error` with `naming` applied to its subject and reason (other errors as they are).
    public static func naming(_ error: any Error, _ files: [HeldFile]) -> any Error {
        guard let error = error as? VRenderError else { return error }
        return VRenderError(error.kind, subject: naming(error.subject, files), reason: naming(error.reason, files))
    }

    private static func kindName(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: "a FIFO"
        case S_IFDIR: "a folder"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "not a plain file"
        }
    }
}
