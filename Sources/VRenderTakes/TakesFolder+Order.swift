import VRenderCore

extension TakesFolder {
    /// Puts takes.json's takes in the order `files` names them (the studio's take strip, dragged):
    /// the order an export joins them in. `files` must name every take listed, each once, by its
    /// file name, so a page that missed a change (a take added or deleted meanwhile) gets an
    /// error and changes nothing. Returns the takes in their new order.
    ///
    /// Under the folder's lock, like every change to takes.json: a capture that lists a new
    /// take at the same moment waits, and then appends to the new order. Waits for the lock
    /// `FolderLock.briefWait` at most (a studio request must answer): busy is an error.
    @discardableResult
    public static func reorder(_ files: [String], in directory: String) throws -> [TakeEntry] {
        let folder = try openFolder(directory)
        return try FolderLock.with(folder, .exclusive, for: "vrender studio", wait: FolderLock.briefWait) {
            var manifest = try manifest(in: folder)
            let listed = manifest.takes.map(\.file)
            guard files.count == listed.count, Set(files).count == files.count, Set(files) == Set(listed) else {
                throw VRenderError.input(join(folder.path, TakesManifest.fileName),
                                         "the new order must name each of its \(listed.count) take(s) once "
                                         + "(it was given \(files.count) name(s)); takes.json was not changed")
            }
            let byFile = Dictionary(manifest.takes.map { ($0.file, $0) }, uniquingKeysWith: { first, _ in first })
            manifest.takes = files.compactMap { byFile[$0] }
            try manifest.save(in: folder)
            return manifest.takes
        }
    }
}
