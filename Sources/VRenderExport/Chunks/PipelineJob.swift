import VRenderCore
import VRenderMedia

/// Which part of an export one run of the transcode pipeline writes. A chunked export
/// (VRenderScale) renders its chunks apart, in other processes or on other machines, then
/// joins them; each of those runs plans the export whole, so every one sees the same timeline.
/// `Exporter.run(_:job:to:)` runs one.
package enum PipelineJob: Sendable {
    /// The whole export in one run, as `vrender concat` writes it.
    case whole
    /// Output frames `frames` only, video only, into a chunk file: encoded with a keyframe
    /// every `keyframeInterval` frames and closed GOPs, timestamps starting at 0.
    case chunk(frames: Range<Int>, keyframeInterval: Int)
    /// The export's sound only (every audio track, loudness applied), into a file of the work
    /// folder, encoded while the chunks render: the join then only copies packets.
    case sound
    /// The output from rendered chunks: their video packets copied, in order, each placed at
    /// its first frame; the audio copied from `sound` (a `.sound` run's file) or, without one,
    /// every take's decoded and encoded whole, as in `.whole`.
    case join([ProbedChunk], sound: String?)

    /// The last step of a chunked export: `plan`'s output from its rendered `chunks`, with the
    /// sound copied from `sound` (a `.sound` run's file), or without one every take's audio
    /// encoded whole. The chunks are probed on the plan's processors and must cover the
    /// timeline in order, and have been encoded alike (`ChunkJoinCheck`).
    package static func joining(_ chunks: [RenderedChunk], sound: String?, of plan: ExportPlan) throws -> PipelineJob {
        let probed = try ChunkJoinCheck.probe(chunks, plan: plan, threads: plan.threads.processors)
        return .join(probed, sound: plan.hasAudio ? sound : nil)
    }

    /// Throws when `plan` has nothing for this run to write into `path`: a chunk of an export
    /// that copies the takes' video, or the sound of one without sound.
    func check(_ plan: ExportPlan, path: String) throws {
        switch self {
        case .chunk where plan.mode != .transcode:
            throw VRenderError.option("--engine", "this export copies the takes' video (\(plan.mode.summaryName)); only an export that encodes its video is rendered in chunks")
        case .sound where !plan.hasAudio:
            throw VRenderError.output(path, "the export has no sound to encode")
        default:
            return
        }
    }

    /// The output frames this run writes.
    func frames(of plan: ExportPlan) -> Range<Int> {
        if case .chunk(let frames, _) = self { return frames }
        return 0..<plan.timeline.totalSlots
    }

    /// Whether this run joins rendered chunks.
    /// True for the jobs that write the export's output (the whole, or the join of its chunks).
    var writesOutput: Bool {
        switch self {
        case .whole, .join: true
        case .chunk, .sound: false
        }
    }

    var isJoin: Bool {
        if case .join = self { return true }
        return false
    }

    /// Whether this run writes the export's audio tracks (a chunk is video only).
    var writesAudio: Bool {
        if case .chunk = self { return false }
        return true
    }

    /// Whether this run writes video (encoded, or copied from takes or chunks).
    var writesVideo: Bool {
        if case .sound = self { return false }
        return true
    }

    /// Whether this run encodes the audio tracks (a join with a sound file copies them).
    var encodesAudio: Bool {
        switch self {
        case .chunk, .join(_, sound: .some): false
        case .whole, .sound, .join(_, sound: nil): true
        }
    }

    /// The sound file a join copies its audio from.
    var soundFile: String? {
        if case .join(_, let sound) = self { return sound }
        return nil
    }
}

/// A chunk file a chunk worker wrote, and where its frames go in the output.
package struct RenderedChunk: Sendable, Equatable {
    package var path: String
    package var firstFrame: Int
    package var frameCount: Int

    package init(path: String, firstFrame: Int, frameCount: Int) {
        self.path = path
        self.firstFrame = firstFrame
        self.frameCount = frameCount
    }
}

/// A rendered chunk as the join reads it: probed, and checked against the others.
package struct ProbedChunk: Sendable {
    var chunk: RenderedChunk
    var info: MediaInfo
}
