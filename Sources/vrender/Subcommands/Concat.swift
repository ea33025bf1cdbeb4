import ArgumentParser
import Foundation
import VRenderCore
import VRenderExport
import VRenderFilters
import VRenderMedia

extension VRender {
    /// `vrender concat`: join takes into one finished video.
    struct Concat: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Join takes into one finished video, optionally filtered.",
            discussion: """
                Every input is probed before anything is written. When all takes match (codec, \
                codec settings, size, time base, rotation, audio format) and nothing asks for a \
                change, packets are copied unchanged (stream copy). Otherwise every take is \
                decoded, scaled to the canvas (the first take's upright size, or --size) with its \
                aspect kept, filtered and encoded again (HEVC when an HEVC encoder opens, else \
                H.264); audio becomes 48 kHz stereo AAC, each take's audio padded or trimmed to \
                its video. The output is written to a hidden temporary file and renamed when \
                complete; the takes are never modified.
                """)

        @Argument(help: ArgumentHelp("Takes to join, in order (.mov, .mp4, .mkv, ...).", valueName: "input"))
        var inputs: [String] = []

        @Option(name: [.short, .customLong("output")], help: "Output file; its extension picks the container (.mov, .mp4, .mkv).")
        var output = "export.mov"

        @Option(help: ArgumentHelp("Filter or comma-separated chain to apply (see 'vrender filters').", valueName: "name"))
        var filter = "none"

        @Option(help: "Video codec: auto (stream copy when possible, else hevc, else h264), hevc, h264, ffv1 (lossless), or copy (stream copy or fail).")
        var codec: CodecArgument = .auto

        @Option(help: "Constant rate factor for the video encoder (0-51; lower is better quality).")
        var crf: Int?

        @Option(help: ArgumentHelp("Encoder preset, ultrafast ... veryslow (default veryfast).", valueName: "name"))
        var preset: String?

        @Option(help: ArgumentHelp("Output canvas WxH (default: the first take's upright size).", valueName: "WxH"))
        var size: String?

        @Option(help: ArgumentHelp("Output frame rate (default: the first take's).", valueName: "rate"))
        var fps: String?

        @Flag(help: "Replace the output file if it exists.")
        var overwrite = false

        @OptionGroup var reporting: ProgressOptions

        @OptionGroup var backend: GPUOptions

        static let presets = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow", "placebo"]

        func validate() throws {
            if inputs.isEmpty { throw ValidationError("give at least one input take") }
            if let crf, !(0...51).contains(crf) { throw ValidationError("--crf must be between 0 and 51, got \(crf)") }
            if let preset, !Self.presets.contains(preset) {
                throw ValidationError("--preset '\(preset)' is not one of \(Self.presets.joined(separator: ", "))")
            }
            if let size, ValueSyntax.size(size) == nil {
                throw ValidationError("--size '\(size)' is not WxH with even, positive sides (e.g. 1280x720)")
            }
            if let fps, ValueSyntax.frameRate(fps) == nil {
                throw ValidationError("--fps '\(fps)' is not a frame rate between 0 and 1000 (e.g. 30, 29.97, 30000/1001)")
            }
        }

        func run() throws {
            FFmpegLog.configure(verbose: reporting.verbose)
            let options: ExportOptions
            do {
                options = ExportOptions(
                    inputs: inputs, output: output, filter: try FilterRegistry.chain(filter),
                    codec: codec.request, crf: crf, preset: preset,
                    size: size.flatMap(ValueSyntax.size), frameRate: fps.flatMap(ValueSyntax.frameRate),
                    overwrite: overwrite, gpu: backend.gpu)
            } catch {
                throw ErrorReporting.exitCode(for: error)
            }
            let printer = ProgressPrinter(style: reporting.resolvedStyle)
            let exporter = Exporter(options: options) { printer.report($0) }
            let interruptSources = InterruptHandling.install { exporter.cancel() }
            defer { withExtendedLifetime(interruptSources) {} }

            let summary: ExportSummary
            do {
                let takes = try exporter.probe()
                let plan = try exporter.plan(takes)
                printPlan(plan)
                summary = try exporter.run(plan)
                printer.finish()
            } catch {
                printer.finish()
                throw ErrorReporting.exitCode(for: error, context: output)
            }
            for (path, count) in summary.damagedFrames.sorted(by: { $0.key < $1.key }) {
                ErrorReporting.printWarning("\(path): \(count) damaged packet(s) or frame(s) skipped")
            }
            for warning in summary.warnings { ErrorReporting.printWarning(warning) }
            if reporting.json {
                try JSONOutput.print(summary)
                FileHandle.standardError.write(Data((Self.finalLine(summary) + "\n").utf8))
            } else {
                print(Self.finalLine(summary))
            }
        }

        private func printPlan(_ plan: ExportPlan) {
            guard reporting.resolvedStyle != .none || !reporting.json else { return }
            let total = String(format: "%.2f", plan.timeline.duration)
            var line = "plan: \(plan.reason)\n"
            if plan.mode == .transcode {
                line += "plan: \(plan.takes.count) take(s), \(total) s -> \(plan.canvasWidth)x\(plan.canvasHeight) at \(plan.frameRate) fps"
                switch plan.rotation {
                case .keepMetadata(let rotation, _) where rotation != .none:
                    line += ", rotation \(rotation.rawValue)° kept as metadata"
                case .uprightPixels:
                    line += ", mixed rotations turned upright in pixels"
                default:
                    break
                }
                line += plan.hasAudio ? ", audio AAC 48 kHz stereo\n" : ", no audio\n"
            }
            FileHandle.standardError.write(Data(line.utf8))
        }

        static func finalLine(_ summary: ExportSummary) -> String {
            let megabytes = String(format: "%.1f MB", Double(summary.bytes) / 1_000_000)
            let codecs = summary.videoCodec + (summary.audioCodec.map { "+\($0)" } ?? "")
            return "\(summary.output): \(String(format: "%.2f", summary.duration)) s, \(summary.frames) frames, "
                + "\(summary.width)x\(summary.height) \(codecs), \(megabytes) in \(String(format: "%.2f", summary.wallSeconds)) s (\(summary.mode))"
        }
    }
}

/// `--codec` values.
enum CodecArgument: String, ExpressibleByArgument, CaseIterable {
    case auto, hevc, h264, ffv1, copy

    var request: ExportOptions.CodecRequest {
        switch self {
        case .auto: return .auto
        case .hevc: return .encode(.hevc)
        case .h264: return .encode(.h264)
        case .ffv1: return .encode(.ffv1)
        case .copy: return .copy
        }
    }
}
