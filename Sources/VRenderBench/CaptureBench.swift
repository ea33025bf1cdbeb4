import Foundation
import VRenderCapture
import VRenderCore
import VRenderMedia
import VRenderRecording
import VRenderTakes

/// `vrender bench capture`: records through the real recording pipeline (`CaptureJob`: the
/// camera, the frame ring, the writer thread's encoder and muxer) with stage timings on. The
/// synthetic camera runs in batch mode unless `realtime` is asked, so the run measures how fast
/// capture can go rather than waiting for the clock. Without a folder of the user's, takes go
/// to a temporary folder removed afterwards.
///
/// `cancel()` may be called from any thread (Ctrl-C): the take in progress is finished and
/// measured. `run` from one thread.
package final class CaptureBench: Sendable {
    private let job: CaptureJob
    private let timings = StageTimings(kind: "capture")
    /// The temporary takes folder to remove afterwards; nil when the user named one.
    private let temporaryFolder: String?
    private let files: BenchFiles

    /// `folder`: where the takes go; nil records into a temporary folder removed afterwards
    /// (`options.plan.outputDirectory` is then ignored).
    package init(options: CaptureOptions, folder: String?, files: BenchFiles) {
        var options = options
        temporaryFolder = folder == nil ? NSTemporaryDirectory() + "vrender-bench-takes-\(UUID().uuidString)" : nil
        options.plan.outputDirectory = folder ?? temporaryFolder!
        self.files = files
        job = CaptureJob(options: options, timings: timings)
    }

    /// `vrender bench capture`'s one take from `device`: `frames` frames at `request`'s rate, else
    /// `seconds` long, else 5 s, encoded with `codec`.
    package convenience init(device: String, request: CaptureRequest, frames: Int? = nil, seconds: Double? = nil,
                            codec: VideoCodecChoice = .auto, folder: String?, files: BenchFiles) {
        let duration = frames.map { Double($0) / request.frameRate.doubleValue } ?? seconds ?? 5
        let plan = RecordingPlan(outputDirectory: folder ?? "", takes: 1, duration: duration, codec: codec)
        self.init(options: CaptureOptions(device: device, request: request, plan: plan), folder: folder, files: files)
    }

    package func cancel() { job.requestStop() }

    /// Records, then writes the report where `files` asks. Frames in: frames the camera
    /// delivered; out: frames written into takes; drops: frames the ring dropped or the device
    /// skipped.
    package func run(events: @escaping @Sendable (RecorderEvent) -> Void = { _ in }) throws -> TimingReport {
        try files.check()
        defer { if let temporaryFolder { try? FileManager.default.removeItem(atPath: temporaryFolder) } }
        timings.start()
        let takes = try job.run(events: events)
        timings.addDrops(takes.reduce(0) { $0 + $1.dropped })
        timings.finish(framesIn: timings.frames(of: "capture"), framesOut: takes.reduce(0) { $0 + $1.frames },
                       mediaSeconds: takes.reduce(0) { $0 + $1.duration })
        record(takes)
        let report = timings.report()
        try files.write(report)
        return report
    }

    private func record(_ takes: [TakeEntry]) {
        let options = job.options
        timings.setting("device", options.device)
        timings.setting("takes", "\(takes.count)")
        timings.setting("output", temporaryFolder == nil ? options.plan.outputDirectory : "a temporary folder, removed")
        timings.setting("realtime", options.request.realtime ? "yes" : "no (batch: as fast as the pipeline goes)")
        if let take = takes.first {
            timings.setting("size", "\(take.width)x\(take.height)")
            timings.setting("fps", take.fps)
            timings.setting("videoCodec", take.codec)
        }
    }
}
