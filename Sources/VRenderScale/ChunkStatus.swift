import Foundation
import VRenderCore

/// `vrender chunk status DIR`: where a chunked export stands, read from its work folder only
/// (the done-list, the logs, the jobs submitted), so it works from any machine that mounts it.
public struct ChunkStatus: Sendable, Codable {
    public var folder: String
    public var output: String
    public var chunks: Int
    public var frames: Int
    public var done: [ChunkRecord]
    public var missing: [Int]
    /// The sound job's record when it is done; `soundMissing` when the export has sound not
    /// encoded yet.
    public var sound: ChunkRecord?
    public var soundMissing: Bool
    /// Each missing chunk's newest log, when it was tried already.
    public var logs: [String: String]
    /// Slurm jobs submitted by the run that is (or was) following this folder.
    public var slurmJobs: [String]

    public init(folder: WorkFolder) throws {
        let plan = try folder.loadPlan()
        self.folder = folder.path
        output = plan.recipe.output
        chunks = plan.chunks.count
        frames = plan.totalFrames
        done = try plan.chunks.compactMap { try folder.record(of: $0.index, plan: plan) }
        let doneSet = Set(done.map(\.index))
        missing = plan.chunks.map(\.index).filter { !doneSet.contains($0) }
        sound = try plan.soundJob.flatMap { try folder.record(of: $0, plan: plan) }
        soundMissing = plan.soundJob != nil && sound == nil
        let logFolder = try folder.subfolder(WorkFolder.logsName)
        let logNames = try logFolder.names()
        logs = [:]
        for chunk in missing {
            let prefix = WorkFolder.name(ofChunk: chunk) + "."
            let newest = logNames.filter { $0.hasPrefix(prefix) }
                .max { Self.modified(logFolder.status($0)) < Self.modified(logFolder.status($1)) }
            if let newest { logs[String(chunk)] = logFolder.join(newest) }
        }
        slurmJobs = try folder.submittedJobs()
    }

    /// The status as lines for people.
    public var lines: [String] {
        var lines = ["\(folder): \(done.count)/\(chunks) chunk(s) rendered, \(frames) frames -> \(output)"]
        for record in done {
            lines.append("  chunk \(record.index): \(record.frames) frames, \(String(format: "%.1f", Double(record.bytes) / 1e6)) MB, \(String(format: "%.1f", record.seconds)) s on \(record.host)")
        }
        if let sound {
            lines.append("  sound: \(sound.encoder), \(String(format: "%.1f", Double(sound.bytes) / 1e6)) MB, \(String(format: "%.1f", sound.seconds)) s on \(sound.host)")
        }
        if !missing.isEmpty { lines.append("  missing: \(ChunkList.text(missing))") }
        if soundMissing { lines.append("  sound: not encoded yet ('vrender chunk sound \(folder)')") }
        for chunk in missing {
            if let log = logs[String(chunk)] { lines.append("  chunk \(chunk): last log \(log)") }
        }
        if !slurmJobs.isEmpty { lines.append("  slurm jobs submitted: \(slurmJobs.joined(separator: ", "))") }
        lines.append(missing.isEmpty && !soundMissing ? "  every chunk is rendered: 'vrender chunk join \(folder) -o \(output)' writes the output"
                                     : "  'vrender concat ... --work-dir \(folder) --resume' renders what is missing")
        return lines
    }

    private static func modified(_ status: stat?) -> Int {
        status.map { Int($0.st_mtim.tv_sec) * 1_000_000_000 + Int($0.st_mtim.tv_nsec) } ?? 0
    }
}
