import VRenderCore
import VRenderFilters
import VRenderMedia

/// The threads of an export that re-encodes: reader → video decode → process (normalize +
/// filter) → [prompter overlay] → video encode → mux, with one audio decode+encode thread per
/// output track beside them. For `.copyVideo` one video-copy stage stands in for decode,
/// process and encode, and only the audio is re-encoded.
///
/// A chunked export runs it per `PipelineJob`: a chunk reads only the takes its frames come
/// from and writes only those frames, video only; the join copies the chunks' video packets
/// (`ChunkCopyStage`) beside the audio stages.
///
/// Every pair of stages is joined by a `BoundedQueue` that blocks when full (batch work loses
/// nothing). A stage that fails, or `stopAction` called from any thread, cancels every queue,
/// so each stage returns instead of waiting. Frames and packets come from pools and go back to
/// them. Made for one run, by one thread; only `stopAction` is for other threads.
final class TranscodePipeline {
    /// What the pipeline wrote, for the summary.
    struct Result {
        var videoCodec: String
        var audioCodec: String?
        /// Where the filters ran ("cpu", "vulkan: <device>"); nil when the video was copied.
        var filterBackend: String?
        /// What `--stabilize` did (nil without it, or when no picture was processed: a join).
        var stabilize: StabilizeReport?
    }

    /// Builds the filter executor for a plan (`FilterExecutors.make(for:)`; tests inject
    /// failures here).
    typealias ExecutorFactory = @Sendable (ExportPlan) throws -> any FilterExecutor

    private let plan: ExportPlan
    private let job: PipelineJob
    /// Audio tracks this run writes: the plan's, or none for a chunk.
    private let audioTracks: Int
    private let progress: ProgressThrottle
    private let damage: DamageLog
    private let makeExecutor: ExecutorFactory
    private let codecThreads: CodecThreads
    private let stages = StageGroup()
    /// Every member nil when timings are off.
    private let timers: ExportTimers
    /// `--stabilize`'s counts from the process stage (nil without it).
    private let stabilizeReport: StabilizeReport?

    // Queue capacities: deep enough to absorb per-frame jitter between stages, small enough
    // that memory stays flat however long the takes are.
    private let videoPackets = BoundedQueue<PacketEvent>(capacity: 64)
    /// One per output audio track.
    private let audioPackets: [BoundedQueue<PacketEvent>]
    private let decoded = BoundedQueue<FrameEvent>(capacity: 4)
    /// Decoded frames with their motion (`--stabilize` only: `MotionStage`).
    private let measured = BoundedQueue<FrameEvent>(capacity: 4)
    private let toEncode = BoundedQueue<EncodeItem>(capacity: 4)
    /// Pictures with the prompter or captions drawn in (`--prompter-overlay`, `--captions burn`).
    private let prompted = BoundedQueue<EncodeItem>(capacity: 4)
    private let toMux = BoundedQueue<MuxItem>(capacity: 128)
    /// The join's video packets (`ChunkCopyStage`), apart from `toMux` (see `MuxStage`).
    private let joinedVideo = BoundedQueue<MuxItem>(capacity: 128)
    /// The stages that feed `toMux` (every audio stage, and the video stage but in a join):
    /// the last one done ends it.
    private let producers: ProducerCount
    private let packetPool = ObjectPool<Packet>(limit: 512) { Packet() }
    /// Decoded frames' shells, and canvas pictures for frames that are scaled or filtered.
    private let shellPool = ObjectPool<Frame>(limit: 32) { Frame() }
    private let canvasPool: ObjectPool<Frame>

