import Foundation
import VRenderCore
import VRenderFilters
import VRenderMedia

/// Runs one `vrender concat`: probe every input, plan, then write the output with the plan's
/// pipeline (`StreamCopy`, or `TranscodePipeline` for a video copy or a transcode) into a
/// temporary file that is renamed into place when complete.
///
///     let summary = try Exporter(options: options) { progress in ... }.export { plan in show(plan) }
///
/// `cancel()` may be called from any thread (Ctrl-C); everything else from one thread.
public final class Exporter: Sendable {
    public let options: ExportOptions
    private let reportProgress: @Sendable (ExportProgress) -> Void
    private let makeExecutor: TranscodePipeline.ExecutorFactory
    private let cancellation = ExportCancellation()
    /// Where the run's stage timings go; nil unless given, or made for `options.timingsOutput`.
    private let timings: StageTimings?

    /// `timings`: a collector the stages record their frame times into (`vrender bench`
    /// reads its report afterwards); without one, `options.timingsOutput` gets its own.
    public convenience init(options: ExportOptions, timings: StageTimings? = nil,
                            progress: @escaping @Sendable (ExportProgress) -> Void = { _ in }) {
        self.init(options: options, timings: timings, progress: progress) { plan in
            try FilterExecutors.make(chain: options.filter, choice: options.gpu,
                                     threads: options.filterThreads > 0 ? options.filterThreads : options.threads.pictureBands,
                                     width: plan.canvasWidth, height: plan.canvasHeight)
        }
    }

    /// `makeExecutor` builds the filter executor of a transcode (tests inject failing ones).
    init(options: ExportOptions, timings: StageTimings? = nil, progress: @escaping @Sendable (ExportProgress) -> Void,
         makeExecutor: @escaping TranscodePipeline.ExecutorFactory) {
        self.options = options
        self.reportProgress = progress
        self.makeExecutor = makeExecutor
        self.timings = timings ?? options.timingsOutput.map { _ in StageTimings(kind: "concat") }
    }

    /// Stops a running export from any thread (Ctrl-C): every stage returns, the temporary
    /// file is deleted, and `run` throws `VRenderError.cancelled`. An export not yet started
    /// stops as soon as it starts.
    public func cancel() {
        cancellation.cancel()
    }

    /// The whole export: `prepare`, then `onPlan` with the plan (to show it), then `run`.
    /// First sets FFmpeg's log level for the process from `options.verbose` (the libraries'
    /// warnings on stderr, or silence), so that callers need not touch FFmpeg; `prepare` and
    /// `run` alone leave it to their caller. Every error it throws is a `VRenderError`; one
    /// that comes up without a subject is reported against the output file.
    public func export(onPlan: (ExportPlan) -> Void = { _ in }) throws -> ExportSummary {
        FFmpegLog.configure(verbose: options.verbose)
        return try VRenderError.attributing(to: options.output, as: .runtime) {
            let start = MonotonicClock.now()
            let plan = try prepare()
            let planSeconds = MonotonicClock.seconds(since: start)
            onPlan(plan)
            var summary = try run(plan)
            summary.planSeconds = planSeconds
            return summary
        }
    }

    /// Everything before writing: the output is checked first (a missing folder or an existing
    /// file is reported before any input is read), then inputs are resolved, probed and planned.
    /// The plan's notices begin with how takes folders were read.
    /// `checkingOutput: false`: the output is not looked at (a chunk worker, which writes a
    /// chunk file, plans the export whole to know the timeline).
    /// `measuringLoudness: false`: no `--loudness` measuring pass (a chunk worker, which writes
    /// no sound).
    /// `probed`: the takes as an earlier `prepare` probed, trimmed and cut them (its plan's
    /// `takes`, which a chunk plan carries), used instead of probing again. Whatever reads
    /// a take's packets checks its streams against them (`openTake`).
    public func prepare(checkingOutput: Bool = true, measuringLoudness: Bool = true,
                        probed takes: [MediaInfo]? = nil) throws -> ExportPlan {
        if checkingOutput {
            _ = try OutputFile(path: options.output, inputs: options.inputs, overwrite: options.overwrite, folder: options.outputFolder)
        }
        try checkTimingsOutput()
        let probed = try takes.map { (takes: $0, notices: [String]()) } ?? probeInputs()
        return try ExportPlanner.plan(takes: probed.takes, inputNotices: probed.notices, options: options,
                                      measuringLoudness: measuringLoudness)
    }

    /// Executes `plan`. The output appears only on success. A copy that finds damage in a take
    /// (`CopyDamage`) is thrown away and the export transcoded from the start into a fresh
    /// temporary file, with a warning naming the take and where.
    public func run(_ plan: ExportPlan) throws -> ExportSummary {
        let output = try OutputFile(path: plan.output, inputs: plan.takes.map(\.path), overwrite: options.overwrite,
                                    folder: options.outputFolder)
        do {
            return try run(plan, job: .whole, into: output)
        } catch let damage as CopyDamage {
            let fallback = try ExportPlanner.transcoding(instead: plan, options: options, damage: damage)
            let retry = try OutputFile(path: fallback.output, inputs: plan.takes.map(\.path), overwrite: options.overwrite,
                                       folder: options.outputFolder)
            var summary = try run(fallback, job: .whole, into: retry)
            summary.warnings.insert(damage.fallbackNote, at: 0)
            return summary
        }
    }

