import VRenderCore
import VRenderPrompter
import VRenderTakes

/// What an export knows of the prompter in each take: its pre-roll and what `--prompter`
/// recorded, read from the takes.json beside each take file. A take without an entry (not
/// recorded by vrender, or before takes.json kept the prompter) scrolls from its first frame
/// with the export's settings. A trimmed take is placed at its in point.
enum PrompterTakes {
    /// The timeline's takes for `plan`, and a notice per takes.json that could not be read.
    /// `names`: the take files that inputs given as `/proc/self/fd/N` stand for
    /// (`ExportOptions.inputNames`).
    static func takes(of plan: ExportPlan, names: [String: String]? = nil) -> (takes: [PrompterTimeline.Take], notices: [String]) {
        var records = TakeRecords(names: names, purpose: "the prompter scrolls its takes with the export's settings")
        let frameRate = plan.frameRate.doubleValue
        let takes = plan.takes.enumerated().map { index, take in
            let entry = records.entry(for: take.path).entry
            let duration = Double(plan.timeline.takes[index].slotCount) / frameRate
            // A trimmed recorded take shows the scroll the presenter saw at its in point: its
            // timeline starts that much later (a pre-roll shortened, or negative).
            let shift = entry?.prompter != nil ? take.trim?.start ?? 0 : 0
            return PrompterTimeline.Take(preroll: (entry?.preroll ?? 0) - shift, duration: duration, record: entry?.prompter)
        }
        return (takes, records.notices)
    }
}
