import Foundation
import Synchronization
import Testing
import VRenderCore
import VRenderFilters
import VRenderMedia
import VRenderTestSupport
@testable import VRenderExport

/// End-to-end exports of small takes, judged by ffprobe/ffmpeg (an independent decoder).
@Suite struct ExportTests {
    let directory = TestMedia.scratchDirectory()

    private func export(_ inputs: [String], _ output: String = "out.mov", filter: String = "none",
                        codec: ExportOptions.CodecRequest = .encode(.h264), overwrite: Bool = false,
                        progress: @escaping @Sendable (ExportProgress) -> Void = { _ in },
                        configure: (Exporter) -> Void = { _ in }) throws -> (ExportSummary, String) {
        let path = directory + "/" + output
        let options = ExportOptions(inputs: inputs.map(TestMedia.path), output: path, filter: try FilterRegistry.chain(filter),
                                    codec: codec, preset: codec == .copy || codec == .auto ? nil : "ultrafast",
                                    overwrite: overwrite)
        let exporter = Exporter(options: options, progress: progress)
        configure(exporter)
        var plans: [ExportPlan] = []
        let summary = try exporter.export { plans.append($0) }
        #expect(plans.count == 1 && plans.first?.output == summary.output)
        return (summary, path)
    }

    private func seconds(_ file: String, _ stream: String) -> Double {
        Double(ProgramRun.ffprobe(file, stream: stream, entries: "stream=duration")) ?? -1
    }

    @Test func streamCopyJoinsTakesWithoutGaps() throws {
        let (summary, path) = try export(["small_a.mov", "small_b.mov"], codec: .auto)
        #expect(summary.mode == "stream-copy")
        #expect(ProgramRun.ffprobe(path, stream: "v", entries: "stream=nb_read_frames", countFrames: true) == "60")
        #expect(abs(seconds(path, "v") - 2.0) < 0.001)
        #expect(abs(seconds(path, "a") - 2.0) < 0.05)
        #expect(ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-i", path, "-f", "null", "-"]).standardError.isEmpty)
    }

    @Test func transcodeFillsSilenceAndKeepsAudioAsLongAsVideo() throws {
        // late_audio.mov: 2 s video whose audio starts at 0.5 s; mjpeg_422_full.mkv: 1 s, 15 fps,
        // full-range 4:2:2, no audio.
        let (summary, path) = try export(["late_audio.mov", "mjpeg_422_full.mkv"], filter: "mono")
        #expect(summary.mode == "transcode")
        #expect(summary.frames == 90)
        #expect(ProgramRun.ffprobe(path, stream: "v", entries: "stream=nb_read_frames", countFrames: true) == "90")
        #expect(abs(seconds(path, "v") - 3.0) < 1.0 / 30)
        #expect(abs(seconds(path, "a") - seconds(path, "v")) < 0.05)
        // The first 0.4 s (before the late audio) and the last take (no audio) are silent.
        #expect(maxVolume(path, from: 0, to: 0.4) < -80)
        #expect(maxVolume(path, from: 2.1, to: 2.9) < -80)
        #expect(maxVolume(path, from: 0.7, to: 1.5) > -30)
    }

