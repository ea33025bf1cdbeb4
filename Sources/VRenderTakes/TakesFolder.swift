import Foundation
import VRenderCore
import VRenderImaging
import VRenderMedia

/// A folder of recorded takes, read through its `takes.json`: what `vrender takes` looks after
/// and what `vrender concat DIR` joins. Every path it returns stays inside the folder, because a
/// takes folder may come from someone else and its manifest must not reach outside it.
///
/// Stateless; every call reads the folder afresh, so it is safe from any thread. Commands that
/// change `takes.json` hold the folder's lock (`FolderLock`) from reading it to saving it, so
/// two of them (a capture and a `takes rm`, two captures) never undo each other's changes.
public enum TakesFolder {
    /// Where the order of `takePaths(in:)` came from, so a plan can say so.
    public enum Order: Sendable, Equatable {
        /// `takes.json`'s order: recording order.
        case manifest
        /// No `takes.json`: the folder's video files sorted by name (byte order, as the C locale
        /// sorts a glob), which is recording order for vrender's own numbered takes.
        case fileNames
    }

    /// Extensions (lower case) of the files a folder without `takes.json` is read as.
    public static let videoExtensions: Set<String> = ["mov", "mp4", "m4v", "mkv", "webm"]

    /// `vrender takes list`: the takes `DIR/takes.json` lists, and a note naming the take files
    /// it does not (a capture that was killed), pointing to `takes recover`; nil when none.
    public static func listing(in directory: String) throws -> (takes: [TakeEntry], note: String?) {
        (try manifest(in: directory).takes, try TakesRecovery.pendingNotice(in: directory))
    }

    /// Reads `DIR/takes.json`. Unlike `TakesManifest.load(from:)`, which a first capture uses on
    /// a new folder, a folder without one is an error here: it is not a takes folder.
    public static func manifest(in directory: String) throws -> TakesManifest {
        try manifest(in: openFolder(directory))
    }

    static func manifest(in folder: FolderHandle) throws -> TakesManifest {
        guard folder.status(TakesManifest.fileName) != nil else {
            // A capture killed during its first take leaves the take and no takes.json yet.
            let takes = TakeFiles.names(in: folder.path).sorted()
            guard takes.isEmpty else {
                let named = takes.prefix(3).joined(separator: ", ") + (takes.count > 3 ? ", …" : "")
                throw VRenderError.input(folder.path, "no \(TakesManifest.fileName), but \(takes.count) take file(s) (\(named)), "
                    + "as a capture stopped during its first take leaves them: 'vrender takes recover \(folder.path)' lists them")
            }
            throw VRenderError.input(folder.path, "no \(TakesManifest.fileName) (not a takes folder; 'vrender capture --out' makes one)")
        }
        return try checkedManifest(in: folder)
    }

    /// `takes.json`, known to exist, with every entry checked to stay inside the folder.
    private static func checkedManifest(in folder: FolderHandle) throws -> TakesManifest {
        let manifest = try TakesManifest.load(in: folder)
        try requireEntriesInside(manifest, folder: folder)
        return manifest
    }

    /// The take `name` means: its 1-based number as `vrender takes list` shows it, or its file name
    /// (a path to it is accepted too, so shell completion works).
    public static func index(of name: String, in manifest: TakesManifest, directory: String) throws -> Int {
        if let number = Int(name), number >= 1, number <= manifest.takes.count { return number - 1 }
        let file = (name as NSString).lastPathComponent
        if let index = manifest.takes.firstIndex(where: { $0.file == name || $0.file == file }) {
            return index
        }
        throw VRenderError.input(name, "no such take in \(directory) (see 'vrender takes list \(directory)')")
    }

    /// Removes takes (named as `index(of:in:directory:)` reads them): their video, thumbnail,
    /// studio proxy and `takes.json` entry. Every name is resolved before anything is deleted, so one bad name
    /// removes nothing. Returns the removed entries, in recording order.
    ///
    /// Under the folder's lock, waiting for it up to `wait` (the studio's requests wait
    /// `FolderLock.Patience.request`); every deletion goes through the folder's descriptor, never
    /// following a link (a link listed is removed itself, not what it leads to).
    @discardableResult
    public static func remove(_ names: [String], from directory: String, wait: FolderLock.Patience = .command,
                              for command: String = "vrender takes rm") throws -> [TakeEntry] {
        let folder = try openFolder(directory)
        return try FolderLock.with(folder, .exclusive, for: command, wait: wait) {
            try removeLocked(names, from: folder)
        }
    }

