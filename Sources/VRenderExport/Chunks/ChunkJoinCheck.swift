import VRenderCore
import VRenderMedia

/// What the join checks before it writes anything: the chunks cover the export's frames in
/// order, each is a readable video of the plan's canvas, and all were encoded alike (codec,
/// set-up, size, clock), so that their packets form one stream.
enum ChunkJoinCheck {
    /// The chunk files are probed on `threads` threads (the join's tail waits for it).
    static func probe(_ chunks: [RenderedChunk], plan: ExportPlan, threads: Int) throws -> [ProbedChunk] {
        var next = 0
        for chunk in chunks {
            guard chunk.firstFrame == next, chunk.frameCount > 0 else {
                throw VRenderError.input(chunk.path, "starts at frame \(chunk.firstFrame) where frame \(next) is next: the chunks do not cover the export in order")
            }
            next += chunk.frameCount
        }
        guard next == plan.timeline.totalSlots else {
            throw VRenderError.output(plan.output, "the chunks hold \(next) frames; the export has \(plan.timeline.totalSlots)")
        }
        let probed = try InOrderMap.map(chunks.count, threads: threads) { ProbedChunk(chunk: chunks[$0], info: try Probe.probe(chunks[$0].path)) }
        for chunk in probed where chunk.info.video.width != plan.canvasWidth || chunk.info.video.height != plan.canvasHeight {
            throw VRenderError.input(chunk.chunk.path, "is \(chunk.info.video.width)x\(chunk.info.video.height); the export's canvas is \(plan.canvasWidth)x\(plan.canvasHeight): it belongs to another plan")
        }
        if let mismatch = CopyCompatibility.videoMismatch(probed.map(\.info)) {
            throw VRenderError.output(plan.output, "the chunks were not encoded alike and cannot be joined: \(mismatch) (were they rendered by different vrender or FFmpeg builds?)")
        }
        return probed
    }
}
