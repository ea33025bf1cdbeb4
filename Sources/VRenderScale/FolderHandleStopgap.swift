import Foundation
import Glibc
import VRenderCore

// STOPGAP until the lead's VRenderCore.FolderHandle lands on main: the subset of its API that
// VRenderScale uses, with the same names, so the switch is deleting this file.

/// An open directory; names below it are resolved by descriptor with O_NOFOLLOW.
final class FolderHandle: Sendable {
    let path: String
    /// Owned descriptor, closed on deinit; never changed, so sharing it between threads is safe.
    private let descriptor: Int32

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    static func open(_ path: String) throws -> FolderHandle {
        let descriptor = FileNames.withPlatformPath(path) { Glibc.open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard descriptor >= 0 else { throw VRenderError.input(path, "cannot open the folder (\(String(cString: strerror(errno))))") }
        return FolderHandle(path: path, descriptor: descriptor)
    }

    static func openOrCreate(_ path: String) throws -> (folder: FolderHandle, created: Bool) {
        let made = FileNames.withPlatformPath(path) { mkdir($0, 0o777) } == 0
        if !made && errno != EEXIST {
            throw VRenderError.output(path, "cannot create the folder (\(String(cString: strerror(errno))))")
        }
        return (try open(path), made)
    }

    func folder(_ relative: String, create: Bool = false) throws -> FolderHandle {
        precondition(!relative.contains("/") && relative != ".." && relative != ".", "stopgap: one plain name only")
        if create, mkdirat(descriptor, relative, 0o777) != 0, errno != EEXIST {
            throw VRenderError.output(join(relative), "cannot create the folder (\(String(cString: strerror(errno))))")
        }
        let child = openat(descriptor, relative, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard child >= 0 else {
            throw VRenderError.input(join(relative), "is not a folder vrender can open beneath \(path) (\(String(cString: strerror(errno))))")
        }
        return FolderHandle(path: join(relative), descriptor: child)
    }

    func status(_ name: String) -> stat? {
        var info = stat()
        return fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 ? info : nil
    }

    func names() throws -> [String] {
        (try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd/\(descriptor)"))
    }

    func readFile(_ name: String, limit: Int) throws -> Data {
        let file = openat(descriptor, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard file >= 0 else { throw VRenderError.input(join(name), "cannot be read (\(String(cString: strerror(errno))))") }
        defer { close(file) }
        var info = stat()
        guard fstat(file, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { throw VRenderError.input(join(name), "is not a file") }
        guard info.st_size <= limit else { throw VRenderError.input(join(name), "is over \(limit) bytes") }
        var data = Data(count: Int(info.st_size))
        let count = data.withUnsafeMutableBytes { read(file, $0.baseAddress, $0.count) }
        guard count == Int(info.st_size) else { throw VRenderError.input(join(name), "cannot be read") }
        return data
    }

    func createExclusive(_ name: String) throws -> Int32 {
        let file = openat(descriptor, name, O_CREAT | O_EXCL | O_NOFOLLOW | O_RDWR | O_CLOEXEC, 0o666)
        guard file >= 0 else { throw VRenderError.output(join(name), "cannot create it (\(String(cString: strerror(errno))))") }
        return file
    }

    @discardableResult func remove(_ name: String) -> Bool { unlinkat(descriptor, name, 0) == 0 }

    func removeTree(_ name: String) throws {
        guard let info = status(name) else { return }
        guard info.st_mode & S_IFMT == S_IFDIR else { remove(name); return }
        let child = try folder(name)
        for entry in try child.names() { try child.removeTree(entry) }
        guard unlinkat(descriptor, name, AT_REMOVEDIR) == 0 else { throw VRenderError.output(join(name), "cannot remove it") }
    }

    func join(_ name: String) -> String { path + "/" + name }
}

extension AtomicFile {
    static func write(_ bytes: UnsafeRawBufferPointer, in folder: FolderHandle, name: String) throws {
        try write(bytes, to: folder.join(name))
    }

    static func writeJSON(_ value: some Encodable, in folder: FolderHandle, name: String) throws {
        try writeJSON(value, to: folder.join(name))
    }
}