    /// One chunk of a chunked export (VRenderScale): output frames `frames` of `plan`, video
    /// only, encoded with a keyframe every `keyframeInterval` frames, into `path` (a .mov or
    /// .mkv file, replaced if it exists). The summary counts the chunk's frames.
    package func renderChunk(_ plan: ExportPlan, frames: Range<Int>, keyframeInterval: Int,
                            to path: String) throws -> ExportSummary {
        guard plan.mode == .transcode else {
            throw VRenderError.option("--engine", "this export copies the takes' video (\(plan.mode.summaryName)); only an export that encodes its video is rendered in chunks")
        }
        let output = try OutputFile(path: path, inputs: plan.takes.map(\.path), overwrite: true)
        return try run(plan, job: .chunk(frames: frames, keyframeInterval: keyframeInterval), into: output)
    }

    /// A chunked export's sound (VRenderScale), encoded while its chunks render: every audio
    /// track of `plan`, loudness applied (plan it with `measuringLoudness`), into `path`, a
    /// file of `soundContainer(of:)`, replaced if it exists.
    package func renderSound(_ plan: ExportPlan, to path: String) throws -> ExportSummary {
        guard plan.hasAudio else { throw VRenderError.output(path, "the export has no sound to encode") }
        let output = try OutputFile(path: path, inputs: plan.takes.map(\.path), overwrite: true)
        return try run(plan, job: .sound, into: output)
    }

    /// The container of a chunked export's sound file, as a file name extension ("mp4" for
    /// AAC, "mka" for Opus); nil when the export has no sound.
    package static func soundContainer(of plan: ExportPlan) -> String? {
        plan.hasAudio ? SoundFile.container(of: plan) : nil
    }

    /// The last step of a chunked export: `plan`'s output from its rendered chunks, whose video
    /// packets are copied in order, with the sound copied from `sound` (`renderSound`'s file),
    /// or without one every take's audio encoded whole. The chunks must cover the timeline in
    /// order, and have been encoded alike (one codec set-up).
    package func join(_ plan: ExportPlan, chunks: [RenderedChunk], sound: String? = nil) throws -> ExportSummary {
        let output = try OutputFile(path: plan.output, inputs: plan.takes.map(\.path), overwrite: options.overwrite)
        let probed = try ChunkJoinCheck.probe(chunks, plan: plan, threads: options.threads.processors)
        return try run(plan, job: .join(probed, sound: plan.hasAudio ? sound : nil), into: output)
    }

    private func run(_ plan: ExportPlan, job: PipelineJob, into output: OutputFile) throws -> ExportSummary {
        let start = MonotonicClock.now()
        let progress = ProgressThrottle(total: job.frames(of: plan).count, frameRate: plan.frameRate.doubleValue,
                                        report: reportProgress)
        let damage = DamageLog()
        let leftovers = output.removeLeftovers()
        timings?.start()
        var summary: ExportSummary
        do {
            summary = try write(plan, job: job, to: output, progress: progress, damage: damage)
            if cancellation.isCancelled { throw VRenderError.cancelled }
            try output.commit()
        } catch {
            output.discard()
            throw output.explainFailure(error)
        }
        summary.bytes = output.size
        summary.wallSeconds = MonotonicClock.seconds(since: start)
        summary.damagedFrames = damage.damaged
        summary.warnings = damage.warnings
        if !leftovers.isEmpty {
            summary.warnings.append("removed \(leftovers.count) temporary file(s) that killed earlier runs left beside \(output.path): \(leftovers.joined(separator: ", "))")
        }
        try finishTimings(summary, plan: plan)
        return summary
    }

    /// `--timings FILE`: a folder that exists, and neither the output nor an input.
    private func checkTimingsOutput() throws {
        guard let path = options.timingsOutput else { return }
        for other in options.inputs + [options.output] where OutputFile.isSameFile(other, path) {
            throw VRenderError.output(path, "is also \(other == options.output ? "the output" : "an input"); give --timings a file of its own")
        }
        try AtomicFile(path: path).checkTarget()
    }

