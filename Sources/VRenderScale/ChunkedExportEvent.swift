import Foundation
import VRenderCore
import VRenderExport

/// What a chunked export tells its user as it goes; `description` is the line to show.
public enum ChunkedExportEvent: Sendable, CustomStringConvertible {
    /// The plan is made (or found, with `done` chunks already rendered).
    case planned(folder: String, chunks: Int, frames: Int, keyframeInterval: Int, done: Int, resumed: Bool)
    case notice(String)
    /// The local engine started `chunk` (attempt `attempt`).
    case started(chunk: Int, attempt: Int)
    /// Slurm accepted a job array for `chunks` (and the sound, one task more, with `sound`),
    /// and a join job waiting for it.
    case submitted(job: String, chunks: [Int], join: String?, sound: Bool = false)
    case finished(chunk: Int, seconds: Double, done: Int, total: Int)
    /// The sound job finished (it encodes the export's sound beside the chunks).
    case soundFinished(seconds: Double)
    /// An attempt failed; `retry` says whether another one comes.
    case failed(chunk: Int, attempt: Int, log: String, retry: Bool)
    case joining(chunks: Int)
    /// Frames rendered over all chunks (those done in an earlier run included), about twice a
    /// second while chunks render: the bar, not a line (`description` is one, for logs).
    case progress(ExportProgress)

    public var description: String {
        switch self {
        case .planned(let folder, let chunks, let frames, let interval, let done, let resumed):
            let gop = interval == 1 ? "every frame a keyframe" : "a keyframe every \(interval) frames"
            let resume = resumed ? ", resumed: \(done) already rendered" : ""
            return "chunks: \(frames) frames in \(chunks) chunk(s) (\(gop)), work folder \(folder)\(resume)"
        case .notice(let text):
            return "chunks: note: \(text)"
        case .started(let chunk, let attempt):
            return "chunks: chunk \(chunk) started" + (attempt > 1 ? " (attempt \(attempt))" : "")
        case .submitted(let job, let chunks, _, let sound) where chunks.isEmpty && !sound:
            return "chunks: slurm job \(job): the join (every chunk is rendered)"
        case .submitted(let job, let chunks, let join, let sound):
            let joinText = join.map { "; join job \($0) waits for it (afterok)" } ?? ""
            let what = chunks.isEmpty ? "the sound" : "chunks \(ChunkList.text(chunks))\(sound ? " and the sound" : "")"
            return "chunks: slurm job \(job): array of \(chunks.count + (sound ? 1 : 0)) task(s), \(what)\(joinText)"
        case .finished(let chunk, let seconds, let done, let total):
            return "chunks: chunk \(chunk) done in \(String(format: "%.1f", seconds)) s (\(done)/\(total))"
        case .soundFinished(let seconds):
            return "chunks: sound encoded in \(String(format: "%.1f", seconds)) s"
        case .failed(let chunk, let attempt, let log, let retry):
            return "chunks: chunk \(chunk) failed (attempt \(attempt)), log \(FileNames.display(log))" + (retry ? "; trying again" : "")
        case .joining(let chunks):
            return "chunks: joining \(chunks) chunk(s) and the sound (packets copied)"
        case .progress(let progress):
            return "chunks: \(progress.framesDone)/\(progress.framesTotal) frames rendered"
        }
    }
}

extension ChunkedExportEvent {
    /// The event as its user reads it: the engines count the sound as one more job (number
    /// `soundJob`), which is no chunk to the user; its start is not worth a line.
    func naming(soundJob: Int?) -> ChunkedExportEvent? {
        guard let soundJob else { return self }
        switch self {
        case .started(soundJob, _): return nil
        case .finished(soundJob, let seconds, _, _): return .soundFinished(seconds: seconds)
        case .submitted(let job, let chunks, let join, _) where chunks.contains(soundJob):
            return .submitted(job: job, chunks: chunks.filter { $0 != soundJob }, join: join, sound: true)
        default: return self
        }
    }
}
