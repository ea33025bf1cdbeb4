import Foundation
import Testing
import VRenderCapture
import VRenderCore
import VRenderDemo
import VRenderExport
import VRenderFilters
import VRenderRecording
import VRenderTestSupport
import VRenderVerify

/// The demo's export, with every filter and two chains, against the goldens in
/// testdata/golden/: losslessly (FFV1) against an exact golden, and with the default codec
/// (lossy HEVC) against a lossy one. `VRENDER_GOLDEN_UPDATE=1 make test` (or
/// `make golden-update`) rewrites them and still fails, so a rewrite is always reviewed.
enum DemoGoldens {
    /// Small, so the goldens stay small.
    static let size = (width: 192, height: 108)
    static let folder = TestMedia.repositoryRoot + "/testdata/golden"
    static let updating = ProcessInfo.processInfo.environment["VRENDER_GOLDEN_UPDATE"] == "1"
    /// What a lossy golden holds its reference frames to. Measured on these exports' reference
    /// frames (0, 135, 269): x265 at other thread counts gives the same bytes; x265 making other
    /// decisions (no WPP) stays at 35.8 dB or more, the lossless export at 33.8 dB or more,
    /// x264 at 32.6 dB or more; the wrong filter scores 31.8 dB at best (chrome for process),
    /// 27.7 dB or less for every other pair. Exact goldens catch every changed bit.
    static let lossyTolerance = GoldenTolerance.psnr(33)

    /// One export and its golden.
    struct Variant: Sendable, CustomTestStringConvertible {
        var filter: String
        var exact: Bool
        var name: String { filter.replacingOccurrences(of: ",", with: "+") + (exact ? "-exact" : "-lossy") }
        var golden: String { DemoGoldens.folder + "/" + name }
        var testDescription: String { name }
    }

    static let filters = FilterRegistry.names + ["sepia,chrome", "tonal,fade"]
    static let variants = filters.flatMap { [Variant(filter: $0, exact: true), Variant(filter: $0, exact: false)] }

    /// Three takes of the demo script from `synthetic:seed=1`, recorded once per run (into a
    /// scratch folder, as the CLI tests' fixture) in FFV1, so their decoded frames are the same
    /// bytes on any machine.
    static let takes: String = {
        let takes = TestMedia.scratchDirectory() + "/takes"
        let plan = RecordingPlan(outputDirectory: takes, takes: DemoJob.takes, codec: .ffv1,
                                 script: try! ActionScript(text: DemoJob.script, source: "demo script"))
        let options = CaptureOptions(device: DemoJob.device, request: CaptureRequest(size: size), plan: plan)
        let recorded = try! CaptureJob(options: options).run()
        precondition(recorded.count == DemoJob.takes, "recorded \(recorded.count) takes")
        return takes
    }()

    /// Exports the takes with `variant`'s filter into `directory`: FFV1 in .mkv for an exact
    /// golden, the default codec in .mov for a lossy one.
    static func export(_ variant: Variant, gpu: FilterBackendChoice = .cpu, to directory: String) throws -> String {
        let output = directory + "/" + variant.name + (gpu == .cpu ? "" : "-" + gpu.rawValue) + (variant.exact ? ".mkv" : ".mov")
        let options = ExportOptions(inputs: [takes], output: output, filter: try FilterRegistry.chain(variant.filter),
                                    codec: .encode(variant.exact ? .ffv1 : .auto), overwrite: true, gpu: gpu)
        _ = try Exporter(options: options).export()
        return output
    }

    /// Exact goldens keep one reference frame (to show where a hash mismatch is); lossy ones
    /// three, which the tolerance is checked on.
    static func record(_ video: String, as variant: Variant) throws {
        let options = GoldenRecordOptions(video: video, golden: variant.golden,
                                          frames: variant.exact ? .list([.middle]) : .standard,
                                          tolerance: variant.exact ? nil : lossyTolerance)
        _ = try GoldenRecorder(options: options).record()
    }

    static func check(_ video: String, against variant: Variant, threads: Int = 1) throws -> GoldenCheckReport {
        try GoldenChecker(options: GoldenCheckOptions(video: video, golden: variant.golden, threads: threads)).check()
    }

    /// Records an issue saying what differs (the first rows of what `golden check` prints)
    /// unless the check passed.
    static func expectPassed(_ report: GoldenCheckReport, _ context: String = "", sourceLocation: SourceLocation = #_sourceLocation) {
        guard !report.passed else { return }
        let rows = report.differences.prefix(8).map {
            "frame \($0.frame.map(String.init) ?? "-") \($0.what): expected \($0.expected), got \($0.got)"
        }
        let more = report.differences.count > 8 ? ["... and \(report.differences.count - 8) more"] : []
        Issue.record(Comment(rawValue: ([context + report.video + " " + report.failure] + rows + more).joined(separator: "\n")),
                     sourceLocation: sourceLocation)
    }
}

/// True when a Vulkan device exists (lavapipe at least).
private let hasVulkan = FilterExecutors.describe(.vulkan) != "vulkan: no device"

@Suite struct DemoGoldenTests {
    let scratch = ScratchFolder()

    @Test(arguments: DemoGoldens.variants)
    func demoExportMatchesItsGolden(_ variant: DemoGoldens.Variant) throws {
        let video = try DemoGoldens.export(variant, to: scratch.path)
        if DemoGoldens.updating {
            try DemoGoldens.record(video, as: variant)
            Issue.record("testdata/golden/\(variant.name) was rewritten (VRENDER_GOLDEN_UPDATE=1): review it (git diff) and commit it")
            return
        }
        DemoGoldens.expectPassed(try DemoGoldens.check(video, against: variant))
    }

    /// FATE's rule: the same references pass at 1 and N decoder threads.
    @Test(.enabled(if: !DemoGoldens.updating, "checks the goldens the update is rewriting"))
    func goldensPassAtDecoderThreadsOneAndTwo() throws {
        let variant = DemoGoldens.Variant(filter: "mono", exact: true)
        let video = try DemoGoldens.export(variant, to: scratch.path)
        for threads in [1, 2] {
            DemoGoldens.expectPassed(try DemoGoldens.check(video, against: variant, threads: threads), "threads \(threads): ")
        }
    }

    /// The GPU gives the CPU's bytes, so its export passes the same exact golden.
    @Test(.enabled(if: hasVulkan && !DemoGoldens.updating, "needs a Vulkan device (mesa-vulkan-drivers provides lavapipe)"))
    func vulkanExportMatchesTheExactGolden() throws {
        let variant = DemoGoldens.Variant(filter: "sepia,chrome", exact: true)
        let video = try DemoGoldens.export(variant, gpu: .vulkan, to: scratch.path)
        DemoGoldens.expectPassed(try DemoGoldens.check(video, against: variant))
    }
}