    @Test func monoLeavesNoColour() throws {
        let (_, path) = try export(["small_a.mov", "hevc_640x480_25_aac44k_mono.mp4"], filter: "mono")
        let stats = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-i", path, "-vf", "signalstats,metadata=print:file=-",
                                                      "-f", "null", "-"]).standardOutput
        let chroma = stats.split(separator: "\n").filter { $0.contains("UAVG") || $0.contains("VAVG") }
            .compactMap { $0.split(separator: "=").last.flatMap { Double($0) } }
        #expect(chroma.count == 2 * 90)
        #expect(chroma.allSatisfy { abs($0 - 128) <= 1.5 })
    }

    @Test func mixedRotationTurnsThePortraitTakeUpright() throws {
        // Canvas from the first (portrait) take: 720x1280. Compare with ffmpeg's own autorotation.
        let (summary, path) = try export(["portrait_rot90.mov", "small_a.mov"])
        #expect(summary.width == 720 && summary.height == 1280)
        #expect(ProgramRun.ffprobe(path, stream: "v", entries: "stream_side_data=rotation").isEmpty)
        let psnr = ProgramRun.run("/usr/bin/ffmpeg", [
            "-v", "info", "-i", path, "-i", TestMedia.path("portrait_rot90.mov"), "-lavfi",
            "[0:v]trim=end_frame=30,setpts=PTS-STARTPTS[a];[1:v]trim=end_frame=30,setpts=PTS-STARTPTS[b];[a][b]psnr",
            "-f", "null", "-"]).standardError
        let average = psnr.split(separator: " ").first { $0.hasPrefix("average:") }.flatMap { Double($0.dropFirst(8)) }
        #expect((average ?? 0) > 30, "PSNR against ffmpeg's upright picture: \(String(describing: average))")
    }

    @Test func uniformRotationIsKeptAsMetadata() throws {
        let (summary, path) = try export(["portrait_rot90.mov", "portrait_rot90.mov"], filter: "mono")
        #expect(summary.width == 720 && summary.height == 1280)
        #expect(ProgramRun.ffprobe(path, stream: "v", entries: "stream=width") == "1280")
        let rotation = ProgramRun.ffprobe(path, stream: "v", entries: "stream_side_data=rotation")
        #expect(rotation == "90" || rotation == "-90")
    }

    @Test func damagedDataIsCountedNotFatal() throws {
        let (summary, path) = try export(["damaged_middle.mov"])
        #expect((summary.damagedFrames[TestMedia.path("damaged_middle.mov")] ?? 0) > 0)
        #expect(abs(seconds(path, "v") - 2.0) < 1.0 / 30)
    }

    @Test func neverOverwritesWithoutPermissionAndNeverTouchesTakes() throws {
        let input = TestMedia.path("small_a.mov")
        let before = FileManager.default.contents(atPath: input)
        _ = try export(["small_a.mov"], "same.mov")
        #expect(throws: VRenderError.output(directory + "/same.mov", "already exists (use --overwrite to replace it)")) {
            try export(["small_a.mov"], "same.mov")
        }
        _ = try export(["small_a.mov"], "same.mov", overwrite: true)
        #expect(FileManager.default.contents(atPath: input) == before)
        #expect(TestMedia.files(in: directory, containing: "vrender-partial").isEmpty)
    }

    @Test func refusesToWriteOverAnInput() throws {
        let inputs = [TestMedia.path("small_a.mov")]
        #expect(throws: VRenderError.self) {
            _ = try OutputFile(path: inputs[0], inputs: inputs, overwrite: true)
        }
    }

    @Test(arguments: [ExportOptions.CodecRequest.encode(.h264), .auto])
    func cancellingMidwayLeavesNothingBehind(codec: ExportOptions.CodecRequest) throws {
        // The exporter is cancelled from its own first progress report, as Ctrl-C would do.
        let box = ExporterBox()
        // The box holds the exporter, whose progress closure holds the box: break the cycle
        // (LeakSanitizer reports it, scripts/sanitize.sh address).
        defer { box.exporter.withLock { $0 = nil } }
        #expect(throws: VRenderError.cancelled) {
            try export(["same_1.mov", "same_2.mov"], "cancelled.mov", codec: codec,
                       progress: { _ in box.exporter.withLock { $0?.cancel() } },
                       configure: { exporter in box.exporter.withLock { $0 = exporter } })
        }
        #expect(!FileManager.default.fileExists(atPath: directory + "/cancelled.mov"))
        #expect(TestMedia.files(in: directory, containing: "vrender-partial").isEmpty)
    }

    /// `ExportPlanner.plan` is what `export` shows and runs, and the plan alone is enough to run
    /// it: an exporter that never saw the options writes the same file (crf, preset, filter).
    @Test func thePublicPlanIsTheOneExportRunsAndARunNeedsOnlyIt() throws {
        let output = directory + "/planned.mov"
        let options = ExportOptions(inputs: ["small_a.mov", "small_b.mov"].map(TestMedia.path), output: output,
                                    filter: try FilterRegistry.chain("mono"), codec: .encode(.h264), crf: 30, preset: "ultrafast")
        let planned = try ExportPlanner.plan(options)
        #expect(planned.encoding.crf == 30 && planned.encoding.preset == "ultrafast" && planned.encoding.filter.names == ["mono"])
        var shown: [ExportPlan] = []
        let exported = try Exporter(options: options).export { shown.append($0) }
        #expect(shown.map(\.summaryLines) == [planned.summaryLines])
        let first = try Data(contentsOf: URL(fileURLWithPath: output))
        try FileManager.default.removeItem(atPath: output)
        let ran = try Exporter(progress: { _ in }).run(planned)
        #expect(ran.filters == ["mono"] && ran.frames == exported.frames && ran.videoCodec == exported.videoCodec)
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == first, "the same bytes")
    }

    /// Loudest sample between two times, in dB (ffmpeg's volumedetect; -91 dB is digital silence).
    private func maxVolume(_ file: String, from start: Double, to end: Double) -> Double {
        let output = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "info", "-i", file, "-vn", "-af",
                                                       "atrim=start=\(start):end=\(end),volumedetect", "-f", "null", "-"]).standardError
        let line = output.split(separator: "\n").first { $0.contains("max_volume:") } ?? ""
        return Double(line.split(separator: " ").dropLast().last ?? "") ?? 0
    }
}

/// The exporter under test, for its own progress callback (another thread) to cancel.
private final class ExporterBox: Sendable {
    let exporter = Mutex<Exporter?>(nil)
}
