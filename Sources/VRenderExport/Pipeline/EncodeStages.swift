import VRenderCore
import VRenderMedia

/// Stage 4 (video): encodes each canvas picture once per slot it fills and hands packets to
/// the muxer; gives frames back to their pools.
struct VideoEncodeStage {
    let encoder: OwnershipTransfer<Encoder>
    let input: BoundedQueue<EncodeItem>
    let output: BoundedQueue<MuxItem>
    /// The output frame written at time 0 (a chunk's first; 0 for a whole export).
    let firstFrame: Int
    let producers: ProducerCount
    let shells: ObjectPool<Frame>
    let canvases: ObjectPool<Frame>
    let progress: ProgressThrottle
    /// Per frame encoded (waits on `output` excluded); the final flush is its other time.
    let timer: StageTimer?

    func run() throws {
        defer { producers.producerDone() }
        let encoder = encoder.take()
        var framesDone = 0
        let send: (Packet) throws -> Void = { packet in
            timer?.pause()
            if !output.push(MuxItem(stream: .video, packet: packet)) { throw VRenderError.cancelled }
            timer?.begin()
        }
        while let item = input.pop() {
            for repeatIndex in 0..<item.count {
                item.frame.prepareForEncoding(pts: Int64(item.firstSlot + repeatIndex - firstFrame))
                timer?.begin()
                try encoder.encode(item.frame, makePacket: Packet.init, output: send)
                timer?.frameDone()
                framesDone += 1
                progress.update(framesDone: framesDone)
            }
            switch item.origin {
            case .decoded:
                item.frame.unref()
                shells.recycle(item.frame)
            case .canvas:
                canvases.recycle(item.frame)
            }
        }
        if input.isCancelled { return }
        timer?.begin()
        try encoder.encode(nil, makePacket: Packet.init, output: send)  // flush delayed frames
        timer?.otherDone()
        progress.update(framesDone: framesDone, finished: true)
    }
}

/// Stage 2+4 (audio): decodes each take's audio, converts it to 48 kHz stereo, fits it to the
/// take's share of the timeline and fades or cross-fades it at the joins (`AudioFitter`), and
/// encodes it; with `--loudness`, through the track's gain and true-peak limiter
/// (`LoudnessShaper`) on the way. Audio is light work: one thread does all of it.
struct AudioStage {
    let plan: ExportPlan
    /// The output audio track this stage makes.
    let track: Int
    let encoder: OwnershipTransfer<Encoder>
    let input: BoundedQueue<PacketEvent>
    let output: BoundedQueue<MuxItem>
    let producers: ProducerCount
    let packets: ObjectPool<Packet>
    let damage: DamageLog
    /// Per audio packet (decode, resample, align, encode; waits on `output` excluded); take
    /// ends and the final flush are its other time.
    let timer: StageTimer?

    func run() throws {
        defer { producers.producerDone() }
        let encoder = AudioTrackEncoder(encoder: encoder.take(), gainDecibels: plan.loudness?.tracks[track].gain,
                                        sampleRate: plan.timeline.sampleRate,
                                        editLists: plan.writesEditLists, send: send)
        let fitter = AudioFitter(plan: plan, interleaved: encoder.takesInterleavedAudio) {
            try encoder.encode($0, available: $1, final: false)
        }
        while let event = input.pop() {
            try handle(event, fitter: fitter)
        }
        if input.isCancelled { return }
        timer?.begin()
        try encoder.encode(fitter.converter, available: fitter.converter.buffered, final: true)
        try encoder.flush()
        timer?.otherDone()
    }

    /// Hands an encoded packet to the muxer (the wait on `output` is not the timer's).
    private func send(_ packet: Packet) throws {
        timer?.pause()
        if !output.push(MuxItem(stream: .audio(track: track), packet: packet)) { throw VRenderError.cancelled }
        timer?.begin()
    }

    private func handle(_ event: PacketEvent, fitter: AudioFitter) throws {
        switch event {
        case .takeStart(let index, let transfer):
            try fitter.beginTake(index, decoder: transfer?.take())
        case .packet(let packet):
            timer?.begin()
            try fitter.decode(packet)
            timer?.frameDone()
            packet.unref()
            packets.recycle(packet)
        case .takeEnd(let index):
            timer?.begin()
            defer { timer?.otherDone() }
            damage.add(try fitter.endTake(index), in: plan.takes[index].path)
        }
    }
}

/// Stage 5: writes packets into the container in the order of their decoding times
/// (`MuxOrder`), never in the order the stages' threads happened to deliver them, so that the
/// same export is the same file on every run.
///
/// `input` is drained whatever the order waits for: its producers share the reader, so one
/// left blocked could starve another. `video`, the join's chunk copies (`ChunkCopyStage`, which
/// depends on nothing else), is read only when the order needs a video packet: a copy far
/// faster than the audio encoding waits in its bounded queue instead of piling up here.
struct MuxStage {
    let muxer: OwnershipTransfer<Muxer>
    /// nil: no video (a chunked export's sound file).
    let videoStream: Int?
    let audioStreams: [Int]
    let input: BoundedQueue<MuxItem>
    /// The join's video packets; nil when they come through `input`.
    var video: BoundedQueue<MuxItem>? = nil
    /// The subtitle stream and all its packets, known before the run (`SideStreamOutput`).
    var subtitles: (stream: Int, packets: [Packet])? = nil
    /// Per video packet written; audio packets and the trailer are its other time.
    let timer: StageTimer?

    func run() throws {
        let muxer = muxer.take()
        var order = MuxOrder<MuxItem>(streams: 1 + audioStreams.count + (subtitles == nil ? 0 : 1))
        let outputStream = { (item: MuxItem) -> (order: Int, muxer: Int) in
            switch item.stream {
            case .video: (0, videoStream ?? -1)
            case .audio(let track): (1 + track, audioStreams[track])
            case .subtitle: (1 + audioStreams.count, subtitles?.stream ?? -1)
            }
        }
        func add(_ item: MuxItem) {
            let stream = outputStream(item)
            let seconds = (item.packet.dts ?? item.packet.pts).map {
                Double($0) * muxer.sourceTimeBase(ofStream: stream.muxer).doubleValue
            }
            order.add(item, stream: stream.order, seconds: seconds)
        }
        if videoStream == nil { order.end(stream: 0) }
        if let subtitles {
            subtitles.packets.forEach { add(MuxItem(stream: .subtitle, packet: $0)) }
            order.end(stream: 1 + audioStreams.count)
        }
        while !order.isDone {
            if let item = order.next() {
                timer?.begin()
                try muxer.write(item.packet, stream: outputStream(item).muxer)
                if case .video = item.stream { timer?.frameDone() } else { timer?.otherDone() }
                continue
            }
            let queue = video.flatMap { order.starved.contains(0) ? $0 : nil } ?? input
            if let item = queue.pop() {
                add(item)
            } else if queue.isCancelled {
                throw VRenderError.cancelled
            } else if queue === video {
                order.end(stream: 0)
            } else {
                // Every stream `input` carries ended.
                for stream in 0...audioStreams.count where stream > 0 || video == nil { order.end(stream: stream) }
            }
        }
        timer?.begin()
        try muxer.finish()
        timer?.otherDone()
    }
}
