import VRenderCore
import VRenderMedia

/// Where copied video packets go on their way to the muxer: shifted onto the output timeline
/// (`PacketRetimer`), counted for the progress line, pushed to the mux queue. The one loop
/// body of the copy's video stage (`VideoCopyStage`) and the join's (`ChunkCopyStage`).
struct CopiedVideoOutput {
    private var retimer: PacketRetimer
    private let output: BoundedQueue<MuxItem>
    private let progress: ProgressThrottle
    /// Packets counted as frames so far.
    private(set) var frames = 0

    init(plan: ExportPlan, output: BoundedQueue<MuxItem>, progress: ProgressThrottle) {
        retimer = PacketRetimer(containerTrimsStart: plan.container.isQuickTimeFamily)
        self.output = output
        self.progress = progress
    }

    /// Retimes `packet` and pushes it; false when it falls outside the timeline (dropped). A
    /// packet the output's edit list hides counts as a frame only with `countingHidden`.
    mutating func push(_ packet: Packet, timeBase: Rational, placement: PacketRetimer.Placement,
                       countingHidden: Bool) throws -> Bool {
        guard retimer.retime(packet, stream: 0, isAudio: false, timeBase: timeBase, placement) else { return false }
        if countingHidden || !packet.isDiscarded { frames += 1 }
        progress.update(framesDone: frames)
        guard output.push(MuxItem(stream: .video, packet: packet)) else { throw VRenderError.cancelled }
        return true
    }

    /// Every packet is pushed: the progress line's last word.
    func finish() {
        progress.update(framesDone: frames, finished: true)
    }
}
