import Foundation
import VRenderCore

/// Where the names `takes.json` lists lead. A takes folder may come from someone else, and
/// `takes rm` deletes, `takes recover` writes and `concat` reads what its entries name: each
/// name is resolved below the open folder, one component at a time, never through a link, so
/// no name (one that exists, or one not made yet) can lead outside. Its spelling (relative, no
/// `..`, no `.`) was checked as `takes.json` loaded.
extension TakesFolder {
    /// Where a name below a folder leads.
    enum Location {
        /// The folder that holds it (opened without following a link) and its last component,
        /// which may or may not exist.
        case at(FolderHandle, String)
        /// A folder on the way is missing, or is a file: nothing by that name can exist.
        case absent
        /// A folder on the way (`through`, as far as the name goes) is a symbolic link.
        case throughLink(String)
    }

    /// Resolves `name` below `folder`. Throws only when a folder on the way cannot be opened.
    static func locate(_ name: String, in folder: FolderHandle) throws -> Location {
        var parts = name.split(separator: "/").map(String.init)
        guard let last = parts.popLast() else { return .absent }
        var current = folder, walked: [String] = []
        for part in parts {
            walked.append(part)
            guard let info = current.status(part) else { return .absent }
            switch info.st_mode & S_IFMT {
            case S_IFDIR: current = try current.folder(part)
            case S_IFLNK: return .throughLink(walked.joined(separator: "/"))
            default: return .absent
            }
        }
        return .at(current, last)
    }

    /// Every name `manifest` lists (videos and thumbnails) must stay inside `folder`: no folder
    /// on its way may be a symbolic link, and a name that is itself a link (which `concat` would
    /// read through) must lead to a file inside. Throws an error naming `takes.json` and the
    /// entry. Names need not exist (a take may be missing).
    static func requireEntriesInside(_ manifest: TakesManifest, folder: FolderHandle) throws {
        let root = realPath(folder.path)
        for (number, take) in manifest.takes.enumerated() {
            for name in [take.file, take.thumbnail].compactMap({ $0 }) {
                func refuse(_ why: String) -> VRenderError {
                    VRenderError.input(folder.join(TakesManifest.fileName), "entry \(number + 1) '\(name)' \(why)")
                }
                switch try locate(name, in: folder) {
                case .absent:
                    continue
                case .throughLink(let link):
                    throw refuse("leads through '\(link)', a symbolic link; vrender does not follow links inside a takes folder")
                case .at(let parent, let last):
                    guard let info = parent.status(last), info.st_mode & S_IFMT == S_IFLNK else { continue }
                    // A link listed as a take: read through by `concat`, so it must stay inside.
                    guard let resolved = realPath(parent.join(last)) else { throw refuse("is a symbolic link to nothing") }
                    guard let root, resolved.hasPrefix(root == "/" ? "/" : root + "/") else {
                        throw refuse("is a symbolic link leading outside the folder (to \(resolved))")
                    }
                }
            }
        }
    }

    /// `realpath(3)`: the path with every symbolic link, `.` and `..` resolved; nil when it
    /// does not exist.
    private static func realPath(_ path: String) -> String? {
        guard let resolved = FileNames.withPlatformPath(path, { realpath($0, nil) }) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
