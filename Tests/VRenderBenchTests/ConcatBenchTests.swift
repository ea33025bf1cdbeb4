import Foundation
import Testing
import VRenderCore
import VRenderExport
import VRenderFilters
import VRenderTestSupport
@testable import VRenderBench

/// `vrender bench concat` through its library entry point, on two 1 s takes (30 frames each):
/// what is counted, what is written, and that measuring changes nothing in the export.
@Suite struct ConcatBenchTests {
    let scratch = ScratchFolder()

    /// Scaled (so normalize runs) and filtered (so filter runs): every stage of a transcode.
    func options(codec: ExportOptions.CodecRequest = .encode(.h264)) throws -> ExportOptions {
        ExportOptions(inputs: ["small_a.mov", "small_b.mov"].map(TestMedia.path), output: "unused.mov",
                      filter: try FilterRegistry.chain("mono"), codec: codec, preset: "ultrafast",
                      size: (160, 120), gpu: .cpu)
    }

    @Test func transcodeCountsEveryFrameAtEveryStageAndRemovesItsOutput() throws {
        let files = BenchFiles(json: scratch.path + "/t.json", plot: scratch.path + "/t.svg")
        let result = try ConcatBench(options: try options(), output: nil, files: files).run()
        let report = result.report
        #expect(report.kind == "concat")
        #expect(report.framesIn == 60)
        #expect(report.framesOut == 60)
        #expect(report.mediaSeconds == 2)
        #expect(report.drops == 0)
        #expect(report.stages.map(\.name) == ["demux", "decode", "normalize", "filter", "encode", "mux", "audio"])
        for stage in report.stages where stage.name != "audio" {
            #expect(stage.frames == 60, "\(stage.name)")
            #expect(stage.frameMs.count == 60)
            #expect(stage.p50Ms <= stage.p95Ms && stage.p95Ms <= stage.p99Ms && stage.p99Ms <= stage.maxMs)
        }
        #expect((report.stage("audio")?.frames ?? 0) > 0)
        #expect(report.queues.map(\.name) == ["video packets", "decoded", "to encode", "to mux", "audio packets"])
        #expect(report.queues.first { $0.name == "to encode" }?.samples == 60, "one push per picture")
        #expect(report.settings["filter"] == "mono")
        #expect(report.settings["filterBackend"] == "cpu")
        #expect(report.settings["rowKernels"] == RowInstructions.detected.rawValue)
        #expect(report.settings["mode"] == "transcode")
        #expect(result.outputRemoved)
        #expect(!FileManager.default.fileExists(atPath: result.summary.output))

        let written = try JSONDecoder().decode(TimingReport.self, from: Data(contentsOf: URL(fileURLWithPath: files.json!)))
        #expect(written == report)
        let plot = try #require(SVGInspection.parse(try Data(contentsOf: URL(fileURLWithPath: files.plot!))))
        #expect(Set(plot.seriesStages) == Set(report.stages.map(\.name)))
        #expect(plot.seriesStages.count == report.stages.count)
    }

    @Test func measuringChangesNothingInTheExport() throws {
        // Lossless video, so equal pictures mean equal decoded frames, bit for bit.
        var plain = try options(codec: .encode(.ffv1))
        plain.output = scratch.path + "/plain.mkv"
        _ = try Exporter(options: plain).export()
        var timed = plain
        timed.output = scratch.path + "/timed.mkv"
        timed.timingsOutput = scratch.path + "/timings.json"
        let summary = try Exporter(options: timed).export()
        #expect(pictureHashes(plain.output).count == 60)
        #expect(pictureHashes(plain.output) == pictureHashes(timed.output))
        let report = try JSONDecoder().decode(TimingReport.self,
                                              from: Data(contentsOf: URL(fileURLWithPath: timed.timingsOutput!)))
        #expect(report.framesOut == summary.frames)
        #expect(report.stage("encode")?.frames == 60)
    }

    @Test func streamCopyTimesDemuxAndMuxOnly() throws {
        let copy = ExportOptions(inputs: ["small_a.mov", "small_b.mov"].map(TestMedia.path), output: "unused.mov", codec: .copy)
        let output = scratch.path + "/copy.mov"
        let result = try ConcatBench(options: copy, output: output, files: BenchFiles()).run()
        #expect(result.summary.mode == "stream-copy")
        #expect(result.report.stages.map(\.name) == ["demux", "mux"])
        #expect(result.report.stages.map(\.frames) == [60, 60])
        #expect(result.report.queues.isEmpty)
        #expect(!result.outputRemoved)
        #expect(FileManager.default.fileExists(atPath: output), "-o keeps the export")
    }

    @Test func reportFilesAreCheckedBeforeTheRun() throws {
        let files = BenchFiles(json: scratch.path + "/missing/t.json")
        #expect(throws: VRenderError.output(scratch.path + "/missing/t.json", "directory \(scratch.path)/missing does not exist")) {
            _ = try ConcatBench(options: try options(), output: scratch.path + "/x.mov", files: files).run()
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.path + "/x.mov"))
    }

    /// Hash of every decoded picture of `file`, in order.
    func pictureHashes(_ file: String) -> [String] {
        let run = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-i", file, "-map", "0:v", "-f", "framemd5", "-"])
        return run.standardOutput.split(separator: "\n").filter { !$0.hasPrefix("#") }
            .compactMap { $0.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) } }
    }
}