    private static func removeLocked(_ names: [String], from folder: FolderHandle) throws -> [TakeEntry] {
        var manifest = try manifest(in: folder)
        let doomed = Set(try names.map { try index(of: $0, in: manifest, directory: folder.path) })
        var removed: [TakeEntry] = []
        for index in doomed.sorted(by: >) {
            let take = manifest.takes.remove(at: index)
            for file in [take.file, take.thumbnail].compactMap({ $0 }) {
                if case .at(let parent, let name) = try locate(file, in: folder) { parent.remove(name) }
            }
            removeProxy(of: take.file, in: folder)
            removed.insert(take, at: 0)
        }
        try manifest.save(in: folder)
        return removed
    }

    /// Empties a takes folder of what vrender records into it (takes, thumbnails, `takes.json`),
    /// leaving every other file; a missing folder is already empty. The demo starts from this,
    /// so reruns give the same takes.
    public static func removeAllTakes(in directory: String) {
        guard let folder = try? FolderHandle.open(directory), let names = try? folder.names() else { return }
        for name in names where name.hasPrefix(takeFilePrefix) || name == TakesManifest.fileName {
            folder.remove(name)   // a file, or a link itself: never what a link leads to
        }
    }

    /// The takes to join, in order, as paths `DIR/FILE` (a trailing `/` on `directory` is dropped).
    ///
    /// With `takes.json`: its entries in order. Each must name a file inside the folder (no
    /// absolute path, no `..`, no symbolic link leading out) that exists. Without it: the folder's
    /// video files (`videoExtensions`, hidden files skipped) sorted by name.
    /// An error names the folder when it is missing or holds no takes, `takes.json` and the entry
    /// when an entry leads outside, and the file when a listed one is missing.
    ///
    /// Holds the folder's lock shared while it reads, so a `takes rm` or a capture's change is
    /// either all in what it reads or not at all.
    public static func takePaths(in directory: String) throws -> (paths: [String], order: Order) {
        let inputs = try takeInputs(in: directory)
        return (inputs.takes.map(\.path), inputs.order)
    }

    /// As `takePaths(in:)`, with each take's trim from takes.json (none from a folder without one).
    public static func takeInputs(in directory: String) throws -> (takes: [(path: String, trim: TakeTrim?)], order: Order) {
        let directory = trimmingTrailingSlashes(directory)
        let folder = try openFolder(directory)
        return try FolderLock.with(folder, .shared, for: "vrender concat") { try takeInputsLocked(in: folder) }
    }

    private static func takeInputsLocked(in folder: FolderHandle) throws -> (takes: [(path: String, trim: TakeTrim?)], order: Order) {
        let directory = folder.path
        if folder.status(TakesManifest.fileName) != nil {
            let manifest = try checkedManifest(in: folder)
            guard !manifest.takes.isEmpty else {
                throw VRenderError.input(directory, "has no takes (\(TakesManifest.fileName) lists none)")
            }
            let paths = manifest.takes.enumerated().map { number, take in
                (path: join(directory, take.file), entry: number + 1)
            }
            for (path, entry) in paths where !FileManager.default.fileExists(atPath: path) {
                throw VRenderError.input(path, "listed in \(TakesManifest.fileName) (entry \(entry)) but missing")
            }
            return (zip(paths, manifest.takes).map { ($0.path, $1.trim) }, .manifest)
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { name in
            guard !name.hasPrefix("."), videoExtensions.contains((name as NSString).pathExtension.lowercased()) else { return false }
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: join(directory, name), isDirectory: &isDirectory) && !isDirectory.boolValue
        }
        guard !names.isEmpty else {
            throw VRenderError.input(directory, "has no takes (no \(TakesManifest.fileName) and no "
                                     + videoExtensions.sorted().map { "." + $0 }.joined(separator: ", ") + " files)")
        }
        // Byte order, not Swift's Unicode order or the locale's: what `ls` shows with LC_ALL=C.
        let sorted = names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        return (sorted.map { (join(directory, $0), nil) }, .fileNames)
    }

