import Foundation
import VRenderCore

/// Take file names: `segment_<NNNN>_<UUID>.mov` (+ `.png`). The seed named takes
/// `segment_<UUID>.mov`, which a shell glob lists in random order; the take number in front of
/// the UUID makes `vrender concat takes/*.mov` join them in recording order. The number is
/// zero-padded to four digits so that byte order (C locale) and the en_US collation (which
/// skips the underscores and compares digits first) agree with number order; the UUID keeps
/// names unique when two captures write into one folder at once.
///
/// Limit: past take 9999 the number grows a fifth digit and a glob lists take 10000 before
/// 9999; `takes.json` (what `vrender concat DIR` reads) keeps recording order regardless.
extension TakesFolder {
    /// What every take's file name starts with (the seed's prefix).
    public static let takeFilePrefix = "segment_"

    /// Digits the take number is padded to.
    static let takeNumberWidth = 4

    /// `segment_0001_<UUID>`: a take's file name without its extension.
    package static func takeFileStem(number: Int, id: UUID = UUID()) -> String {
        let digits = String(number)
        let padding = String(repeating: "0", count: Swift.max(0, takeNumberWidth - digits.count))
        return takeFilePrefix + padding + digits + "_" + id.uuidString
    }

    /// The take number in a file name vrender wrote (`segment_0012_<UUID>.mov` → 12); nil for
    /// any other name, the seed's unnumbered `segment_<UUID>.mov` included (a UUID may start with
    /// digits, but never digits followed by `_`).
    public static func takeNumber(inFileName name: String) -> Int? {
        guard name.hasPrefix(takeFilePrefix) else { return nil }
        let rest = name.dropFirst(takeFilePrefix.count)
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, rest.dropFirst(digits.count).first == "_" else { return nil }
        return Int(digits)
    }

    /// One more than the highest take number in `directory`, counting both `takes.json`'s
    /// entries and the files themselves (a take whose process was killed has a file but no
    /// entry, and its number must not be reused). 1 for a new or missing folder.
    public static func nextTakeNumber(in directory: String) throws -> Int {
        guard FileNames.status(directory) != nil else { return 1 }
        return try nextTakeNumber(in: FolderHandle.open(directory))
    }

    package static func nextTakeNumber(in folder: FolderHandle) throws -> Int {
        let listed = try TakesManifest.load(in: folder).takes.map(\.file)
        let present = try folder.names()
        let highest = (listed + present).compactMap(takeNumber(inFileName:)).max() ?? 0
        return highest + 1
    }
}
