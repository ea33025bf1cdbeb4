import Foundation
import VRenderCore
import VRenderExport
import VRenderFilters
import VRenderMedia

/// What `vrender bench filter` measures.
package struct FilterBenchRequest: Sendable {
    package var filter: FilterChain
    /// Where the filter runs (`FilterExecutors`' choice, as in an export).
    package var backend: FilterBackendChoice
    /// The pictures' size; nil: 1920x1080, or the input's upright size.
    package var size: (width: Int, height: Int)?
    /// Pictures to filter (fewer when the input ends first).
    package var frames: Int
    /// A video whose decoded frames are filtered; nil filters a synthetic picture.
    package var input: String?
    /// Processors the CPU kernels may use (`--threads`), as an export given that share would.
    package var threads: ThreadBudget

    package init(filter: FilterChain, backend: FilterBackendChoice = .auto, size: (width: Int, height: Int)? = nil,
                frames: Int = 100, input: String? = nil, threads: ThreadBudget = .machine) {
        self.filter = filter
        self.backend = backend
        self.size = size
        self.frames = frames
        self.input = input
        self.threads = threads
    }
}

/// `vrender bench filter`: runs the filter executor an export would use on pictures of one
/// size, and copies each picture with `memcpy` in the same run, so the filter's speed comes with
/// a baseline measured on the same machine at the same moment: the filter's frames per second
/// divided by memcpy's (`TimingReport.baseline`). Both run out of place, from the picture into
/// another of the same size, as the export's filter does.
///
/// One thread: decode (an input's frames), normalize (to the bench's size and format), filter,
/// memcpy, frame after frame. The first picture is filtered and copied untimed for a quarter
/// of a second first: a GPU pipeline's compile, the caches, the clock a core ramps up to
/// (without it the first tens of frames of a short run cost twice the rest).
package enum FilterBench {
    package static func run(_ request: FilterBenchRequest, files: BenchFiles) throws -> TimingReport {
        try files.check()
        let timings = StageTimings(kind: "filter")
        let source = try request.input.map { try InputFrames(path: $0, size: request.size, timings: timings) }
        let size = source?.size ?? request.size ?? (1920, 1080)
        let filterTimer = timings.timer("filter")
        let copyTimer = timings.timer("memcpy")
        timings.compare("filter", with: "memcpy")
        let executor = try FilterExecutors.make(chain: request.filter, choice: request.backend,
                                                threads: request.threads.pictureBands,
                                                width: size.width, height: size.height)
        let output = try Frame.picture(width: size.width, height: size.height)
        try output.makeWritable()

        func measure(_ picture: Frame) throws {
            let from = picture.yuvImage(), to = output.yuvImage()
            try filterTimer.measureFrame { try executor.run(source: from, destination: to) }
            copyTimer.measureFrame { PictureCopy.copy(from, to) }
        }
        var warmedUp = false
        func warmUp(_ picture: Frame) throws {
            guard !warmedUp else { return }
            let start = MonotonicClock.now()
            repeat {
                try executor.run(source: picture.yuvImage(), destination: output.yuvImage())
                PictureCopy.copy(picture.yuvImage(), output.yuvImage())
            } while MonotonicClock.seconds(since: start) < 0.25
            warmedUp = true
        }

        timings.start()
        let framesIn: Int
        if let source {
            framesIn = try source.forEach(limit: request.frames) { picture in
                try warmUp(picture)
                try measure(picture)
            }
        } else {
            let picture = try SyntheticPicture.make(width: size.width, height: size.height)
            try warmUp(picture)
            for _ in 0..<request.frames { try measure(picture) }
            framesIn = request.frames
        }
        timings.finish(framesIn: framesIn, framesOut: filterTimer.count, mediaSeconds: nil)
        timings.setting("filter", request.filter.specification)
        timings.setting("filterBackend", executor.backendName)
        timings.setting("threads", "\(request.threads.pictureBands)")
        if let cpu = executor as? CPUFilterExecutor { timings.setting("bands", "\(cpu.bands) (the faster in its trial)") }
        timings.setting("rowKernels", RowInstructions.detected.rawValue)
        timings.setting("size", "\(size.width)x\(size.height)")
        timings.setting("input", request.input ?? "synthetic picture")
        let report = timings.report()
        try files.write(report)
        return report
    }
}

/// The baseline: a plain copy of a picture's three planes (`memcpy`, one per row unless both
/// pictures are laid out alike, then one per plane).
enum PictureCopy {
    static func copy(_ source: YUVImage, _ destination: YUVImage) {
        copy(source.luma, destination.luma)
        copy(source.cb, destination.cb)
        copy(source.cr, destination.cr)
    }

    private static func copy(_ source: PlaneView, _ destination: PlaneView) {
        let rowBytes = Swift.min(source.width, destination.width)
        let rows = Swift.min(source.height, destination.height)
        if source.stride == destination.stride {
            memcpy(destination.base, source.base, source.stride * (rows - 1) + rowBytes)
            return
        }
        for row in 0..<rows { memcpy(destination.row(row), source.row(row), rowBytes) }
    }
}
