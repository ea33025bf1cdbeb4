import VRenderAlignment
import VRenderMedia

/// `--cut-retakes`: each broken reading the alignment found (`Retake`) cut out of the parts of
/// a take an export uses, on the take's frame grid, with a plan line per cut that says which
/// line of the script was read twice, and one naming how many lines were never read.
enum RetakeCuts {
    static func apply(_ aligned: TakeAlignment, to parts: [Range<Double>], frameRate: Double,
                      number: Int) -> (parts: [Range<Double>], notes: [String]) {
        let grid = { (seconds: Double) in (seconds * frameRate).rounded() / frameRate }
        var kept = parts
        var notes: [String] = []
        for retake in aligned.alignment.retakes {
            let cut = grid(retake.cut.lowerBound)..<grid(retake.cut.upperBound)
            guard !cut.isEmpty, kept.contains(where: { $0.overlaps(cut) }) else { continue }
            kept = kept.flatMap { part -> [Range<Double>] in
                guard part.overlaps(cut) else { return [part] }
                return [part.lowerBound..<cut.lowerBound, cut.upperBound..<part.upperBound].filter { $0.upperBound - $0.lowerBound > 0.5 / frameRate }
            }
            let opening = aligned.words[retake.words.lowerBound..<Swift.min(retake.words.lowerBound + 4, retake.words.upperBound)]
            notes.append("retake: take \(number) cut \(TakeTrim.text(cut.lowerBound))–\(TakeTrim.text(cut.upperBound)) s, "
                         + "line \(aligned.scriptLines[retake.words.lowerBound]) read twice (\"\(opening.joined(separator: " ")) …\")")
        }
        if let first = aligned.alignment.unread.first {
            notes.append("retake: take \(number): \(aligned.alignment.unread.count) line(s) never read; the first: line "
                         + "\(aligned.scriptLines[first.words.lowerBound]), \"" + aligned.words[first.words].joined(separator: " ").prefix(60) + "\"")
        }
        return (kept, notes)
    }
}
