import Foundation
import VRenderCore
import VRenderFilters
import VRenderMedia
import VRenderRecording

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
            try FilterExecutors.make(chain: options.filter, choice: options.gpu, threads: options.filterThreads,
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
            let plan = try prepare()
            onPlan(plan)
            return try run(plan)
        }
    }

    /// Everything before writing: the output is checked first (a missing folder or an existing
    /// file is reported before any input is read), then inputs are resolved, probed and planned.
    /// The plan's notices begin with how takes folders were read.
    public func prepare() throws -> ExportPlan {
        _ = try OutputFile(path: options.output, inputs: options.inputs, overwrite: options.overwrite)
        try checkTimingsOutput()
        let probed = try probeInputs()
        var plan = try ExportPlanner.plan(takes: probed.takes, options: options)
        plan.notices = probed.notices + plan.notices
        if let request = options.prompter {
            let prompter = PrompterPlan.make(request: request, plan: plan)
            plan.prompter = prompter.plan
            plan.notices += prompter.notices
        }
        return plan
    }

    /// Inputs as files: a takes folder becomes its takes in recording order. Notices say how
    /// a folder was read.
    public func resolveInputs() throws -> (paths: [String], notices: [String]) {
        var paths: [String] = []
        var notices: [String] = []
        for input in options.inputs {
            guard let status = FileNames.status(input), status.st_mode & S_IFMT == S_IFDIR else {
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
    private func probeInputs() throws -> (takes: [MediaInfo], notices: [String]) {
        let inputs = try resolveInputs()
        return (try inputs.paths.map { try Probe.probe($0) }, inputs.notices)
    }

    /// Executes `plan`. The output appears only on success.
    public func run(_ plan: ExportPlan) throws -> ExportSummary {
        let output = try OutputFile(path: plan.output, inputs: plan.takes.map(\.path), overwrite: options.overwrite)
        let start = DispatchTime.now()
        let progress = ProgressThrottle(total: plan.timeline.totalSlots, frameRate: plan.frameRate.doubleValue,
                                        report: reportProgress)
        let damage = DamageLog()
        timings?.start()
        var summary: ExportSummary
        do {
            summary = try write(plan, to: output, progress: progress, damage: damage)
            if cancellation.isCancelled { throw VRenderError.cancelled }
            try output.commit()
        } catch {
            output.discard()
            throw output.explainFailure(error)
        }
        summary.bytes = output.size
        summary.wallSeconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        summary.damagedFrames = damage.damaged
        summary.warnings = damage.warnings
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
    private func write(_ plan: ExportPlan, to output: OutputFile, progress: ProgressThrottle,
                       damage: DamageLog) throws -> ExportSummary {
        switch plan.mode {
        case .streamCopy:
            let copied = try StreamCopy(plan: plan, output: output, cancellation: cancellation, progress: progress,
                                        timings: timings).run()
            return makeSummary(plan, output: output, frames: copied.frames, duration: copied.duration,
                               videoCodec: plan.takes[0].video.codecName, audioCodec: plan.takes[0].audio?.codecName,
                               filterBackend: nil)
        case .copyVideo, .transcode:
            let pipeline = TranscodePipeline(plan: plan, options: options, progress: progress, damage: damage,
                                             timings: timings, makeExecutor: makeExecutor)
            let result = try cancellation.run(stoppingWith: pipeline.stopAction) { try pipeline.run(into: output) }
            return makeSummary(plan, output: output, frames: plan.timeline.totalSlots, duration: plan.timeline.duration,
                               videoCodec: result.videoCodec, audioCodec: result.audioCodec,
                               filterBackend: result.filterBackend)
        }
    }

    private func makeSummary(_ plan: ExportPlan, output: OutputFile, frames: Int, duration: Double,
                             videoCodec: String, audioCodec: String?, filterBackend: String?) -> ExportSummary {
        let upright = plan.uprightCanvas
        return ExportSummary(
            output: output.path, mode: plan.mode.summaryName,
            reason: plan.reason, inputs: plan.takes.map(\.path),
            width: upright.width, height: upright.height, frameRate: plan.frameRate.description,
            videoCodec: videoCodec, audioCodec: plan.hasAudio ? audioCodec : nil,
            filters: options.filter.names, filterBackend: options.filter.isIdentity ? nil : filterBackend,
            duration: duration, frames: frames, bytes: 0,
            wallSeconds: 0, damagedFrames: [:], warnings: [], notices: plan.notices,
            colour: plan.mode == .transcode ? plan.colour.output.description : nil,
            rotation: plan.rotation == .uprightPixels ? 0 : plan.uprightRotationDegrees,
            audioTracks: plan.audio.trackCount)
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
