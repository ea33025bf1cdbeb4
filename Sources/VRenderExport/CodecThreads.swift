import VRenderCore
import VRenderMedia

/// How many threads the video decoder and encoder of a transcode get (0: the codec's choice).
///
/// The pipeline already runs demux, decode, process, encode and mux on threads of their own,
/// joined by queues, so decoding overlaps encoding without any help from the codecs. Their own
/// threading is then only worth what it costs where that stage is the bottleneck:
///
/// - **Decoder: one thread** when the encoder is a rate-controlled one (x264/x265) and the
///   canvas keeps at least half of the largest take's pixels. Such an encoder costs several
///   times the decoder per frame (1080p H.264 veryfast: ~16 CPU s to encode 15 s of video,
///   ~3.6 s to decode it), so the decode stage never holds it up; libavcodec's frame threads
///   would cost ~12 % more decoder CPU (4.0 s instead of 3.6 s here) and one frame set per
///   thread in memory. A big downscale (4K takes to a 1080p canvas) or a cheap encoder (FFV1)
///   can leave the decoder as the bottleneck: it keeps libavcodec's choice.
/// - **Encoder: one thread per processor** for H.264 (x264) instead of x264's default of 1.5
///   per processor: the extra frame threads fill cores that wait for reference rows, which the
///   pipeline's other stages fill here, and each holds its own frames (~25 MB at 1080p on
///   2 processors). x265 sizes its own thread pool (FFmpeg does not pass a count on) and the
///   other encoders keep their own choice.
///
/// An export given a share of the machine (`--threads`, a chunk worker's) gives x265 and the
/// other encoders that many threads as well, where they would otherwise fill every processor,
/// and a decoder left to libavcodec that many too.
///
/// Measured on 2 vCPUs, 3 × 5 s 1080p30 H.264 takes, mono, H.264 veryfast crf 23: README
/// "Performance".
struct CodecThreads: Equatable {
    var decoder: Int
    var encoder: Int

    static let codecsChoice = CodecThreads(decoder: 0, encoder: 0)

    static func forTranscode(of plan: ExportPlan, budget: ThreadBudget) -> CodecThreads {
        let share = budget.isShare ? budget.processors : nil
        guard plan.videoCodec.takesRateControl else {
            return share.map { CodecThreads(decoder: $0, encoder: $0) } ?? codecsChoice
        }
        let canvasPixels = plan.canvasWidth * plan.canvasHeight
        let largestTake = plan.takes.map { $0.video.width * $0.video.height }.max() ?? 0
        let decoder = 2 * canvasPixels >= largestTake ? 1 : share ?? 0
        let encoder = plan.videoCodec == .h264 ? budget.processors : share ?? 0
        return CodecThreads(decoder: decoder, encoder: encoder)
    }
}
