import VRenderAlignment
import VRenderCore
import VRenderImaging
import VRenderMedia

/// An export's captions (`--captions`): each take the export uses aligned once to its script
/// (`TakeAlignment`: the script takes.json names, or `--script`), its words carried through
/// the export's timeline (trims, silence cuts, dissolves: `CaptionPlacement`) and grouped into
/// cues that never show over a cut.
enum ExportCaptions {
    /// The captions of `plan`'s output, and what the plan should say of them.
    /// `aligned`: the takes as the planner aligned them when it probed them, by path; a take
    /// not among them is aligned here.
    static func plan(_ request: ScriptRequest, for plan: ExportPlan, names: [String: String]?,
                     aligned given: [String: TakeAlignment]) throws -> (track: CaptionTrack, notices: [String]) {
        var records = TakeRecords(names: names, purpose: "its takes are captioned as files vrender did not record")
        var aligned = given
        var context: TakeAlignment.Context?   // the font is opened only when a take is aligned here
        var order: [String] = []
        for (number, take) in plan.takes.enumerated() where !order.contains(take.path) {
            order.append(take.path)
            guard aligned[take.path] == nil else { continue }
            let record = records.entry(for: take.path)
            let opened = try context ?? request.context(font: TextFont())
            context = opened
            aligned[take.path] = try TakeAlignment.align(path: take.path, name: record.file, entry: record.entry, number: number + 1,
                                                         folder: try? FolderHandle.open(record.directory), context: opened)
        }
        let pieces = CaptionPlacement.pieces(sourceStarts: plan.takes.map { $0.trim?.start ?? 0 },
                                             spans: SideStreamPlan.spans(of: plan))
        let takes = plan.takes.map { aligned[$0.path]! }
        let cues = CaptionPlacement.cues(pieces: pieces, words: takes.map(\.alignment.words), scripts: takes.map(\.words))
        let voices = Set(takes.map(\.voice))
        let language = voices.count == 1 ? voices.first!.trackLanguage ?? "" : ""
        var notices = records.notices
        notices.append("captions: \(cues.count) cue(s) from the script, \(order.count) take(s) aligned with espeak-ng's "
                       + voices.map(\.name).sorted().joined(separator: ", ") + (language.isEmpty ? "" : " (\(language))")
                       + "; written as " + request.captions.map(\.rawValue).joined(separator: ", "))
        for path in order {
            let unread = aligned[path]!.unread
            if let first = unread.first, !request.cutRetakes {   // --cut-retakes lists them already
                notices.append("captions: \(names?[path] ?? path): \(unread.count) line(s) of the script never heard "
                               + "(the first: \"\(first.prefix(60))\")")
            }
        }
        return (CaptionTrack(outputs: request.captions, language: language, cues: cues), notices)
    }
}
