import VRenderCore
import VRenderTakes

/// The takes.json beside each take an export reads, loaded once per folder: what vrender
/// recorded of a take (its pre-roll, prompter scroll, presenter). A take file with no entry
/// (not recorded by vrender) has none; a takes.json that cannot be read gives none either,
/// and one notice naming it.
struct TakeRecords {
    /// `ExportOptions.inputNames`: the take files that inputs given as `/proc/self/fd/N` stand for.
    let names: [String: String]?
    /// What the records are read for, in the notice about a takes.json that cannot be read.
    let purpose: String
    private var manifests: [String: TakesManifest?] = [:]
    private(set) var notices: [String] = []

    init(names: [String: String]?, purpose: String) {
        (self.names, self.purpose) = (names, purpose)
    }

    /// The take file `path` stands for, its folder, and its record there.
    mutating func entry(for path: String) -> (file: String, directory: String, entry: TakeEntry?) {
        let file = names?[path] ?? path
        let (directory, name) = FileNames.split(file)
        if manifests[directory] == nil {
            do {
                manifests[directory] = try TakesManifest.load(from: directory)
            } catch {
                manifests[directory] = .some(nil)
                notices.append("\(directory)/\(TakesManifest.fileName): cannot be read, so \(purpose) (\(error))")
            }
        }
        return (file, directory, manifests[directory]??.takes.first { $0.file == name })
    }
}
