import Foundation
import VRenderCore
import VRenderFilters
import VRenderMedia

/// Runs one `vrender concat`: plan (`ExportPlanner`), then write the output with the plan's
/// pipeline (`StreamCopy`, or `TranscodePipeline` for a video copy or a transcode) into a
/// temporary file that is renamed into place when complete. A run reads only its plan; a
/// chunked export runs each of its parts (`PipelineJob`) the same way.
///
///     let summary = try Exporter(options: options) { progress in ... }.export { plan in show(plan) }
///
/// `cancel()` may be called from any thread (Ctrl-C); everything else from one thread.
public final class Exporter: Sendable {
    /// What `export` plans from; nil for an exporter that runs plans made elsewhere (a chunk worker's).
    private let options: ExportOptions?
    private let reportProgress: @Sendable (ExportProgress) -> Void
    private let makeExecutor: TranscodePipeline.ExecutorFactory
    private let cancellation = ExportCancellation()
    /// Where the run's stage timings go; nil unless given, or made for `options.timingsOutput`.
    private let timings: StageTimings?

    /// `timings`: a collector the stages record their frame times into (`vrender bench`
    /// reads its report afterwards); without one, `options.timingsOutput` gets its own.
    public convenience init(options: ExportOptions, timings: StageTimings? = nil,
                            progress: @escaping @Sendable (ExportProgress) -> Void = { _ in }) {
        self.init(options: options, timings: timings, progress: progress, makeExecutor: { try FilterExecutors.make(for: $0) })
    }

    /// An exporter that runs plans made elsewhere (`run`): a chunk worker's, which plans from
    /// its chunk plan. It measures no timings and has no options to `export`.
    package convenience init(progress: @escaping @Sendable (ExportProgress) -> Void) {
        self.init(options: nil, progress: progress, makeExecutor: { try FilterExecutors.make(for: $0) })
    }

    /// `makeExecutor` builds the filter executor of a transcode (tests inject failing ones).
    init(options: ExportOptions?, timings: StageTimings? = nil, progress: @escaping @Sendable (ExportProgress) -> Void,
         makeExecutor: @escaping TranscodePipeline.ExecutorFactory) {
        self.options = options
        self.reportProgress = progress
        self.makeExecutor = makeExecutor
        self.timings = timings ?? options?.timingsOutput.map { _ in StageTimings(kind: "concat") }
    }

    /// Stops a running export from any thread (Ctrl-C): every stage returns, the temporary
    /// file is deleted, and `run` throws `VRenderError.cancelled`. An export not yet started
    /// stops as soon as it starts.
    public func cancel() {
        cancellation.cancel()
    }

    /// The whole export: `ExportPlanner.plan(_:)`, then `onPlan` with the plan (to show it),
    /// then `run`. First sets FFmpeg's log level for the process from `options.verbose` (the
    /// libraries' warnings on stderr, or silence), so that callers need not touch FFmpeg;
    /// planning and running alone leave it to their caller. Every error it throws is a
    /// `VRenderError`; one that comes up without a subject is reported against the output file.
    public func export(onPlan: (ExportPlan) -> Void = { _ in }) throws -> ExportSummary {
        guard let options else {
            throw VRenderError(.runtime, subject: "Exporter", reason: "this exporter runs plans made elsewhere (init(progress:)); make it with init(options:) to plan and export")
        }
        FFmpegLog.configure(verbose: options.verbose)
        return try VRenderError.attributing(to: options.output, as: .runtime) {
            let start = MonotonicClock.now()
            let plan = try ExportPlanner.plan(options)
            let planSeconds = MonotonicClock.seconds(since: start)
            onPlan(plan)
            var summary = try run(plan)
            summary.planSeconds = planSeconds
            return summary
        }
    }

