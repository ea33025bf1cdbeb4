import Foundation
import VRenderCore
import VRenderMedia

/// `vrender takes recover DIR`: saves the takes a capture never finished (killed, power loss,
/// disk full) and rebuilds `takes.json` from the files on disk.
///
/// - Unfinished: a take file without the trailer a finished fragmented file ends with
///   (`QuickTimeLayout.isFinished`). Its whole packets are copied into a new file of the same
///   layout (`PacketSalvage`), which replaces it only after reading it back (`salvage`).
/// - `takes.json`: listed takes keep their entries and order; takes not listed get an entry read
///   from the file, placed by take number. A damaged `takes.json` is kept aside, never lost; a
///   valid one that names files outside the folder is refused, as by every takes command.
/// - Nothing is deleted. A take that cannot be saved is reported and left as it was.
///
/// Running it again finds nothing to do. Safe beside a capture into the same folder: a file
/// another process has open is left alone.
package enum TakesRecovery {
    /// Holds the folder's lock throughout: what it writes is worked out from `takes.json` and
    /// the files as they were when it started.
    package static func recover(_ directory: String) throws -> TakesRecoveryReport {
        let folder = try TakesFolder.openFolder(TakesFolder.trimmingTrailingSlashes(directory))
        return try FolderLock.with(folder, .exclusive, for: "vrender takes recover") { try recoverLocked(folder) }
    }

    private static func recoverLocked(_ folder: FolderHandle) throws -> TakesRecoveryReport {
        let directory = folder.path
        let stored = try StoredManifest(folder: folder)
        if case .valid(let manifest) = stored {
            try TakesFolder.requireEntriesInside(manifest, folder: folder)
        }
        var rebuild = ManifestRebuild(folder: folder, entries: stored.manifest?.takes ?? [])
        let listed = Set(rebuild.entries.map(\.file))
        let unlisted = TakeFiles.names(in: directory).filter { !listed.contains($0) }
        rebuild.findBusyFiles(unlisted: unlisted)
        rebuild.reviewListed()
        for name in unlisted { rebuild.add(name) }

        var damagedCopy: String?
        if case .damaged(let bytes) = stored { damagedCopy = try keepDamagedManifest(bytes, in: folder) }
        let write = switch stored {
        case .valid(let manifest): manifest.takes != rebuild.entries
        case .damaged: true
        case .absent: !rebuild.entries.isEmpty
        }
        if write { try TakesManifest(takes: rebuild.entries).save(in: folder) }
        var report = TakesRecoveryReport(directory: directory, takes: rebuild.reportInListOrder, manifestWritten: write,
                                         damagedManifestCopy: damagedCopy)
        // Temporaries of killed runs (salvage copies, takes.json, thumbnails): never a take.
        report.removedTemporaries = AtomicFile.removeLeftovers(in: folder)
        return report
    }

    /// For `vrender capture`, before it adds takes to `directory`: a notice naming the take files
    /// that `takes.json` does not list (an unfinished take, a take whose entry was never
    /// written), suggesting `vrender takes recover`; nil when there are none. Throws
    /// `TakesManifest.load`'s error for a damaged `takes.json`, which suggests it too.
    package static func pendingNotice(in directory: String) throws -> String? {
        let listed = Set(try TakesManifest.load(from: directory).takes.map(\.file))
        let unlisted = TakeFiles.names(in: directory).filter { !listed.contains($0) }
        let busy = OpenFiles.holders(of: unlisted.map { TakesFolder.join(directory, $0) })
        let idle = unlisted.filter { busy[TakesFolder.join(directory, $0)] == nil }
        guard !idle.isEmpty else { return nil }
        let unfinished = idle.filter { TakeFiles.isFinished(TakesFolder.join(directory, $0)) == false }
        let unlistedFinished = idle.filter { !unfinished.contains($0) }
        func names(_ files: [String]) -> String {
            files.prefix(3).joined(separator: ", ") + (files.count > 3 ? ", …" : "")
        }
        var parts: [String] = []
        if !unfinished.isEmpty { parts.append("\(unfinished.count) unfinished take(s) (\(names(unfinished)))") }
        if !unlistedFinished.isEmpty {
            parts.append("\(unlistedFinished.count) take(s) missing from \(TakesManifest.fileName) (\(names(unlistedFinished)))")
        }
        return "\(directory) has \(parts.joined(separator: " and ")): run 'vrender takes recover \(directory)'"
    }

    /// Writes the damaged `takes.json`'s bytes to `takes.json.damaged-<UTC time>` (a number
    /// added if that exists) before the rebuilt one replaces it. Returns the name.
    static func keepDamagedManifest(_ bytes: Data, in folder: FolderHandle) throws -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withYear, .withMonth, .withDay, .withTime, .withTimeZone]
        let stem = TakesManifest.fileName + ".damaged-" + formatter.string(from: Date())
        var name = stem
        var serial = 2
        while folder.status(name) != nil {
            name = stem + "-\(serial)"
            serial += 1
        }
        try bytes.withUnsafeBytes { try AtomicFile.write($0, in: folder, name: name) }
        return name
    }
}

/// `takes.json` as recovery finds it.
enum StoredManifest {
    case absent
    case valid(TakesManifest)
    /// Truncated, not JSON, JSON of another shape, or an entry out of range: its bytes, to keep.
    case damaged(Data)

    /// Throws for a file that cannot be read, and for one whose names lead outside the folder
    /// (refused, as by every takes command); one out of range otherwise is damaged, kept aside.
    init(folder: FolderHandle) throws {
        let path = folder.join(TakesManifest.fileName)
        guard let bytes = try TakesManifest.readBytes(in: folder) else {
            self = .absent
            return
        }
        guard let manifest = try? TakesManifest(json: bytes) else {
            self = .damaged(bytes)
            return
        }
        try manifest.requireNamesInside(path: path)
        self = (try? manifest.requireValidEntries(path: path)) == nil ? .damaged(bytes) : .valid(manifest)
    }

    var manifest: TakesManifest? {
        if case .valid(let manifest) = self { return manifest }
        return nil
    }
}