    /// `timings`: where the stages record their frame times and the queues their occupancy
    /// (nil: nothing is measured).
    init(plan: ExportPlan, job: PipelineJob = .whole, progress: ProgressThrottle,
         damage: DamageLog, timings: StageTimings? = nil, makeExecutor: @escaping ExecutorFactory) {
        self.plan = plan
        self.job = job
        self.progress = progress
        self.damage = damage
        self.makeExecutor = makeExecutor
        audioTracks = job.writesAudio ? plan.audio.trackCount : 0
        codecThreads = plan.mode == .transcode ? .forTranscode(of: plan, budget: plan.threads) : .codecsChoice
        audioPackets = (0..<audioTracks).map { _ in BoundedQueue<PacketEvent>(capacity: 256) }
        // The video stage feeds `toMux` but in a join and a sound run; a copied sound file is
        // one producer for every track.
        let videoProducers = job.isJoin || !job.writesVideo ? 0 : 1
        producers = ProducerCount(videoProducers + (job.encodesAudio ? audioTracks : min(audioTracks, 1)), of: toMux)
        let (width, height, tenBit) = (plan.canvasWidth, plan.canvasHeight, plan.colour.tenBit)
        canvasPool = ObjectPool<Frame>(limit: 8) { try Frame.picture(width: width, height: height, tenBit: tenBit) }
        stabilizeReport = plan.stabilize != nil && !job.isJoin && job.writesVideo && plan.mode == .transcode ? StabilizeReport() : nil
        timers = ExportTimers(timings, mode: plan.mode, audioTracks: audioTracks,
                              prompter: plan.drawsOverlay, stabilize: plan.stabilize != nil)
        if let timings { watchQueues(timings) }
        stages.onCancel { [videoPackets, audioPackets, decoded, measured, toEncode, prompted, toMux, joinedVideo] in
            videoPackets.cancel()
            audioPackets.forEach { $0.cancel() }
            decoded.cancel()
            measured.cancel()
            toEncode.cancel()
            prompted.cancel()
            toMux.cancel()
            joinedVideo.cancel()
        }
    }

    /// Stops every stage, from any thread; `run` then throws `VRenderError.cancelled`.
    var stopAction: @Sendable () -> Void {
        { [stages] in stages.cancel(VRenderError.cancelled) }
    }

    /// Writes the output's temporary file and waits for every stage. Everything that can fail
    /// before the stages start (encoders, the muxer's header, the filter executor) fails
    /// before any thread exists.
    func run(into output: OutputFile) throws -> Result {
        let muxer = try Muxer(descriptor: output.open(), path: output.temporaryPath, formatPath: output.path, reportingAs: output.path)
        let videoEncoder = copiesVideo || !job.writesVideo ? nil : try makeVideoEncoder(globalHeader: muxer.needsGlobalHeader)
        let sound = try job.soundFile.map { try SoundFile.open($0, plan: plan) }
        let audioEncoders = try (0..<(sound == nil ? audioTracks : 0)).map { _ in
            try makeAudioEncoder(globalHeader: muxer.needsGlobalHeader)
        }
        let videoStream = job.writesVideo ? try addVideoStream(to: muxer, encoder: videoEncoder) : nil
        let audioStreams = try sound.map { try $0.addStreams(to: muxer) } ?? audioEncoders.map { try muxer.addStream(from: $0) }
        for (track, stream) in audioStreams.enumerated() { muxer.setLabel(plan.audio.label(ofTrack: track), stream: stream) }
        // A chunk is video only, a sound run sound only: side streams go into the whole or the join.
        let side = job.writesAudio && job.writesVideo ? try SideStreamOutput(plan: plan, muxer: muxer) : nil
        let subtitles = try side?.subtitleStream.map { (stream: $0, packets: try side!.allCues()) }
        muxer.writeReproducibly()
        try muxer.writeHeader(options: muxer.finishedFileOptions(editLists: plan.writesEditLists))
        let executor = try videoEncoder.map { _ in try makeExecutor(plan) }
        var painters: [any SlotPainter] = try plan.prompter.map { [try PrompterPainter(prompter: $0, plan: plan, damage: damage)] } ?? []
        if let captions = plan.captions, captions.outputs.contains(.burn) {
            painters.append(try CaptionPainter(captions: captions, plan: plan, damage: damage))
        }

        startReader()
        if let videoEncoder, let executor {
            startVideoStages(encoder: videoEncoder, executor: executor, painters: painters)
        } else if case .join(let chunks, _) = job {
            let copy = ChunkCopyStage(plan: plan, chunks: chunks, output: joinedVideo, progress: progress)
            stages.start("vrender.chunk-copy") { try copy.run() }
        } else if job.writesVideo {
            startVideoCopy()
        }
        startAudioStages(audioEncoders)
        if let sound {
            let copy = sound.stage(output: toMux, producers: producers)
            stages.start("vrender.sound-copy") { try copy.run() }
        }
        let mux = MuxStage(muxer: OwnershipTransfer(muxer), videoStream: videoStream, audioStreams: audioStreams,
                           input: toMux, video: job.isJoin ? joinedVideo : nil, subtitles: subtitles, timer: timers.mux)
        stages.start("vrender.mux") { try mux.run() }
        try stages.wait()
        return Result(videoCodec: job.writesVideo ? videoEncoder?.name ?? copiedVideo.codecName : "none",
                      audioCodec: audioEncoders.first?.name ?? sound?.codecName, filterBackend: executor?.backendName,
                      stabilize: stabilizeReport)
    }

