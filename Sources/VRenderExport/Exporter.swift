import Foundation
import VRenderCore
import VRenderFilters
import VRenderMedia

/// Runs one `vrender concat`: probe every input, plan, then stream-copy or transcode into a
/// temporary file that is renamed into place when complete.
///
/// Threads (transcode): reader → video decode → process (normalize + filter) → video encode →
/// mux, with audio decode+encode beside them; every pair joined by a `BoundedQueue` that blocks
/// when full (batch work loses nothing) and is cancelled from either side on failure.
public final class Exporter: @unchecked Sendable {
    public let options: ExportOptions
    private let group: StageGroup
    private let reportProgress: @Sendable (ExportProgress) -> Void
    /// Where the filters ran ("cpu" or "vulkan: <device>"), known once a transcode starts.
    private var filterBackend: String?

    public init(options: ExportOptions, progress: @escaping @Sendable (ExportProgress) -> Void = { _ in }) {
        self.options = options
        self.group = StageGroup()
        self.reportProgress = progress
    }

    /// Stops a running export from any thread (Ctrl-C): every stage returns, the temporary
    /// file is deleted, and `run` throws `VRenderError.cancelled`.
    public func cancel() {
        group.cancel(VRenderError.cancelled)
    }

    /// Probes every input; the first unusable one stops everything before any output exists.
    public func probe() throws -> [MediaInfo] {
        try options.inputs.map { try Probe.probe($0) }
    }

    public func plan(_ takes: [MediaInfo]) throws -> ExportPlan {
        try ExportPlanner.plan(takes: takes, options: options)
    }

    /// Executes `plan`. The output appears only on success.
    public func run(_ plan: ExportPlan) throws -> ExportSummary {
        let output = try OutputFile(path: options.output, inputs: options.inputs, overwrite: options.overwrite)
        let start = DispatchTime.now()
        let progress = ProgressThrottle(total: plan.timeline.totalSlots, frameRate: plan.frameRate.doubleValue,
                                        report: reportProgress)
        let damage = DamageLog()
        var summary: ExportSummary
        do {
            switch plan.mode {
            case .streamCopy:
                let result = try StreamCopy(plan: plan, output: output, stop: group.stop, progress: progress).run()
                summary = makeSummary(plan, output: output, frames: result.frames, duration: result.duration,
                                      videoCodec: plan.takes[0].video.codecName,
                                      audioCodec: plan.takes[0].audio?.codecName)
            case .transcode:
                let codecs = try transcode(plan, output: output, progress: progress, damage: damage)
                summary = makeSummary(plan, output: output, frames: plan.timeline.totalSlots,
                                      duration: plan.timeline.duration, videoCodec: codecs.video, audioCodec: codecs.audio)
            }
            if group.stop.isRaised { throw group.stop.firstError ?? VRenderError.cancelled }
            try output.commit()
        } catch {
            output.discard()
            throw error
        }
        summary.bytes = output.size
        summary.wallSeconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        summary.damagedFrames = damage.damaged
        summary.filterBackend = options.filter.isIdentity ? nil : filterBackend
        summary.warnings = damage.warnings
        return summary
    }

    private func makeSummary(_ plan: ExportPlan, output: OutputFile, frames: Int, duration: Double,
                             videoCodec: String, audioCodec: String?) -> ExportSummary {
        let uprightCanvas: (Int, Int)
        if case .keepMetadata(let rotation, _) = plan.rotation {
            uprightCanvas = rotation.upright(width: plan.canvasWidth, height: plan.canvasHeight)
        } else {
            uprightCanvas = (plan.canvasWidth, plan.canvasHeight)
        }
        return ExportSummary(
            output: output.path, mode: plan.mode == .streamCopy ? "stream-copy" : "transcode",
            reason: plan.reason, inputs: plan.takes.map(\.path),
            width: uprightCanvas.0, height: uprightCanvas.1, frameRate: plan.frameRate.description,
            videoCodec: videoCodec, audioCodec: plan.hasAudio ? audioCodec : nil,
            filters: options.filter.names, filterBackend: nil, duration: duration, frames: frames, bytes: 0,
            wallSeconds: 0, damagedFrames: [:], warnings: [])
    }

