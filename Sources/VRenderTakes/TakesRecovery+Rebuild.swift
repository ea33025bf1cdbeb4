import Foundation
import VRenderCore
import VRenderMedia

/// The entries `takes.json` will hold, worked out take by take, and the report's lines.
struct ManifestRebuild {
    let folder: FolderHandle
    var directory: String { folder.path }
    private(set) var entries: [TakeEntry]
    private(set) var report: [TakesRecoveryReport.Take] = []
    /// Unfinished take files another process has open, with its id.
    private var busy: [String: Int32] = [:]

    init(folder: FolderHandle, entries: [TakeEntry]) {
        self.folder = folder
        self.entries = entries
    }

    private func path(_ name: String) -> String { TakesFolder.join(directory, name) }

    /// The report's lines in `takes.json`'s new order, then the takes it does not list.
    var reportInListOrder: [TakesRecoveryReport.Take] {
        let position = Dictionary(entries.enumerated().map { ($1.file, $0) }, uniquingKeysWith: { first, _ in first })
        return report.enumerated().sorted { a, b in
            (position[a.element.file] ?? .max, a.offset) < (position[b.element.file] ?? .max, b.offset)
        }.map(\.element)
    }

    /// Looks up, once for the whole folder, which unfinished take files are open elsewhere.
    mutating func findBusyFiles(unlisted: [String]) {
        let candidates = (entries.map(\.file) + unlisted).map(path).filter { TakeFiles.isFinished($0) == false }
        busy = OpenFiles.holders(of: candidates)
    }

    /// Listed takes keep their entries; an unfinished one (a copy cut short) is saved in place
    /// and its counts updated; a missing one is reported.
    mutating func reviewListed() {
        for index in entries.indices {
            let take = entries[index], file = path(take.file)
            var info = stat()
            guard lstat(file, &info) == 0 else {
                note(take.file, .missing, "listed in \(TakesManifest.fileName) (entry \(index + 1)) but the file is gone")
                continue
            }
            guard info.st_mode & S_IFMT == S_IFREG, TakeFiles.isFinished(file) == false else {
                if let thumbnail = take.thumbnail { TakesRecovery.ensureThumbnail(thumbnail, in: folder, of: file) }
                note(take.file, .kept, nil, entry: take)
                continue
            }
            guard let saved = salvage(take.file) else { continue }
            if let thumbnail = take.thumbnail { TakesRecovery.ensureThumbnail(thumbnail, in: folder, of: file) }
            entries[index].frames = saved.check.decodableFrames
            entries[index].duration = TakesRecovery.listedSeconds(saved.check.duration)
            entries[index].check = saved.check
            note(take.file, .recovered, Self.describe(saved.copied), entry: entries[index])
        }
    }

    /// A take file `takes.json` does not list: saved if unfinished, then listed by take number.
    mutating func add(_ name: String) {
        let file = path(name), modified = TakesRecovery.modificationDate(file)
        let layout: QuickTimeLayout?
        do {
            layout = try QuickTimeLayout.read(file)
        } catch {
            return note(name, .unsaveable, Self.reason(error))
        }
        let check: TakeCheck, outcome: TakesRecoveryReport.Outcome, detail: String
        switch layout?.isFinished {
        case nil:
            let empty = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) == 0
            return note(name, .unsaveable, empty ? "empty file (0 bytes)" : "not a QuickTime file")
        case true?:
            check = TakeVerifier.verify(path: file, streamsEndTogether: false)
            guard check.decodableFrames > check.damagedFrames else {
                return note(name, .unsaveable, check.problem ?? "no decodable frames")
            }
            outcome = .listed
            detail = "finished, but missing from \(TakesManifest.fileName)" + (check.problem.map { "; \($0)" } ?? "")
        case false?:
            guard let saved = salvage(name) else { return }
            check = saved.check
            outcome = .recovered
            detail = Self.describe(saved.copied)
        }
        let thumbnail = (name as NSString).deletingPathExtension + ".png"
        let hasThumbnail = TakesRecovery.ensureThumbnail(thumbnail, in: folder, of: file)
        do {
            let entry = try TakesRecovery.entry(forFile: name, in: directory, check: check, modified: modified,
                                                thumbnail: hasThumbnail ? thumbnail : nil)
            insertByNumber(entry)
            note(name, outcome, detail, entry: entry)
        } catch {
            note(name, .unsaveable, Self.reason(error))
        }
    }

    /// Saves the unfinished take `name`, or reports why not (nil then).
    private mutating func salvage(_ name: String) -> TakesRecovery.Salvaged? {
        if let pid = busy[path(name)] {
            note(name, .inUse, "open in process \(pid) (a capture still recording it?): left alone")
            return nil
        }
        do {
            return try TakesRecovery.salvage(path(name))
        } catch {
            note(name, .unsaveable, Self.reason(error) + "; left as it was")
            return nil
        }
    }

    /// Before the first listed take with a higher number, so recording order holds; a name
    /// without a number goes last.
    private mutating func insertByNumber(_ entry: TakeEntry) {
        guard let number = TakesFolder.takeNumber(inFileName: entry.file) else { return entries.append(entry) }
        let later = entries.firstIndex { TakesFolder.takeNumber(inFileName: $0.file).map { $0 > number } ?? false }
        entries.insert(entry, at: later ?? entries.endIndex)
    }

    private mutating func note(_ file: String, _ outcome: TakesRecoveryReport.Outcome, _ detail: String?,
                               entry: TakeEntry? = nil) {
        report.append(.init(file: file, outcome: outcome, frames: entry?.frames, duration: entry?.duration, detail: detail))
    }

    private static func describe(_ copied: PacketSalvage.Outcome) -> String {
        var words = "unfinished"
        if copied.cutPackets > 0 { words += "; dropped \(copied.cutPackets) packet(s) cut off by the end of the file" }
        if copied.stoppedAtDamage { words += "; damaged data ended the copy early" }
        return words
    }

    private static func reason(_ error: any Error) -> String {
        (error as? VRenderError)?.reason ?? "\(error)"
    }
}