    /// True when no video is encoded: the takes' video is copied, or the chunks' is joined.
    private var copiesVideo: Bool {
        job.isJoin || plan.mode == .copyVideo
    }

    /// The video stream copied into the output: the first chunk's, or the first take's.
    private var copiedVideo: (path: String, codecName: String, index: Int) {
        if case .join(let chunks, _) = job, let first = chunks.first {
            return (first.chunk.path, first.info.video.codecName, first.info.video.index)
        }
        return (plan.takes[0].path, plan.takes[0].video.codecName, plan.takes[0].video.index)
    }

    // MARK: - Setup

    /// The queues `vrender bench` reports, named as README "Measuring" names them.
    private func watchQueues(_ timings: StageTimings) {
        timings.watch(videoPackets, as: "video packets")
        if plan.mode == .transcode {
            timings.watch(decoded, as: "decoded")
            if plan.stabilize != nil { timings.watch(measured, as: "measured") }
            timings.watch(toEncode, as: plan.drawsOverlay ? "to prompter" : "to encode")
            if plan.drawsOverlay { timings.watch(prompted, as: "to encode") }
        }
        timings.watch(toMux, as: "to mux")
        for (track, queue) in audioPackets.enumerated() {
            timings.watch(queue, as: track == 0 ? "audio packets" : "audio packets \(track + 1)")
        }
    }

    /// The video encoder for a transcode: the plan's codec, canvas, rate, colours and depth.
    private func makeVideoEncoder(globalHeader: Bool) throws -> Encoder {
        var settings = VideoEncoderSettings(codec: plan.videoCodec, width: plan.canvasWidth, height: plan.canvasHeight,
                                            frameRate: plan.frameRate, crf: plan.encoding.crf, preset: plan.encoding.preset)
        settings.colour = plan.colour.output
        settings.tenBit = plan.colour.tenBit
        settings.threads = codecThreads.encoder
        settings.tuning = plan.encoding.delivery?.tuning(width: plan.canvasWidth, height: plan.canvasHeight, frameRate: plan.frameRate)
        if case .chunk(_, let keyframeInterval) = job {
            settings.keyframeInterval = keyframeInterval
            settings.fixedKeyframes = true
        }
        return try Encoder.video(settings, globalHeader: globalHeader)
    }

    private func makeAudioEncoder(globalHeader: Bool) throws -> Encoder {
        switch plan.audioCodec {
        case .opus: return try Encoder.opus(globalHeader: globalHeader)
        case .aac: return try Encoder.aac(sampleRate: plan.timeline.sampleRate, globalHeader: globalHeader)
        case .pcm: return try Encoder.pcmFloat(sampleRate: plan.timeline.sampleRate, globalHeader: globalHeader)
        }
    }

