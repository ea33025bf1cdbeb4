import Foundation
import Testing
import VRenderCapture
import VRenderCore
import VRenderFilters
import VRenderRecording
import VRenderTakes
import VRenderTestSupport
@testable import VRenderBench

/// `vrender bench capture` and `vrender bench filter` through their library entry points.
@Suite struct CaptureAndFilterBenchTests {
    let scratch = ScratchFolder()

    func captureOptions(frames: Int, realtime: Bool = false) -> CaptureOptions {
        let plan = RecordingPlan(outputDirectory: "unused", takes: 1, duration: Double(frames) / 30, codec: .h264)
        return CaptureOptions(device: "synthetic:seed=1", request: CaptureRequest(size: (160, 120), realtime: realtime),
                              plan: plan)
    }

    @Test func captureCountsFramesAndDropsAtEveryStage() throws {
        let bench = CaptureBench(options: captureOptions(frames: 12), folder: nil, files: BenchFiles())
        let report = try bench.run()
        #expect(report.kind == "capture")
        #expect(report.framesIn == 12)
        #expect(report.framesOut == 12)
        #expect(report.drops == 0, "batch capture waits for the writer instead of dropping")
        #expect(report.stages.map(\.name) == ["capture", "ring wait", "encode", "write"])
        #expect(report.stages.map(\.frames) == [12, 12, 12, 12])
        #expect(report.stage("ring wait")?.measures == .wait)
        let ring = try #require(report.queues.first)
        #expect(ring.name == "ring")
        #expect(ring.samples == 12, "one slot asked for per frame")
        #expect(report.settings["videoCodec"] == "libx264")
        #expect(report.settings["output"] == "a temporary folder, removed")
    }

    @Test func aLiveSourceIsWaitedForNotWorkedOn() throws {
        // Paced to the clock, capture mostly waits for each frame's time: not the bottleneck.
        let report = try CaptureBench(options: captureOptions(frames: 3, realtime: true), folder: nil, files: BenchFiles()).run()
        #expect(report.stage("capture")?.measures == .wait)
        #expect(report.stage("capture")?.frames == 3)
        #expect(report.stage("encode")?.measures == .work)
    }

    @Test func captureKeepsItsTakesWhereAsked() throws {
        let folder = scratch.path + "/takes"
        let report = try CaptureBench(options: captureOptions(frames: 3), folder: folder, files: BenchFiles()).run()
        #expect(report.framesOut == 3)
        let manifest = try TakesManifest.load(from: folder)
        #expect(manifest.takes.map(\.frames) == [3])
    }

    @Test func filterRunsAgainstMemcpyOnASyntheticPicture() throws {
        let request = FilterBenchRequest(filter: try FilterRegistry.chain("mono"), backend: .cpu, size: (64, 48), frames: 5)
        let report = try FilterBench.run(request, files: BenchFiles(json: scratch.path + "/f.json"))
        #expect(report.stages.map(\.name) == ["filter", "memcpy"])
        #expect(report.stages.map(\.frames) == [5, 5])
        #expect(report.framesIn == 5 && report.framesOut == 5)
        #expect(report.mediaSeconds == nil)
        let baseline = try #require(report.baseline)
        #expect(baseline.stage == "filter" && baseline.baseline == "memcpy")
        #expect(baseline.ratio > 0)
        #expect(report.settings["size"] == "64x48")
        #expect(report.settings["filterBackend"] == "cpu")
        #expect(report.settings["rowKernels"] == RowInstructions.detected.rawValue)
        #expect(FileManager.default.fileExists(atPath: scratch.path + "/f.json"))
    }

    @Test func filterDecodesAnInputAndStopsAtItsEnd() throws {
        // small_a.mov: 30 frames of 320x240 4:2:0, asked for more than it has; at its own size
        // its frames need no normalizing, as in an export.
        let request = FilterBenchRequest(filter: try FilterRegistry.chain("sepia"), backend: .cpu, frames: 100,
                                         input: TestMedia.path("small_a.mov"))
        let report = try FilterBench.run(request, files: BenchFiles())
        #expect(report.stages.map(\.name) == ["decode", "normalize", "filter", "memcpy"])
        #expect(report.stages.map(\.frames) == [30, 0, 30, 30])
        #expect(report.settings["size"] == "320x240")

        let limited = FilterBenchRequest(filter: try FilterRegistry.chain("mono"), backend: .cpu, size: (160, 120), frames: 7,
                                         input: TestMedia.path("small_a.mov"))
        #expect(try FilterBench.run(limited, files: BenchFiles()).stages.map(\.frames) == [7, 7, 7, 7])
    }

    @Test func filterNamesAMissingInput() {
        let missing = scratch.path + "/missing.mov"
        let request = FilterBenchRequest(filter: FilterChain([]), backend: .cpu, frames: 1, input: missing)
        #expect(throws: VRenderError.input(missing, "no such file")) { _ = try FilterBench.run(request, files: BenchFiles()) }
    }
}
