import VRenderCore
import VRenderMedia

/// The join's video stage: reads each rendered chunk's video packets in order and hands them to
/// the muxer unchanged, each chunk shifted to its first output frame. Chunks were encoded with
/// the same settings and each starts with a keyframe, so their packets join into one stream.
/// A chunk holding another number of frames than the plan gave it fails the join (it was cut
/// short or belongs to another plan).
struct ChunkCopyStage {
    let plan: ExportPlan
    let chunks: [ProbedChunk]
    /// Its own queue to the muxer, finished when done (`MuxStage` reads it apart from audio).
    let output: BoundedQueue<MuxItem>
    let progress: ProgressThrottle

    func run() throws {
        defer { output.finish() }
        var copied = CopiedVideoOutput(plan: plan, output: output, progress: progress)
        for probed in chunks {
            // Its header alone, as the check read it: a search would decode its first pictures.
            let demuxer = try openDemuxer(probed.chunk.path, streamInfo: .headerWhenComplete)
            let video = probed.info.video
            let placement = PacketRetimer.Placement(
                takeOffset: Double(probed.chunk.firstFrame) / plan.frameRate.doubleValue,
                videoStart: video.startTime, takeDuration: video.duration)
            var framesInChunk = 0
            while true {
                let packet = Packet()
                guard demuxer.read(into: packet) else { break }
                guard packet.streamIndex == video.index else { continue }
                if try copied.push(packet, timeBase: video.timeBase, placement: placement, countingHidden: true) {
                    framesInChunk += 1
                }
            }
            if demuxer.hitReadError || framesInChunk != probed.chunk.frameCount {
                throw VRenderError.input(probed.chunk.path, "holds \(framesInChunk) frame(s) where the plan gives it \(probed.chunk.frameCount)\(demuxer.hitReadError ? " (a read error stopped it)" : ""): render it again")
            }
        }
        copied.finish()
    }
}