    /// The output's video stream: the encoder's, or a copy of the first take's; with the
    /// rotation the plan keeps as metadata.
    private func addVideoStream(to muxer: Muxer, encoder: Encoder?) throws -> Int {
        let stream: Int
        if let encoder {
            stream = try muxer.addStream(from: encoder)
        } else {
            let source = copiedVideo
            stream = try muxer.addStream(copying: source.index, of: try openDemuxer(source.path))
        }
        if case .keepMetadata(_, let matrix?) = plan.rotation { muxer.setDisplayMatrix(matrix, stream: stream) }
        muxer.setLabel(plan.videoLabel, stream: stream)
        return stream
    }

    // MARK: - Stages, one thread each

    /// Reads the takes: every one for the whole export, a chunk's own, or for the join only
    /// their audio (none to read when the export has no audio).
    private func startReader() {
        var readsVideo = true
        if job.isJoin || !job.writesVideo { readsVideo = false }
        guard job.encodesAudio || readsVideo else { return }   // a join copying a sound file reads no take
        guard readsVideo || audioTracks > 0 else { return }
        let reader = ReaderStage(plan: plan, video: readsVideo ? videoPackets : nil, audio: audioPackets,
                                 frames: job.frames(of: plan), packets: packetPool, damage: damage,
                                 videoDecoderThreads: codecThreads.decoder, timer: timers.demux,
                                 leadIn: plan.stabilize?.leadIn ?? 0, leadOut: plan.stabilize?.leadOut ?? 0)
        stages.start("vrender.read") { try reader.run() }
    }

    /// Decode → [motion] → process (normalize + filter) → [prompter, captions] → encode.
    private func startVideoStages(encoder: Encoder, executor: any FilterExecutor, painters: [any SlotPainter]) {
        let decode = VideoDecodeStage(plan: plan, input: videoPackets, output: decoded, packets: packetPool,
                                      shells: shellPool, damage: damage, timer: timers.decode)
        let process = ProcessStage(plan: plan, frames: job.frames(of: plan), filter: plan.encoding.filter,
                                   executor: OwnershipTransfer(executor),
                                   input: plan.stabilize == nil ? decoded : measured, output: toEncode,
                                   shells: shellPool, canvases: canvasPool,
                                   damage: damage, normalizeTimer: timers.normalize, filterTimer: timers.filter,
                                   stabilizeReport: stabilizeReport)
        let encode = VideoEncodeStage(encoder: OwnershipTransfer(encoder), input: painters.isEmpty ? toEncode : prompted,
                                      output: toMux, firstFrame: job.frames(of: plan).lowerBound,
                                      producers: producers, shells: shellPool, canvases: canvasPool, progress: progress,
                                      timer: timers.encode)
        stages.start("vrender.decode") { try decode.run() }
        if plan.stabilize != nil {
            let motion = MotionStage(plan: plan, input: decoded, output: measured, timer: timers.motion)
            stages.start("vrender.motion") { try motion.run() }
        }
        stages.start("vrender.process") { try process.run() }
        if !painters.isEmpty {
            let overlay = OverlayStage(painters: painters, input: toEncode, output: prompted, shells: shellPool,
                                       canvases: canvasPool, timer: timers.prompter)
            stages.start("vrender.prompter") { try overlay.run() }
        }
        stages.start("vrender.encode") { try encode.run() }
    }

    private func startVideoCopy() {
        let copy = VideoCopyStage(plan: plan, input: videoPackets, output: toMux, producers: producers, progress: progress)
        stages.start("vrender.video-copy") { try copy.run() }
    }

    private func startAudioStages(_ encoders: [Encoder]) {
        for (track, encoder) in encoders.enumerated() {
            let audio = AudioStage(plan: plan, track: track, encoder: OwnershipTransfer(encoder),
                                   input: audioPackets[track], output: toMux, producers: producers,
                                   packets: packetPool, damage: damage, timer: timers.audio[track])
            stages.start("vrender.audio\(track)") { try audio.run() }
        }
    }
}