    /// Stops the timings' clocks, notes what the export was made with, and writes the report
    /// to `options.timingsOutput` when asked (atomically). Frames in: video packets read.
    private func finishTimings(_ summary: ExportSummary, plan: ExportPlan) throws {
        guard let timings else { return }
        timings.finish(framesIn: timings.frames(of: ExportTimers.Stage.demux), framesOut: summary.frames,
                       mediaSeconds: summary.duration)
        let settings = [
            "inputs": summary.inputs.joined(separator: " "), "output": summary.output, "mode": summary.mode,
            "size": "\(summary.width)x\(summary.height)", "fps": summary.frameRate,
            "videoCodec": summary.videoCodec, "audioCodec": summary.audioCodec ?? "none",
            "filter": summary.filters.joined(separator: ","), "filterBackend": summary.filterBackend ?? "none",
            "preset": plan.mode == .transcode ? options.preset ?? "veryfast" : "none",
            "crf": plan.mode == .transcode ? options.crf.map(String.init) ?? "default" : "none",
        ]
        for (key, value) in settings { timings.setting(key, value) }
        if let path = options.timingsOutput { try timings.report().write(to: path) }
    }

    /// Runs the pipeline the plan's mode asks for into `output`'s temporary file.
    private func write(_ plan: ExportPlan, job: PipelineJob, to output: OutputFile, progress: ProgressThrottle,
                       damage: DamageLog) throws -> ExportSummary {
        if case .whole = job {} else { return try writePart(plan, job: job, to: output, progress: progress, damage: damage) }
        switch plan.mode {
        case .streamCopy:
            let copied = try StreamCopy(plan: plan, output: output, damage: damage, cancellation: cancellation,
                                        progress: progress, timings: timings).run()
            return makeSummary(plan, output: output, frames: copied.frames, duration: copied.duration,
                               videoCodec: plan.takes[0].video.codecName, audioCodec: plan.takes[0].audio?.codecName,
                               filterBackend: nil)
        case .copyVideo, .transcode:
            let pipeline = TranscodePipeline(plan: plan, options: options, progress: progress, damage: damage,
                                             timings: timings, makeExecutor: makeExecutor)
            let result = try cancellation.run(stoppingWith: pipeline.stopAction) { try pipeline.run(into: output) }
            // A copied video has the frames it had (a variable-rate take fills no slot grid).
            let frames = plan.mode == .copyVideo ? progress.framesFinished : plan.timeline.totalSlots
            return makeSummary(plan, output: output, frames: frames, duration: plan.timeline.duration, pipeline: result)
        }
    }

    /// A chunk, or the join of chunks: the transcode pipeline run for that part.
    private func writePart(_ plan: ExportPlan, job: PipelineJob, to output: OutputFile, progress: ProgressThrottle,
                           damage: DamageLog) throws -> ExportSummary {
        let pipeline = TranscodePipeline(plan: plan, options: options, job: job, progress: progress, damage: damage,
                                         timings: timings, makeExecutor: makeExecutor)
        let result = try cancellation.run(stoppingWith: pipeline.stopAction) { try pipeline.run(into: output) }
        let frames = job.frames(of: plan).count
        var summary = makeSummary(plan, output: output, frames: frames, duration: Double(frames) / plan.frameRate.doubleValue,
                                  pipeline: result)
        if case .chunk = job { summary.audioCodec = nil }
        if case .sound = job { summary.frames = 0 }
        return summary
    }

    /// The summary of a run of the transcode pipeline (a video copy, a transcode, a chunk, a join).
    private func makeSummary(_ plan: ExportPlan, output: OutputFile, frames: Int, duration: Double,
                             pipeline result: TranscodePipeline.Result) -> ExportSummary {
        var summary = makeSummary(plan, output: output, frames: frames, duration: duration, videoCodec: result.videoCodec,
                                  audioCodec: result.audioCodec, filterBackend: result.filterBackend)
        summary.stabilize = plan.stabilize.map { StabilizeSummary($0, report: result.stabilize) }
        return summary
    }

    private func makeSummary(_ plan: ExportPlan, output: OutputFile, frames: Int, duration: Double,
                             videoCodec: String, audioCodec: String?, filterBackend: String?) -> ExportSummary {
        let upright = plan.uprightCanvas
        var summary = ExportSummary(
            output: output.path, mode: plan.mode.summaryName,
            reason: plan.reason, inputs: plan.takes.map(\.path),
            width: upright.width, height: upright.height, frameRate: plan.frameRate.description,
            videoCodec: videoCodec, audioCodec: plan.hasAudio ? audioCodec : nil,
            filters: options.filter.names, filterBackend: options.filter.isIdentity ? nil : filterBackend,
            duration: duration, frames: frames, bytes: 0,
            wallSeconds: 0, damagedFrames: [:], warnings: [], notices: plan.notices,
            colour: plan.mode == .transcode ? plan.colour.output.description : nil,
            rotation: plan.rotation == .uprightPixels ? 0 : plan.uprightRotationDegrees,
            audioTracks: plan.audio.trackCount, loudness: plan.loudness,
            transition: plan.transition)
        if plan.takes.contains(where: { $0.trim != nil }) { summary.trims = plan.takes.map(\.trim) }
        return summary
    }
}

extension ExportPlan.Mode {
    /// The mode as the summary and `--json` name it.
    var summaryName: String {
        switch self {
        case .streamCopy: "stream-copy"
        case .copyVideo: "video-copy"
        case .transcode: "transcode"
        }
    }
}
