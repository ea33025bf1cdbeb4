import Foundation
import Glibc

/// An open folder: a directory descriptor, and every name below it resolved through that
/// descriptor, one component at a time, with `O_NOFOLLOW`. A symbolic link anywhere below the
/// folder, `..`, or an absolute name is refused, so no name, existing or not yet, can lead
/// outside: the folder may belong to someone else (a takes folder, a work folder), and a
/// planted link must not make vrender write, read or delete elsewhere. Nothing is checked by
/// path and then used by path.
///
/// The folder itself is reached through whatever links its own path has: the user named it.
public final class FolderHandle: Sendable {
    /// The folder's path, for messages and for readers that need a path (FFmpeg's demuxer).
    public let path: String
    /// Open for the handle's whole life; never changed, so the handle is `Sendable`.
    public let descriptor: Int32

    private init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit { close(descriptor) }

    /// Opens the folder at `path`. Errors (`kind`, default `.input`) name `path`.
    public static func open(_ path: String, as kind: VRenderError.Kind = .input) throws -> FolderHandle {
        do throws(SystemError) {
            return FolderHandle(descriptor: try Syscall.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC), path: path)
        } catch {
            throw VRenderError(kind, subject: path, reason: Self.folderReason(error))
        }
    }

    /// Opens the folder at `path`, making it first when it is missing (only its last component:
    /// its parent must exist). `created` says whether this call made it.
    public static func openOrCreate(_ path: String, as kind: VRenderError.Kind = .output) throws -> (folder: FolderHandle, created: Bool) {
        let made = FileNames.withPlatformPath(path) { mkdir($0, 0o777) } == 0
        if !made, case let failure = SystemError.last, failure.code != EEXIST {
            throw VRenderError(kind, subject: path, reason: failure.reason("cannot create the folder"))
        }
        return (try open(path, as: kind), made)
    }

    /// The sub-folder `relative` ("a/b") below this one, each component opened without following
    /// a link; made when missing and `create`.
    public func folder(_ relative: String, create: Bool = false, as kind: VRenderError.Kind = .input) throws -> FolderHandle {
        var current = self
        for component in try components(of: relative, as: kind) {
            current = try current.child(component, create: create, as: kind)
        }
        return current
    }

    /// For a name below the folder ("sub/x.png"): the handle of the folder that holds it and its
    /// last component ("x.png"), which need not exist.
    public func parent(of relative: String, create: Bool = false, as kind: VRenderError.Kind = .input) throws -> (folder: FolderHandle, name: String) {
        var parts = try components(of: relative, as: kind)
        let name = parts.removeLast()
        var current = self
        for component in parts { current = try current.child(component, create: create, as: kind) }
        return (current, name)
    }

    /// `lstat` of the direct child `name` (a link is described, never followed); nil when absent.
    public func status(_ name: String) -> stat? {
        var info = stat()
        return FileNames.withPlatformPath(name) { fstatat(descriptor, $0, &info, AT_SYMLINK_NOFOLLOW) } == 0 ? info : nil
    }

    /// The names of the folder's direct children, without `.` and `..`, in no order.
    public func names() throws -> [String] {
        // A descriptor of its own (not `dup`, which would share the read position with every
        // other listing of this handle, on any thread).
        let stream: OpaquePointer
        do throws(SystemError) {
            let copy = try Syscall.openat(descriptor, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard let opened = fdopendir(copy) else {
                let failure = SystemError.last
                close(copy)
                throw failure
            }
            stream = opened
        } catch {
            throw VRenderError.input(path, error.reason("cannot list the folder"))
        }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = FileNames.name(of: entry)
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// The regular file `name`'s bytes, opened without following a link or waiting, checked
    /// through the descriptor that reads it; refused, naming the file, when it is a link, not a
    /// regular file, or over `limit` bytes (a crafted file must not make vrender read gigabytes).
    public func readFile(_ name: String, limit: Int) throws -> Data {
        let file: HeldFile
        do {
            file = try HeldFile.open(name, in: self)
        } catch {
            throw error.error(as: .input)
        }
        return try file.contents(limit: limit)
    }

    /// Creates the file `name`, which must not exist in any form (not even as a dangling link):
    /// `O_CREAT|O_EXCL|O_NOFOLLOW`. Returns a read-write descriptor the caller closes.
    public func createExclusive(_ name: String, as kind: VRenderError.Kind = .output) throws -> Int32 {
        do throws(SystemError) {
            return try Syscall.openat(descriptor, name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode: 0o666)
        } catch {
            let reason = error.code == EEXIST ? "already exists" : error.description
            throw VRenderError(kind, subject: join(name), reason: "cannot create the file (\(reason))")
        }
    }

    /// Removes the direct child `name` when it is a file or a link (the link itself, never what
    /// it leads to). False when there was nothing to remove or it could not be removed.
    @discardableResult
    public func remove(_ name: String) -> Bool {
        FileNames.withPlatformPath(name) { unlinkat(descriptor, $0, 0) } == 0
    }

    /// Removes the sub-folder `name` and everything below it, going down through descriptors:
    /// a link inside is removed as a link, never followed. A `name` that is not a folder is
    /// left alone and reported.
    public func removeTree(_ name: String) throws {
        guard let info = status(name) else { return }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw VRenderError.output(join(name), "is not a folder; left as it is")
        }
        let inner = try child(name, create: false, as: .output)
        for entry in try inner.names() {
            if let kind = inner.status(entry), kind.st_mode & S_IFMT == S_IFDIR {
                try inner.removeTree(entry)
            } else if !inner.remove(entry), case let failure = SystemError.last, failure.code != ENOENT {
                throw VRenderError.output(inner.join(entry), failure.reason("cannot remove"))
            }
        }
        if FileNames.withPlatformPath(name, { unlinkat(descriptor, $0, AT_REMOVEDIR) }) != 0,
           case let failure = SystemError.last, failure.code != ENOENT {
            throw VRenderError.output(join(name), failure.reason("cannot remove the folder"))
        }
    }

    /// `path/name`: what messages show, and what a reader that takes a path is given.
    public func join(_ name: String) -> String {
        (path.hasSuffix("/") ? path : path + "/") + name
    }

    /// `fsync` of the folder, so that entries just renamed into it survive a crash. A file
    /// system that cannot flush a folder (`EINVAL`) has nothing to flush.
    public func flush() -> Int32 {
        do throws(SystemError) {
            try Syscall.retrying { fsync(descriptor) }
            return 0
        } catch {
            return error.code == EINVAL ? 0 : -1
        }
    }

    /// True once the folder has been removed (no name leads to it any more): writes into it
    /// would vanish with it.
    public var isRemoved: Bool {
        var info = stat()
        return fstat(descriptor, &info) == 0 && info.st_nlink == 0
    }

    /// True when `other` is this very folder (same device and inode).
    public func isSame(as other: FolderHandle) -> Bool {
        var one = stat(), two = stat()
        return fstat(descriptor, &one) == 0 && fstat(other.descriptor, &two) == 0
            && one.st_dev == two.st_dev && one.st_ino == two.st_ino
    }

    // MARK: - Components

    /// A relative name's components; refused when empty, absolute, or with `..` (`.` and empty
    /// components are not names of anything either: "./x" and "a//b" are spellings vrender never
    /// writes, and accepting them makes one file two entries).
    private func components(of relative: String, as kind: VRenderError.Kind) throws -> [String] {
        func refuse(_ why: String) -> VRenderError { VRenderError(kind, subject: join(relative), reason: why) }
        guard !relative.isEmpty else { throw refuse("is not a file name (empty)") }
        guard !relative.hasPrefix("/") else { throw refuse("is an absolute path; names must stay inside \(path)") }
        let parts = relative.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        for part in parts {
            if part == ".." { throw refuse("leads outside \(path) ('..')") }
            if part.isEmpty || part == "." { throw refuse("is not a plain file name ('.' or an empty component)") }
            if part.utf8.count > Int(NAME_MAX) { throw refuse("has a component longer than \(NAME_MAX) bytes") }
        }
        return parts
    }

    /// The direct sub-folder `name`, opened with `O_NOFOLLOW`: a link there is refused by name.
    private func child(_ name: String, create: Bool, as kind: VRenderError.Kind) throws -> FolderHandle {
        if create {
            let made = FileNames.withPlatformPath(name) { mkdirat(descriptor, $0, 0o777) } == 0
            if !made, case let failure = SystemError.last, failure.code != EEXIST {
                throw VRenderError(kind, subject: join(name), reason: failure.reason("cannot create the folder"))
            }
        }
        do throws(SystemError) {
            let opened = try Syscall.openat(descriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            return FolderHandle(descriptor: opened, path: join(name))
        } catch {
            let reason = status(name).map { $0.st_mode & S_IFMT == S_IFLNK } == true
                ? "is a symbolic link; vrender does not follow links inside a folder it works in"
                : Self.folderReason(error)
            throw VRenderError(kind, subject: join(name), reason: reason)
        }
    }

    private static func folderReason(_ failure: SystemError) -> String {
        switch failure.code {
        case ENOENT: "no such folder"
        case ENOTDIR: "is not a folder"
        case ELOOP: "is a symbolic link; vrender does not follow links inside a folder it works in"
        default: failure.description
        }
    }
}
