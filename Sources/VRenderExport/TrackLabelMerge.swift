import VRenderMedia

/// How the takes' labels of one output track become the output track's: one rule for the
/// video, every audio track and the subtitles. A language or title is kept when every take
/// that states one states the same (a take that states none does not disagree); when takes
/// state different ones the track gets none, named in a notice: a track labelled German that
/// turns French halfway would send a viewer who chose German to the wrong sound. A
/// disposition (default, forced, commentary, ...) is kept when every take's track has it.
enum TrackLabelMerge {
    /// The output label of `track` ("audio track 2") from each take's (the take's file name
    /// and label), and the notices of what takes disagreed on. `sole`: the output's only video
    /// or audio track, which players play whatever its default flag says: it is marked default
    /// when any take's is, and takes that differ on it are not worth a note. (Not subtitles:
    /// their default flag is what shows them unasked.)
    static func merge(_ labels: [(take: String, label: TrackLabel)], track: String,
                      sole: Bool = false) -> (label: TrackLabel, notices: [String]) {
        guard !labels.isEmpty else { return (TrackLabel(), []) }
        var notices: [String] = []
        let language = agreed(labels, \.language, track: track, what: "language", notices: &notices)
        let title = agreed(labels, \.title, track: track, what: "title", notices: &notices)
        var flags: [String] = []   // first seen first: each take lists them in FFmpeg's order
        for flag in labels.flatMap(\.label.dispositions) where !flags.contains(flag) { flags.append(flag) }
        var kept: [String] = []
        for flag in flags {
            let holders = labels.filter { $0.label.dispositions.contains(flag) }
            let others = labels.filter { !$0.label.dispositions.contains(flag) }
            if others.isEmpty || (sole && flag == "default") {
                kept.append(flag)
            } else {
                notices.append("\(track): not marked \(flag) (\(names(holders)) mark\(holders.count == 1 ? "s" : "") it so, "
                               + "\(names(others)) do\(others.count == 1 ? "es" : "") not)")
            }
        }
        return (TrackLabel(language: language, title: title, dispositions: kept), notices)
    }

    /// `label` as `container` keeps it (`OutputContainer.kept`): its language respelled where
    /// the container spells it another way ("deu" is "ger" in .mov), or left out where it has
    /// no spelling for it, and the flags it cannot store left out; each said in a notice.
    static func fitted(_ label: TrackLabel, into container: OutputContainer, track: String) -> (label: TrackLabel, notices: [String]) {
        guard !label.language.isEmpty || !label.dispositions.isEmpty else { return (label, []) }
        let fileExtension = container.path.fileExtension
        let kept = container.kept(label)
        var notices: [String] = []
        if kept.language != label.language {
            notices.append(kept.language.isEmpty
                ? "\(track): language \(label.language) left out (a .\(fileExtension) file cannot name it: write .mkv)"
                : "\(track): language \(label.language) written \(kept.language), as a .\(fileExtension) file spells it")
        }
        let lost = label.dispositions.filter { !kept.dispositions.contains($0) }
        if !lost.isEmpty {
            notices.append("\(track): not marked \(lost.joined(separator: ", ")) (a .\(fileExtension) file cannot store "
                           + (lost.count == 1 ? "that flag" : "those flags") + ": write .mkv)")
        }
        return (kept, notices)
    }

    /// The value every take that states one agrees on; empty, with a notice, when they differ.
    private static func agreed(_ labels: [(take: String, label: TrackLabel)], _ field: KeyPath<TrackLabel, String>,
                               track: String, what: String, notices: inout [String]) -> String {
        let stated = labels.filter { !$0.label[keyPath: field].isEmpty }
        let values = stated.map { $0.label[keyPath: field] }
        guard let value = values.first else { return "" }
        if values.allSatisfy({ $0 == value }) { return value }
        let each = stated.map { "\($0.take): \(quoted($0.label[keyPath: field], what: what))" }.joined(separator: ", ")
        notices.append("\(track): no \(what) written, the takes differ (\(each))")
        return ""
    }

    private static func quoted(_ value: String, what: String) -> String {
        what == "title" ? "\"\(value)\"" : value
    }

    private static func names(_ labels: [(take: String, label: TrackLabel)]) -> String {
        labels.map(\.take).joined(separator: ", ")
    }
}

extension TrackLabel {
    /// " (deu \"Commentary\")" for a notice naming a track; empty when it states neither.
    var parenthesized: String {
        let parts = [language, title.isEmpty ? "" : "\"\(title)\""].filter { !$0.isEmpty }
        return parts.isEmpty ? "" : " (\(parts.joined(separator: " ")))"
    }
}