    /// Builds the transcode pipeline, runs it and waits. Returns the encoders' names.
    private func transcode(_ plan: ExportPlan, output: OutputFile, progress: ProgressThrottle,
                           damage: DamageLog) throws -> (video: String, audio: String?) {
        let executor = try FilterExecutors.make(chain: options.filter, choice: options.gpu, threads: options.filterThreads,
                                                width: plan.canvasWidth, height: plan.canvasHeight)
        filterBackend = executor.backendName
        let muxer = try Muxer(path: output.temporaryPath, formatPath: output.path)
        var requested: VideoCodecChoice = .auto
        if case .encode(let codec) = options.codec { requested = codec }
        let videoEncoder = try Encoder.video(
            VideoEncoderSettings(codec: requested, width: plan.canvasWidth, height: plan.canvasHeight,
                                 frameRate: plan.frameRate, crf: options.crf, preset: options.preset ?? "veryfast"),
            globalHeader: muxer.needsGlobalHeader)
        let audioEncoder = plan.hasAudio ? try Encoder.aac(sampleRate: plan.timeline.sampleRate, globalHeader: muxer.needsGlobalHeader) : nil
        let videoStream = try muxer.addStream(from: videoEncoder)
        if case .keepMetadata(_, let matrix?) = plan.rotation { muxer.setDisplayMatrix(matrix, stream: videoStream) }
        let audioStream = try audioEncoder.map { try muxer.addStream(from: $0) }
        try muxer.writeHeader()
        let names = (video: videoEncoder.name, audio: audioEncoder?.name)

        // Queue capacities: deep enough to absorb per-frame jitter between stages, small enough
        // that memory stays flat however long the takes are.
        let videoPackets = BoundedQueue<PacketEvent>(capacity: 64)
        let audioPackets = plan.hasAudio ? BoundedQueue<PacketEvent>(capacity: 256) : nil
        let decoded = BoundedQueue<FrameEvent>(capacity: 4)
        let toEncode = BoundedQueue<EncodeItem>(capacity: 4)
        let toMux = BoundedQueue<MuxItem>(capacity: 128)
        let producers = ProducerCount(plan.hasAudio ? 2 : 1, of: toMux)

        let packetPool = ObjectPool<Packet>(limit: 512) { Packet() }
        let shellPool = ObjectPool<Frame>(limit: 32) { Frame() }
        let canvasWidth = plan.canvasWidth, canvasHeight = plan.canvasHeight
        let canvasPool = ObjectPool<Frame>(limit: 8) { try Frame.picture(width: canvasWidth, height: canvasHeight) }

        group.onCancel {
            videoPackets.cancel()
            audioPackets?.cancel()
            decoded.cancel()
            toEncode.cancel()
            toMux.cancel()
        }
        if group.stop.isRaised { group.cancel() }   // Ctrl-C arrived while setting up

        group.start("vrender.read") {
            try ReaderStage(plan: plan, video: videoPackets, audio: audioPackets, packets: packetPool, damage: damage).run()
        }
        group.start("vrender.decode") {
            try VideoDecodeStage(plan: plan, input: videoPackets, output: decoded, packets: packetPool,
                                 shells: shellPool, damage: damage).run()
        }
        let filter = options.filter
        let executorTransfer = OwnershipTransfer(executor)
        group.start("vrender.process") {
            try ProcessStage(plan: plan, filter: filter, executor: executorTransfer, input: decoded, output: toEncode,
                             shells: shellPool, canvases: canvasPool, damage: damage).run()
        }
        let videoTransfer = OwnershipTransfer(videoEncoder)
        group.start("vrender.encode") {
            try VideoEncodeStage(encoder: videoTransfer, input: toEncode, output: toMux, producers: producers,
                                 shells: shellPool, canvases: canvasPool, progress: progress).run()
        }
        if let audioEncoder, let audioPackets {
            let audioTransfer = OwnershipTransfer(audioEncoder)
            group.start("vrender.audio") {
                try AudioStage(plan: plan, encoder: audioTransfer, input: audioPackets, output: toMux,
                               producers: producers, packets: packetPool, damage: damage).run()
            }
        }
        let muxTransfer = OwnershipTransfer(muxer)
        group.start("vrender.mux") {
            try MuxStage(muxer: muxTransfer, videoStream: videoStream, audioStream: audioStream, input: toMux).run()
        }
        try group.wait()
        return names
    }
}
