import VRenderCore
import VRenderExport

/// The join's second look at the takes (`chunk join`, a Slurm join job): every take probed
/// and the export planned again from them, on a thread of its own while the chunks are checked
/// and copied, and compared with what the plan carries (`ChunkPlan.check`, `checkTakes`)
/// before the output is renamed into place. Probing first, then joining, made a join of 3
/// takes spend a seventh of its time there, and one of 1,000 takes seconds; the output still
/// never exists when they differ. Its error is the one reported when both fail: a plan that
/// lies about its takes can make the chunks fail too, and the takes are the cause.
final class TakeRecheck: Sendable {
    private let group = StageGroup()

    init(plan: ChunkPlan, options: ExportOptions, planPath: String) {
        group.start("vrender.take-check") {
            let export = try ExportPlanner.plan(options, checkingOutput: false, measuringLoudness: false, probed: nil)
            try plan.check(export, planPath: planPath)
            try plan.checkTakes(export.takes, planPath: planPath)
        }
    }

    /// Waits for the check; throws its error.
    func wait() throws {
        try group.wait()
    }

    /// `body` (the join), whose error gives way to the check's when the check failed too.
    func guarding<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            try wait()
            throw error
        }
    }
}
