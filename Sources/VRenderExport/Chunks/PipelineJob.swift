import VRenderCore
import VRenderMedia

/// Which part of an export one run of the transcode pipeline writes. A chunked export
/// (VRenderScale) renders its chunks apart, in other processes or on other machines, then
/// joins them; each of those runs plans the export whole, so every one sees the same timeline.
enum PipelineJob: Sendable {
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

    /// The output frames this run writes.
    func frames(of plan: ExportPlan) -> Range<Int> {
        if case .chunk(let frames, _) = self { return frames }
        return 0..<plan.timeline.totalSlots
    }

    /// Whether this run joins rendered chunks.
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
struct ProbedChunk: Sendable {
    var chunk: RenderedChunk
    var info: MediaInfo
}
