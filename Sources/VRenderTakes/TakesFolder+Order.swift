import Foundation
import VRenderCore

/// The order of takes.json's takes: the order `vrender concat DIR` and the studio's exports join
/// them in. Changed by the studio's take strip (dragged), `takes order` and `takes mv`; each
/// change is made under the folder's lock, like every change to takes.json: a capture that lists
/// a new take at the same moment waits, and then appends to the new order.
extension TakesFolder {
    /// Puts takes.json's takes in the order `files` names them (the studio's take strip, dragged).
    /// `files` must name every take listed, each once, by its file name, so a page that missed a
    /// change (a take added or deleted meanwhile) gets an error and changes nothing. Returns the
    /// takes in their new order. Waits for the lock as a studio request does
    /// (`FolderLock.Patience.request`: it must answer): busy is an error.
    @discardableResult
    public static func reorder(_ files: [String], in directory: String) throws -> [TakeEntry] {
        try rearrange(in: directory, for: "vrender studio", wait: .request) { manifest, path in
            let listed = manifest.takes.map(\.file)
            guard files.count == listed.count, Set(files).count == files.count, Set(files) == Set(listed) else {
                throw VRenderError.input(path, "the new order must name each of its \(listed.count) take(s) once "
                                         + "(it was given \(files.count) name(s)); takes.json was not changed")
            }
            let position = Dictionary(listed.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            return files.compactMap { position[$0] }
        }
    }

    /// `vrender takes order DIR 3 1 2`: the takes in the order named, by number as `takes list`
    /// shows them or by file name. Every take must be named once; an error names the ones left
    /// out or named twice, and changes nothing.
    @discardableResult
    public static func order(_ names: [String], in directory: String) throws -> [TakeEntry] {
        try rearrange(in: directory, for: "vrender takes order", wait: .command) { manifest, path in
            let picked = try names.map { try index(of: $0, in: manifest, directory: directory) }
            let twice = picked.enumerated().filter { picked.prefix($0.offset).contains($0.element) }.map { $0.element + 1 }
            let missing = manifest.takes.indices.filter { !picked.contains($0) }.map { $0 + 1 }
            guard twice.isEmpty, missing.isEmpty else {
                let problems = [missing.isEmpty ? nil : "take(s) \(numbers(missing)) not named",
                                twice.isEmpty ? nil : "take(s) \(numbers(twice)) named twice"].compactMap { $0 }
                throw VRenderError.input(path, "name each of its \(manifest.takes.count) take(s) once: "
                                         + problems.joined(separator: ", ")
                                         + " ('vrender takes mv DIR TAKE POSITION' moves one); takes.json was not changed")
            }
            return picked
        }
    }

    /// `vrender takes mv DIR TAKE POSITION`: moves one take to `position` (1 is first; a
    /// position past the end puts it last). The others keep their order.
    @discardableResult
    public static func move(_ name: String, to position: Int, in directory: String) throws -> [TakeEntry] {
        try rearrange(in: directory, for: "vrender takes mv", wait: .command) { manifest, _ in
            let from = try index(of: name, in: manifest, directory: directory)
            guard position >= 1 else {
                throw VRenderError.option("position", "\(position): positions count from 1 (the first take)")
            }
            var order = Array(manifest.takes.indices)
            order.remove(at: from)
            order.insert(from, at: Swift.min(position - 1, order.count))
            return order
        }
    }

    /// Under the folder's exclusive lock: `newOrder` gives takes.json's indices in their new
    /// order (all of them, each once), and takes.json is saved so. Returns the takes in order.
    private static func rearrange(in directory: String, for command: String, wait: FolderLock.Patience,
                                  _ newOrder: (TakesManifest, String) throws -> [Int]) throws -> [TakeEntry] {
        let folder = try openFolder(directory)
        return try FolderLock.with(folder, .exclusive, for: command, wait: wait) {
            var manifest = try manifest(in: folder)
            let order = try newOrder(manifest, join(folder.path, TakesManifest.fileName))
            precondition(order.sorted() == Array(manifest.takes.indices), "a new order names every take once")
            manifest.takes = order.map { manifest.takes[$0] }
            try manifest.save(in: folder)
            return manifest.takes
        }
    }

    private static func numbers(_ list: [Int]) -> String { list.map(String.init).joined(separator: ", ") }
}

extension TakesFolder {
    /// Takes given one by one (`vrender concat takes/*.mov`) are joined in the order given, which
    /// for a glob is recording order (the files' numbers). When they are the takes of one folder
    /// whose takes.json orders them differently (`takes order`, the studio's strip) or trims
    /// them, says so and how to follow takes.json; nil when there is nothing to say (or no
    /// takes.json to read: this is a note, never an error).
    public static func fileOrderNote(for paths: [String]) -> String? {
        let folders = Set(paths.map { ($0 as NSString).deletingLastPathComponent })
        guard !paths.isEmpty, folders.count == 1, let directory = folders.first,
              let manifest = try? TakesManifest.load(from: directory.isEmpty ? "." : directory) else { return nil }
        let listed = manifest.takes.map(\.file)
        let positions = paths.compactMap { listed.firstIndex(of: ($0 as NSString).lastPathComponent) }
        guard positions.count == paths.count else { return nil }
        let reordered = positions != positions.sorted()
        let trimmed = positions.contains { manifest.takes[$0].trim != nil }
        guard reordered || trimmed else { return nil }
        let folder = directory.isEmpty ? "." : directory
        let what = [reordered ? "orders these takes differently (\(positions.map { String($0 + 1) }.joined(separator: ", ")) as given)" : nil,
                    trimmed ? "trims some of them" : nil].compactMap { $0 }.joined(separator: " and ")
        return "\(folder)/\(TakesManifest.fileName) \(what): files are joined as given and whole; "
            + "'vrender concat \(folder)' follows takes.json's order and trims"
    }
}
