import VRenderCore
import VRenderMedia

/// Stage 2–4 when the video is copied and only the audio re-encoded: shifts each take's video
/// packets onto the output timeline (where the timeline puts the take, so the re-encoded
/// audio lines up with it) and hands them to the muxer unchanged.
struct VideoCopyStage {
    let plan: ExportPlan
    let input: BoundedQueue<PacketEvent>
    let output: BoundedQueue<MuxItem>
    let producers: ProducerCount
    let progress: ProgressThrottle

    func run() throws {
        defer { producers.producerDone() }
        var copied = CopiedVideoOutput(plan: plan, output: output, progress: progress)
        var placement = PacketRetimer.Placement(takeOffset: 0, videoStart: 0, takeDuration: 0)
        var timeBase = Rational(1, 1)
        while let event = input.pop() {
            switch event {
            case .takeStart(let index, _):
                let take = plan.takes[index]
                timeBase = take.video.timeBase
                let firstSlot = plan.timeline.takes[index].firstSlot
                placement = PacketRetimer.Placement(take: take, offset: Double(firstSlot) / plan.frameRate.doubleValue)
            case .packet(let packet):
                // A packet hidden by the output's edit list is not shown: not a frame.
                _ = try copied.push(packet, timeBase: timeBase, placement: placement, countingHidden: false)
            case .takeEnd:
                break
            }
        }
        if input.isCancelled { return }
        copied.finish()
    }
}
