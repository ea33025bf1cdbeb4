import VRenderCore
import VRenderMedia

/// Stage 1: reads every take's packets in order and routes them to the video stage and to one
/// audio stage per output track. Owns the demuxers; creates each take's decoders and hands
/// them over with the take-start event (no video decoder when the video is copied).
///
/// Only takes that fill some of `frames` are read (a chunk's); with no video queue (a chunked
/// export's join, whose video comes from the chunks) only their audio. A video packet whose pts
/// a damaged header moved far away gets a plausible one (`PresentationCheck`) before decoding,
/// so that its frame cannot stretch the take; each is counted as damage.
struct ReaderStage {
    let plan: ExportPlan
    let video: BoundedQueue<PacketEvent>?
    /// One queue per output audio track (empty when the export has no audio).
    let audio: [BoundedQueue<PacketEvent>]
    /// The output frames this run writes.
    let frames: Range<Int>
    let packets: ObjectPool<Packet>
    let damage: DamageLog
    /// The video decoders' thread count (`CodecThreads.decoder`).
    let videoDecoderThreads: Int
    /// Per video packet read; audio packets and opening takes are its other time.
    let timer: StageTimer?
    /// Output frames read before and after a chunk's own in the takes it cuts (`--stabilize`
    /// measures motion there: `StabilizePlan.leadIn`); 0 without.
    var leadIn = 0
    var leadOut = 0

    func run() throws {
        defer {
            video?.finish()
            audio.forEach { $0.finish() }
        }
        for (index, take) in plan.takes.enumerated() where fillsFrames(take: index) {
            guard let opened = try open(take, index: index), try read(take, index: index, opened) else { return }
            if let video, !video.push(.takeEnd(index: index)) { return }
            for queue in audio where !queue.push(.takeEnd(index: index)) { return }
        }
    }

    /// A take open for reading: its demuxer, the stage each stream's packets go to, and the
    /// video packet a seek already read.
    private struct OpenTake {
        let demuxer: Demuxer
        let routes: [Int: BoundedQueue<PacketEvent>]
        let firstPacket: Packet?
    }

    /// Opens take `index` where this run starts reading it and tells every stage it starts,
    /// handing over its decoders; nil when a stage was cancelled.
    private func open(_ take: MediaInfo, index: Int) throws -> OpenTake? {
        timer?.begin()
        // A chunk starts a take that began before it at a keyframe near its first frame; a
        // run without video reads the sound from where one pass does.
        let (demuxer, firstPacket) = video == nil ? (try TakeSeek.openForSound(take, takeIndex: index, plan: plan), nil)
            : try TakeSeek.open(take, takeIndex: index, plan: plan, firstFrame: max(0, frames.lowerBound - leadIn),
                                packets: packets)
        let videoDecoder = plan.mode == .transcode && video != nil
            ? try Decoder(demuxer: demuxer, streamIndex: take.video.index, threads: videoDecoderThreads) : nil
        timer?.otherDone()
        if let video, !video.push(.takeStart(index: index, decoder: videoDecoder.map(OwnershipTransfer.init))) { return nil }
        var routes: [Int: BoundedQueue<PacketEvent>] = [:]
        if let video { routes[take.video.index] = video }
        for (track, queue) in audio.enumerated() {
            let source = plan.audio.source(take: take, takeIndex: index, track: track)
            let decoder = try source.map { try Decoder(demuxer: demuxer, streamIndex: $0.index, threads: 1) }
            if let source { routes[source.index] = queue }
            guard queue.push(.takeStart(index: index, decoder: decoder.map(OwnershipTransfer.init))) else { return nil }
        }
        return OpenTake(demuxer: demuxer, routes: routes, firstPacket: firstPacket)
    }