    /// A contact sheet: every take's frame at 0.05 s (the seed's thumbnail time), `width` pixels
    /// wide, `columns` to a row, in recording order, each labelled with its number and length
    /// (from `listed`, takes.json's entries, as `takes list` shows them) and its file's name.
    /// Refused, before the takes past the first are read, when the sheet would pass
    /// `maxSheetBytes`.
    static func contactSheet(of directory: String, listed: [TakeEntry], columns: Int,
                             width: Int) throws -> (sheet: RGBImage, takes: Int) {
        let (paths, _) = try takePaths(in: directory)
        let lengths = Dictionary(listed.map { ($0.file, $0.duration) }, uniquingKeysWith: { first, _ in first })
        let labels = paths.enumerated().map { index, path in
            let name = (path as NSString).lastPathComponent
            return "\(index + 1)" + (lengths[name].map { String(format: "  %.2f s", $0) } ?? "") + "\n" + name
        }
        let thumbnailer = Thumbnailer()
        var images: [RGBImage] = []
        for path in paths {
            images.append(try VRenderError.attributing(to: path, as: .input) {
                try FrameGrabber.frame(in: path, atSeconds: TakeFileLayout.thumbnailTime) {
                    try thumbnailer.thumbnail(of: $0, width: width)
                }
            })
            // With the largest thumbnail so far for every take: the sheet is at least this big.
            let bytes = sheetBytes(takes: paths.count, columns: columns, cell: (images.map(\.width).max() ?? 0, images.map(\.height).max() ?? 0))
            guard bytes <= maxSheetBytes else {
                throw VRenderError.input(directory, "a contact sheet of its \(paths.count) takes at \(width) pixels wide would take "
                                         + "\(bytes >> 20) MiB, over the \(maxSheetBytes >> 20) MiB vrender makes one of; use a smaller --width")
            }
        }
        return (RGBImage.grid(images, labels: labels, columns: columns), images.count)
    }

    /// The most a contact sheet's pixels may take (the thumbnails take as much again): some
    /// 1,500 takes at the default 320 pixels.
    public static let maxSheetBytes = 256 << 20

    /// Bytes of `RGBImage.grid`'s sheet of `takes` cells of `cell` size, 8 pixels apart.
    static func sheetBytes(takes: Int, columns: Int, cell: (width: Int, height: Int)) -> Int {
        let gap = 8, used = Swift.min(columns, takes), rows = (takes + columns - 1) / columns
        let height = cell.height + RGBImage.labelHeight(lines: 2)
        let (across, down) = ((gap + used * (cell.width + gap)), (gap + rows * (height + gap)))
        let (pixels, overflow) = across.multipliedReportingOverflow(by: down)
        return overflow || pixels > Int.max / 3 ? Int.max : pixels * 3
    }

    /// `vrender takes thumbs`: writes the contact sheet of the takes folder `directory` (which
    /// must have a `takes.json`) to the PNG file `output`. Returns its size and how many takes
    /// it shows. Errors name the folder, the take or the output file.
    @discardableResult
    public static func writeContactSheet(of directory: String, to output: String, columns: Int,
                                         width: Int) throws -> (width: Int, height: Int, takes: Int) {
        // Through takes.json, as every takes command reads a folder; its entries give the labels.
        let listed = try manifest(in: directory).takes
        let (sheet, takes) = try contactSheet(of: directory, listed: listed, columns: columns, width: width)
        try PNGWriter.write(sheet, to: output)
        return (sheet.width, sheet.height, takes)
    }

    // MARK: - Paths

    /// The folder at `directory`, open; errors name it ("no such folder", "is not a folder").
    static func openFolder(_ directory: String) throws -> FolderHandle {
        try FolderHandle.open(directory)
    }

    package static func manifestPath(_ directory: String) -> String { join(directory, TakesManifest.fileName) }

    package static func join(_ directory: String, _ file: String) -> String {
        let directory = trimmingTrailingSlashes(directory)
        return (directory == "/" ? "" : directory) + "/" + file
    }

    static func trimmingTrailingSlashes(_ path: String) -> String {
        var path = path
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        return path
    }
}
