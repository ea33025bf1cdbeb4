import VRenderCore
import VRenderMedia

/// What the join checks before it writes anything: the chunks cover the export's frames in
/// order, each is a readable video of the plan's canvas, and all were encoded alike (codec,
/// set-up, size, clock), so that their packets form one stream. Each chunk holding its planned
/// frames is checked as it is copied (`ChunkCopyStage`), its bytes before (the done-list).
enum ChunkJoinCheck {
    /// The chunk files are described on `threads` threads (the join's tail waits for it).
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
        let probed = try InOrderMap.map(chunks.count, threads: threads) { ProbedChunk(chunk: chunks[$0], info: try describe(chunks[$0].path)) }
        for chunk in probed where chunk.info.video.width != plan.canvasWidth || chunk.info.video.height != plan.canvasHeight {
            throw VRenderError.input(chunk.chunk.path, "is \(chunk.info.video.width)x\(chunk.info.video.height); the export's canvas is \(plan.canvasWidth)x\(plan.canvasHeight): it belongs to another plan")
        }
        if let mismatch = CopyCompatibility.videoMismatch(probed.map(\.info)) {
            throw VRenderError.output(plan.output, "the chunks were not encoded alike and cannot be joined: \(mismatch) (were they rendered by different vrender or FFmpeg builds?)")
        }
        return probed
    }

    /// A chunk as its container's header states it (`Probe.header`: nothing decoded), which
    /// is all its copy needs; the header of a chunk that states no codec setup (`extradata`)
    /// cannot tell its pixel format from another's, so that chunk is probed whole. Every chunk
    /// of a plan has the same codec and container, so they are all described alike.
    static func describe(_ path: String) throws -> MediaInfo {
        let header = try Probe.header(path)
        guard header.video.extradata.isEmpty, header.video.pixelFormat == "unknown" else { return header }
        return try Probe.probe(path)
    }
}