    /// Routes the take's packets to their stages until its part (and its sound) is read, then
    /// notes its damage; false when cancelled downstream.
    private func read(_ take: MediaInfo, index: Int, _ open: OpenTake) throws -> Bool {
        let demuxer = open.demuxer
        var check = PresentationCheck(for: take.video)
        if let firstPacket = open.firstPacket, let video {
            check.repair(firstPacket)
            guard video.push(.packet(firstPacket)) else { return false }
        }
        let end = TakeSeek.End(take, takeIndex: index, plan: plan,
                               frames: max(0, frames.lowerBound - leadIn)..<frames.upperBound + leadOut)
        // Video copied unchanged (`.copyVideo`) is checked as a stream copy checks it: damage
        // stops the copy and the export is transcoded (`Exporter.run`). Decoded video conceals it.
        var inspector = plan.mode == .copyVideo ? try CopyInspector(take: take, demuxer: demuxer, audioStreams: []) : nil
        // Past the part's end the video is done; a run with sound reads on until the sound is too.
        var videoDone = false
        while true {
            let packet = try packets.obtain()
            let read = timer.timedRead(demuxer, into: packet, video: take.video.index)
            if read, end?.isPast(packet) == true { videoDone = true }
            let soundDone = audio.isEmpty
                || end?.isSoundPast(packet, timeBase: demuxer.timeBase(ofStream: packet.streamIndex)) == true
            guard read, !(videoDone && soundDone) else {
                packet.unref()
                packets.recycle(packet)
                break
            }
            guard let target = open.routes[packet.streamIndex], !(videoDone && packet.streamIndex == take.video.index) else {
                packet.unref()
                packets.recycle(packet)
                continue
            }
            if packet.streamIndex == take.video.index {
                check.repair(packet)
                try inspector?.check(packet, of: demuxer)
            }
            guard target.push(.packet(packet)) else { return false }  // cancelled downstream
        }
        damage.noteDamagedTimestamps(check.outliers, in: take.path)
        if demuxer.hitReadError { try inspector?.checkEnd(demuxer) }
        if demuxer.hitReadError {
            damage.add(1, in: take.path)
            damage.warn("\(take.path): reading stopped early at damaged data; the rest of the take is black or silent")
        }
        return true
    }

    /// True when take `index` fills some of `frames` (a take of no frames only in a whole run,
    /// whose audio stages expect every take).
    private func fillsFrames(take index: Int) -> Bool {
        let span = plan.timeline.takes[index]
        if frames == 0..<plan.timeline.totalSlots { return true }
        return span.firstSlot < frames.upperBound && span.firstSlot + span.slotCount > frames.lowerBound
    }
}

/// Stage 2 (video): decodes packets into frames, using frame shells from a pool.
struct VideoDecodeStage {
    let plan: ExportPlan
    let input: BoundedQueue<PacketEvent>
    let output: BoundedQueue<FrameEvent>
    let packets: ObjectPool<Packet>
    let shells: ObjectPool<Frame>
    let damage: DamageLog
    /// Per decoded frame: the decoder's time since the previous frame came out (a frame may
    /// take several packets, a packet may give several frames); waits on `output` excluded.
    let timer: StageTimer?

    func run() throws {
        defer {
            output.finish()
            timer?.otherDone()  // packets that gave no frame at the end
        }
        var decoder: Decoder?
        var takeIndex = 0
        let emit: (Frame) throws -> Void = { frame in
            timer?.frameDone()
            let seconds = decoder?.seconds(of: frame)
            if !output.push(.frame(frame, seconds: seconds)) { throw VRenderError.cancelled }
            timer?.begin()
        }
        let makeFrame = { (try? shells.obtain()) ?? Frame() }
        while let event = input.pop() {
            switch event {
            case .takeStart(let index, let transfer):
                decoder = transfer?.take()
                takeIndex = index
                guard output.push(.takeStart(index: index)) else { return }
            case .packet(let packet):
                timer?.begin()
                try decoder?.decode(packet, makeFrame: makeFrame, output: emit)
                timer?.pause()
                packet.unref()
                packets.recycle(packet)
            case .takeEnd(let index):
                timer?.begin()
                try decoder?.decode(nil, makeFrame: makeFrame, output: emit)  // flush
                timer?.pause()
                damage.add(decoder?.damaged ?? 0, in: plan.takes[takeIndex].path)
                decoder = nil
                guard output.push(.takeEnd(index: index)) else { return }
            }
        }
    }
}
