import Foundation
import VRenderCore

/// Which folder vrender may work in, and what it removes afterwards. A work folder is one that
/// vrender made, or an empty one it was given; either way it is marked (`.vrender-work-folder`,
/// saying whether vrender made it). vrender never works in a folder holding anything else, nor
/// in one that holds the output or an input, and removes only what it put there.
extension WorkFolder {
    static let markerName = ".vrender-work-folder"

    struct Marker: Codable {
        /// True when vrender made the folder (and so removes it once it is empty).
        var createdFolder: Bool
    }

    /// Throws unless the folder is absent, empty, or a vrender work folder, and holds neither
    /// `output` nor any of `inputs` at any depth (compared by device and inode, so no spelling
    /// of a path, and no link, hides it).
    func checkUsable(output: String, inputs: [String]) throws {
        guard let folder = FileNames.status(path) else { return }   // made with the plan
        guard folder.st_mode & S_IFMT == S_IFDIR else { throw VRenderError.output(path, "is not a folder: --work-dir names a folder") }
        let names = try root().names()
        guard names.isEmpty || names.contains(Self.markerName) else {
            throw VRenderError.output(path, "is not empty and is not a vrender work folder (no \(Self.markerName)): give an empty folder or a new one (--work-dir); vrender removes what it puts there when the export is done")
        }
        if Self.isInside(output, folder: folder) {
            throw VRenderError.output(path, "holds the output \(output): the work folder is emptied when the export is done; give another --work-dir or output")
        }
        if let input = inputs.first(where: { Self.isInside($0, folder: folder) }) {
            throw VRenderError.output(path, "holds the input \(input): the work folder is emptied when the export is done; give another --work-dir")
        }
    }

    /// Throws when `file` (the output of `chunk join`) is inside the folder.
    func checkOutsideFolder(_ file: String) throws {
        guard let folder = FileNames.status(path), Self.isInside(file, folder: folder) else { return }
        throw VRenderError.output(file, "is inside the work folder \(path), which is emptied when the export is done")
    }

    /// True when `folder` is `file`'s folder or one above it: the folders are walked up by
    /// `..` from the file's (the kernel's own view, links resolved), to the root.
    static func isInside(_ file: String, folder: stat) -> Bool {
        var directory = FileNames.split(FileNames.absolute(file)).directory
        for _ in 0..<4096 {
            guard let info = FileNames.status(directory) else { return false }
            if info.st_dev == folder.st_dev && info.st_ino == folder.st_ino { return true }
            guard let parent = FileNames.status(directory + "/.."), parent.st_dev != info.st_dev || parent.st_ino != info.st_ino else { return false }
            directory += "/.."
        }
        return false
    }

    /// Makes the folder (only its last component), or takes the empty one given, marks it,
    /// and makes the subfolders.
    func create() throws {
        let (root, created) = try FolderHandle.openOrCreate(path)
        if root.status(Self.markerName) == nil {
            try AtomicFile.writeJSON(Marker(createdFolder: created), in: root, name: Self.markerName)
        }
        for name in Self.subfolders { _ = try root.folder(name, create: true) }
    }

    /// After a successful export (or a first run that failed before any chunk was tried):
    /// the entries vrender puts in its work folder go, by descriptor, never through a link;
    /// then the folder, if vrender made it and nothing else is left in it. A folder without
    /// the marker is not vrender's: nothing in it is touched.
    func remove() {
        guard let root = try? root(), root.status(Self.markerName) != nil else { return }
        let marker = (try? root.readFile(Self.markerName, limit: 4096)).flatMap { try? JSONDecoder().decode(Marker.self, from: $0) }
        for name in Self.subfolders {
            guard let info = root.status(name) else { continue }
            if info.st_mode & S_IFMT == S_IFDIR { try? root.removeTree(name) } else { root.remove(name) }   // a link: only itself
        }
        for name in [Self.planName, Self.joinedName, Self.markerName] { root.remove(name) }
        if marker?.createdFolder == true, (try? root.names())?.isEmpty == true {
            _ = FileNames.withPlatformPath(path) { rmdir($0) }   // only ever removes an empty folder
        }
    }
}
