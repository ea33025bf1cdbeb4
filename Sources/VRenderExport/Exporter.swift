import Foundation
import VRenderCore
import VRenderFilters
import VRenderMedia
import VRenderRecording

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

    /// Inputs as files: a takes folder becomes its takes in recording order. Notices say how
    /// a folder was read.
    public func resolveInputs() throws -> (paths: [String], notices: [String]) {
        var paths: [String] = []
        var notices: [String] = []
        for input in options.inputs {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: input, isDirectory: &isDirectory), isDirectory.boolValue else {
                paths.append(input)
                continue
            }
            let folder = try TakesFolder.takePaths(in: input)
            paths += folder.paths
            if folder.order == .fileNames {
                notices.append("\(input): no takes.json, so its \(folder.paths.count) video file(s) are joined in file-name order")
            }
        }
        return (paths, notices)
    }

    /// Probes every input; the first unusable one stops everything before any output exists.
    public func probe() throws -> [MediaInfo] {
        try resolveInputs().paths.map { try Probe.probe($0) }
    }

    public func plan(_ takes: [MediaInfo]) throws -> ExportPlan {
        try ExportPlanner.plan(takes: takes, options: options)
    }

    /// Everything before writing: the output is checked first (a missing folder or an existing
    /// file is reported before any input is read), then inputs are resolved, probed and planned.
    public func prepare() throws -> ExportPlan {
        _ = try OutputFile(path: options.output, inputs: options.inputs, overwrite: options.overwrite)
        let inputs = try resolveInputs()
        let takes = try inputs.paths.map { try Probe.probe($0) }
        var plan = try ExportPlanner.plan(takes: takes, options: options)
        plan.notices = inputs.notices + plan.notices
        return plan
    }

    /// Executes `plan`. The output appears only on success.
    public func run(_ plan: ExportPlan) throws -> ExportSummary {
        let output = try OutputFile(path: plan.output, inputs: plan.takes.map(\.path), overwrite: options.overwrite)
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
            case .copyVideo, .transcode:
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
        let upright = plan.uprightCanvas
        let modes: [ExportPlan.Mode: String] = [.streamCopy: "stream-copy", .copyVideo: "video-copy", .transcode: "transcode"]
        return ExportSummary(
            output: output.path, mode: modes[plan.mode]!,
            reason: plan.reason, inputs: plan.takes.map(\.path),
            width: upright.width, height: upright.height, frameRate: plan.frameRate.description,
            videoCodec: videoCodec, audioCodec: plan.hasAudio ? audioCodec : nil,
            filters: options.filter.names, filterBackend: nil, duration: duration, frames: frames, bytes: 0,
            wallSeconds: 0, damagedFrames: [:], warnings: [], notices: plan.notices,
            colour: plan.mode == .transcode ? plan.colour.output.description : nil,
            rotation: plan.rotation == .uprightPixels ? 0 : plan.uprightRotationDegrees,
            audioTracks: plan.audio.trackCount)
    }

    /// Builds the transcode pipeline (or, for `.copyVideo`, the copy of the video beside the
    /// audio stages), runs it and waits. Returns the encoders' names.
    private func transcode(_ plan: ExportPlan, output: OutputFile, progress: ProgressThrottle,
                           damage: DamageLog) throws -> (video: String, audio: String?) {
        let copyVideo = plan.mode == .copyVideo
        let muxer = try Muxer(path: output.temporaryPath, formatPath: output.path)
        let videoEncoder = copyVideo ? nil : try makeVideoEncoder(plan, globalHeader: muxer.needsGlobalHeader)
        let audioEncoders = try (0..<plan.audio.trackCount).map { _ in
            plan.audioCodec == .opus ? try Encoder.opus(globalHeader: muxer.needsGlobalHeader)
                : try Encoder.aac(sampleRate: plan.timeline.sampleRate, globalHeader: muxer.needsGlobalHeader)
        }
        let videoStream: Int
        if let videoEncoder {
            videoStream = try muxer.addStream(from: videoEncoder)
        } else {
            videoStream = try muxer.addStream(copying: plan.takes[0].video.index, of: try openDemuxer(plan.takes[0].path))
        }
        if case .keepMetadata(_, let matrix?) = plan.rotation { muxer.setDisplayMatrix(matrix, stream: videoStream) }
        let audioStreams = try audioEncoders.map { try muxer.addStream(from: $0) }
        try muxer.writeHeader(options: muxer.finishedFileOptions)
        let names = (video: videoEncoder?.name ?? plan.takes[0].video.codecName, audio: audioEncoders.first?.name)

        // Queue capacities: deep enough to absorb per-frame jitter between stages, small enough
        // that memory stays flat however long the takes are.
        let videoPackets = BoundedQueue<PacketEvent>(capacity: 64)
        let audioPackets = audioEncoders.map { _ in BoundedQueue<PacketEvent>(capacity: 256) }
        let decoded = BoundedQueue<FrameEvent>(capacity: 4)
        let toEncode = BoundedQueue<EncodeItem>(capacity: 4)
        let toMux = BoundedQueue<MuxItem>(capacity: 128)
        let producers = ProducerCount(1 + audioEncoders.count, of: toMux)
        let packetPool = ObjectPool<Packet>(limit: 512) { Packet() }

        group.onCancel {
            videoPackets.cancel()
            audioPackets.forEach { $0.cancel() }
            decoded.cancel()
            toEncode.cancel()
            toMux.cancel()
        }
        if group.stop.isRaised { group.cancel() }   // Ctrl-C arrived while setting up

        group.start("vrender.read") {
            try ReaderStage(plan: plan, video: videoPackets, audio: audioPackets, packets: packetPool, damage: damage).run()
        }
        if let videoEncoder {
            try startVideoStages(plan, encoder: videoEncoder, input: videoPackets, decoded: decoded, toEncode: toEncode,
                                 toMux: toMux, producers: producers, packets: packetPool, progress: progress, damage: damage)
        } else {
            group.start("vrender.video-copy") {
                try VideoCopyStage(plan: plan, input: videoPackets, output: toMux, producers: producers, progress: progress).run()
            }
        }
        for (track, encoder) in audioEncoders.enumerated() {
            let transfer = OwnershipTransfer(encoder)
            group.start("vrender.audio\(track)") {
                try AudioStage(plan: plan, track: track, encoder: transfer, input: audioPackets[track], output: toMux,
                               producers: producers, packets: packetPool, damage: damage).run()
            }
        }
        let muxTransfer = OwnershipTransfer(muxer)
        group.start("vrender.mux") {
            try MuxStage(muxer: muxTransfer, videoStream: videoStream, audioStreams: audioStreams, input: toMux).run()
        }
        try group.wait()
        return names
    }

    /// The video encoder for a transcode: the plan's codec, canvas, rate, colours and depth.
    private func makeVideoEncoder(_ plan: ExportPlan, globalHeader: Bool) throws -> Encoder {
        var settings = VideoEncoderSettings(codec: plan.videoCodec, width: plan.canvasWidth, height: plan.canvasHeight,
                                            frameRate: plan.frameRate, crf: options.crf, preset: options.preset ?? "veryfast")
        settings.colour = plan.colour.output
        settings.tenBit = plan.colour.tenBit
        return try Encoder.video(settings, globalHeader: globalHeader)
    }

    /// Decode → process (normalize + filter) → encode, each on its own thread.
    private func startVideoStages(_ plan: ExportPlan, encoder: Encoder, input: BoundedQueue<PacketEvent>,
                                  decoded: BoundedQueue<FrameEvent>, toEncode: BoundedQueue<EncodeItem>,
                                  toMux: BoundedQueue<MuxItem>, producers: ProducerCount, packets: ObjectPool<Packet>,
                                  progress: ProgressThrottle, damage: DamageLog) throws {
        let executor = try FilterExecutors.make(chain: options.filter, choice: options.gpu, threads: options.filterThreads,
                                                width: plan.canvasWidth, height: plan.canvasHeight)
        filterBackend = executor.backendName
        let shellPool = ObjectPool<Frame>(limit: 32) { Frame() }
        let canvasWidth = plan.canvasWidth, canvasHeight = plan.canvasHeight, tenBit = plan.colour.tenBit
        let canvasPool = ObjectPool<Frame>(limit: 8) { try Frame.picture(width: canvasWidth, height: canvasHeight, tenBit: tenBit) }
        group.start("vrender.decode") {
            try VideoDecodeStage(plan: plan, input: input, output: decoded, packets: packets,
                                 shells: shellPool, damage: damage).run()
        }
        let filter = options.filter
        let executorTransfer = OwnershipTransfer(executor)
        group.start("vrender.process") {
            try ProcessStage(plan: plan, filter: filter, executor: executorTransfer, input: decoded, output: toEncode,
                             shells: shellPool, canvases: canvasPool, damage: damage).run()
        }
        let videoTransfer = OwnershipTransfer(encoder)
        group.start("vrender.encode") {
            try VideoEncodeStage(encoder: videoTransfer, input: toEncode, output: toMux, producers: producers,
                                 shells: shellPool, canvases: canvasPool, progress: progress).run()
        }
    }
}