    /// Runs `job` of `plan` (`PipelineJob`: the whole export unless asked) into `path`: a file
    /// of a chunked export's work folder, replaced if it exists; nil: the plan's output, as
    /// its `writing` allows. The file appears only on success. A whole copy that finds damage
    /// in a take (`CopyDamage`) is thrown away and the export transcoded from the start into
    /// a fresh temporary file, with a warning naming the take and where. `beforeCommit` runs
    /// once the file is written, before it is renamed into place: its error discards it (a
    /// join's check of the takes, which runs while it copies: `TakeRecheck`).
    package func run(_ plan: ExportPlan, job: PipelineJob = .whole, to path: String? = nil,
                     beforeCommit: () throws -> Void = {}) throws -> ExportSummary {
        try job.check(plan, path: path ?? plan.output)
        let output = try outputFile(of: plan, path: path)
        guard case .whole = job else { return try run(plan, job: job, into: output, beforeCommit: beforeCommit) }
        do {
            return try run(plan, job: .whole, into: output)
        } catch let damage as CopyDamage {
            let fallback = try ExportPlanner.transcoding(instead: plan, damage: damage)
            var summary = try run(fallback, job: .whole, into: try outputFile(of: fallback, path: path))
            summary.warnings.insert(damage.fallbackNote, at: 0)
            return summary
        }
    }

    /// The file a run of `plan` writes: `path` (a work folder's, replaced), or the plan's output.
    private func outputFile(of plan: ExportPlan, path: String?) throws -> OutputFile {
        let inputs = plan.takes.map(\.path)
        if let path { return try OutputFile(path: path, inputs: inputs, overwrite: true) }
        return try OutputFile(path: plan.output, inputs: inputs, overwrite: plan.writing.overwrite, folder: plan.writing.folder)
    }

    private func run(_ plan: ExportPlan, job: PipelineJob, into output: OutputFile,
                     beforeCommit: () throws -> Void = {}) throws -> ExportSummary {
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
            try beforeCommit()
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
        if let captions = plan.captions, job.writesOutput {
            // After the output is in place: an export that failed leaves no caption files.
            summary.captions = CaptionSummary(cues: captions.cues.count, language: captions.language,
                                              files: try CaptionFiles.write(plan), track: plan.side.carriesCaptions,
                                              burned: captions.outputs.contains(.burn))
        }
        return summary
    }

    /// Stops the timings' clocks, notes what the export was made with, and writes the report
    /// to the plan's `--timings` file when asked (atomically). Frames in: video packets read.
    private func finishTimings(_ summary: ExportSummary, plan: ExportPlan) throws {
        guard let timings else { return }
        timings.finish(framesIn: timings.frames(of: ExportTimers.Stage.demux), framesOut: summary.frames,
                       mediaSeconds: summary.duration)
        let settings = [
            "inputs": summary.inputs.joined(separator: " "), "output": summary.output, "mode": summary.mode,
            "size": "\(summary.width)x\(summary.height)", "fps": summary.frameRate,
            "videoCodec": summary.videoCodec, "audioCodec": summary.audioCodec ?? "none",
            "filter": summary.filters.joined(separator: ","), "filterBackend": summary.filterBackend ?? "none",
            "preset": plan.mode == .transcode ? plan.encoding.preset : "none",
            "crf": plan.mode == .transcode ? plan.encoding.crf.map(String.init) ?? "default" : "none",
        ]
        for (key, value) in settings { timings.setting(key, value) }
        if let path = plan.writing.timingsOutput { try timings.report().write(to: path) }
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
            let pipeline = TranscodePipeline(plan: plan, progress: progress, damage: damage,
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
        let pipeline = TranscodePipeline(plan: plan, job: job, progress: progress, damage: damage,
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
            filters: plan.encoding.filter.names, filterBackend: plan.encoding.filter.isIdentity ? nil : filterBackend,
            duration: duration, frames: frames, bytes: 0,
            wallSeconds: 0, damagedFrames: [:], warnings: [], notices: plan.notices,
            colour: plan.mode == .transcode ? plan.colour.output.description : nil,
            rotation: plan.rotation == .uprightPixels ? 0 : plan.uprightRotationDegrees,
            audioTracks: plan.audio.trackCount, loudness: plan.loudness,
            transition: plan.transition)
        if plan.takes.contains(where: { $0.trim != nil }) { summary.trims = plan.takes.map(\.trim) }
        if let smart = plan.smartRender {
            summary.mode = "smart-render"
            summary.smartSpans = smart.spans
        }
        summary.takes = plan.takeCount
        if plan.takeCount < plan.takes.count { summary.inputTakes = plan.takeNumbers }
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
