import VRenderAlignment
import VRenderCore
import VRenderMedia

/// What the planner cuts out of each take before it is placed on the timeline: the lines read
/// twice (`--cut-retakes`), then the silences (`--trim-silence`, `--cut-pauses`). Each cut
/// falls on the take's frame grid, so its pictures and sound are cut at the same instants.
extension ExportPlanner {
    /// The inputs probed, trimmed and cut: the timeline's pieces, the plan's notes about them,
    /// and each take's alignment to its script (by path) when the options use the script.
    package struct ProbedInputs: Sendable {
        package var takes: [MediaInfo]
        package var notices: [String] = []
        package var alignments: [String: TakeAlignment] = [:]
    }

    /// Take `info` within its `trim`, its retakes cut (with `alignment`, its script placed on
    /// its voice, under `--cut-retakes`) and then its silences: the pieces, and the plan's notes.
    static func cut(_ info: MediaInfo, trim: TakeTrim?, number: Int, options: ExportOptions,
                    alignment: TakeAlignment?) throws -> (parts: [MediaInfo], notes: [String]) {
        let whole = try trim.map { try info.trimmed($0) } ?? info
        let start = trim?.start ?? 0
        let trimmed = start..<(start + whole.duration)
        var parts = [trimmed]
        var notes: [String] = []
        if let alignment, options.script?.cutRetakes == true {
            let cut = RetakeCuts.apply(alignment, to: parts, frameRate: info.video.frameRate.doubleValue, number: number)
            parts = cut.parts
            notes += cut.notes
        }
        if let silence = options.silence {
            let cut = try SilenceCuts.apply(silence, to: info, parts: parts, number: number, audioTrack: options.audioTrack)
            parts = cut.parts
            if let note = cut.note { notes.append(note) }
        }
        guard parts != [trimmed] else { return ([whole], notes) }
        return (try parts.map { try info.trimmed(TakeTrim(start: $0.lowerBound, end: $0.upperBound)) }, notes)
    }
}
