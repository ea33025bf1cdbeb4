import VRenderCore
import VRenderMedia

/// The takes of a folder others may write, opened once and read through their descriptors: what
/// the studio copies and exports. A take checked by name and then read by name again could be
/// replaced in between by a link to someone's private video (or a FIFO, which would hang the
/// reader); a take opened here is the file that was checked, whatever its name becomes.
extension TakesFolder {
    /// One take, open: the file and the trim takes.json gives it.
    public struct OpenTake: Sendable {
        public let file: HeldFile
        public let trim: TakeTrim?
    }

    /// Every take takes.json lists, in its order, each opened through `folder` without following
    /// a link (`HeldFile`: a regular file, directly below the folder or in a sub-folder reached
    /// without a link). Reads under the folder's shared lock, as `takeInputs(in:)` does. Throws,
    /// naming takes.json's entry, for a take that is missing, a link or not a regular file.
    public static func openTakes(in folder: FolderHandle) throws -> [OpenTake] {
        try FolderLock.with(folder, .shared, for: "vrender studio") {
            let manifest = try manifest(in: folder)
            guard !manifest.takes.isEmpty else {
                throw VRenderError.input(folder.path, "has no takes (\(TakesManifest.fileName) lists none)")
            }
            return try manifest.takes.enumerated().map { number, take in
                try OpenTake(file: openTake(take.file, in: folder, entry: number + 1), trim: take.trim)
            }
        }
    }

    /// The take `file` (a name takes.json lists) below `folder`, opened as `HeldFile` does.
    public static func openTake(_ file: String, in folder: FolderHandle, entry: Int? = nil) throws -> HeldFile {
        let (parent, name) = try folder.parent(of: file)
        do {
            return try HeldFile.open(name, in: parent)
        } catch {
            let listed = entry.map { " (listed in \(TakesManifest.fileName), entry \($0))" } ?? ""
            throw VRenderError.input(error.path, error.reason + listed)
        }
    }
}
