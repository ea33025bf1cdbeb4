import ArgumentParser
import Foundation
import VRenderCore
import VRenderExport
import VRenderFilters
import VRenderPrompter
import VRenderScale
import VRenderWorkerCommands

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
                complete; the takes are never modified. A take is refused, by name, when its \
                pictures have over 16384 pixels a side or 35.7 million (8192x4352), when it lasts less \
                than a frame or more than a day, or when its frame rate is below one frame an \
                hour or above 1000 fps: a damaged header, or more than one machine should take on.
                """)

        @Option(name: [.short, .customLong("output")],
                help: ArgumentHelp("Output file; its extension picks the container (.mov, .mp4, .mkv, .webm). Default: export.mov, or export.<ext> of a container that can hold a stream copy of the takes.", valueName: "file"))
        var output: String?

        @OptionGroup var export: ExportArguments

        @Flag(help: "Replace the output file if it exists.")
        var overwrite = false

        @Option(help: ArgumentHelp("Write per-stage frame timings, queue occupancy and resource use there as JSON after the export (the schema of 'vrender bench --json').", valueName: "file.json"))
        var timings: String?

        @OptionGroup var reporting: ProgressOptions

        @OptionGroup var backend: GPUOptions

        @OptionGroup(title: "Scale-out") var scale: EngineArguments

        func validate() throws {
            try ExportOutput.validate(output: output)
            if scale.engine != nil { try export.refuseDeliveryWhenChunked("--engine") }
            if scale.engine != nil && timings != nil {
                throw ValidationError("--timings measures one process; measure chunked exports with 'vrender chunk render --timings' or the benchmarks")
            }
        }

        func run() throws {
            var options = try export.options(gpu: backend.gpu, outputGiven: output != nil)
            options.output = output ?? options.output
            options.outputIsDefault = output == nil
            options.overwrite = overwrite
            options.verbose = reporting.verbose
            options.timingsOutput = timings
            if let request = scale.request(options: options) { return try runChunked(request) }
            let printer = ProgressPrinter(style: reporting.resolvedStyle)
            let exporter = Exporter(options: options) { printer.report($0) }
            let interruptSources = InterruptHandling.install { exporter.cancel() }
            defer { withExtendedLifetime(interruptSources) {} }

            defer { printer.finish() }   // on failure too: the error starts on a line of its own
            let summary = try exporter.export(onPlan: printPlan)
            printer.finish()
            try printSummary(summary)
        }

        /// `--engine local|slurm`: the chunked export, its steps one line each on stderr (as the
        /// plan's lines, whatever --progress says), and the frames rendered over all chunks as
        /// --progress says, below them.
        private func runChunked(_ request: ChunkedExportRequest) throws {
            let printer = ProgressPrinter(style: reporting.resolvedStyle)
            let export = ChunkedExport(request: request) { event in
                guard case .progress(let progress) = event else { return printer.line(FileNames.display(event.description)) }
                printer.report(progress)
                if progress.finished { printer.finish() }
            }
            let interruptSources = InterruptHandling.install { export.cancel() }
            defer { withExtendedLifetime(interruptSources) {} }
            defer { printer.finish() }   // on failure too: the error starts on a line of its own
            let summary = try export.run(onPlan: printPlan)
            printer.finish()
            try printSummary(summary)
        }

        private func printSummary(_ summary: ExportSummary) throws {
            let damaged = summary.damagedFrames.sorted(by: { $0.key < $1.key })
                .map { "\($0.key): \($0.value) damaged packet(s) or frame(s) skipped or repaired" }
            (damaged + summary.warnings).map(FileNames.display).forEach(Warnings.print)
            if reporting.json {
                try JSONOutput.print(summary)
                FileHandle.standardError.write(Data((FileNames.display(ExportOutput.finalLine(summary)) + "\n").utf8))
            } else {
                print(TerminalText.fitted(FileNames.display(ExportOutput.finalLine(summary)), for: STDOUT_FILENO))
                ExportOutput.captionLine(summary).map { print(FileNames.display($0)) }
            }
        }

        private func printPlan(_ plan: ExportPlan) {
            guard reporting.resolvedStyle != .none || !reporting.json else { return }
            FileHandle.standardError.write(Data(TerminalText.fitted(plan.summaryLines.map { FileNames.display($0) + "\n" }.joined(), for: STDERR_FILENO).utf8))
        }
    }
}

/// What an export is asked, shared by `vrender concat` and `vrender bench concat`: the inputs
/// and every option that shapes the output, with their checks. The output file, `--overwrite`
/// and reporting differ between the two and stay with each command.
struct ExportArguments: ParsableArguments {
    @Argument(help: ArgumentHelp("Takes to join, in order (.mov, .mp4, .mkv, .webm, ...), or a takes folder (joined in its takes.json order).", valueName: "input"))
    var inputs: [String] = []

    @Option(name: .customLong("audio-track"),
            help: ArgumentHelp("Keep only audio track N (1-based) of each take. Default: every track when all takes have the same number, else track 1.", valueName: "N"))
    var audioTrack: Int?

    @Option(help: ArgumentHelp("Filter or comma-separated chain to apply (see 'vrender filters').", valueName: "name"))
    var filter = "none"

    @OptionGroup var threads: ThreadsOption

    @Option(help: "Video codec: auto (stream copy when possible, else hevc, else h264; vp9 for .webm), hevc (h265), h264, ffv1 (lossless), vp9, av1, or copy (stream copy or fail).",
            transform: CodecArgument.parse)
    var codec: CodecArgument?

    @Option(name: .customLong("for"),
            help: ArgumentHelp("Where the video goes: web (H.264 High + AAC-LC 48 kHz .mp4, faststart, no edit lists, a closed GOP "
                               + "every half second, 2 B-frames, crf 20 capped at the platforms' bit rate for its size, "
                               + "-14 LUFS) or archive (FFV1 + 32-bit PCM .mkv, lossless). --codec, --crf, --loudness "
                               + "and -o given with it win over the preset.", valueName: "web|archive"),
            transform: DeliveryArgument.parse)
    var delivery: DeliveryArgument?

    @Option(help: "Constant rate factor for the video encoder (0-51; lower is better quality).")
    var crf: Int?

    @Option(help: ArgumentHelp("Encoder preset, ultrafast ... veryslow (default veryfast).", valueName: "name"))
    var preset: String?

    @Option(help: ArgumentHelp("Output canvas WxH (default: the first take's upright size).", valueName: "WxH"),
            transform: SizeArgument.parse)
    var size: SizeArgument?

    @Option(help: ArgumentHelp("Output frame rate (default: the first take's).", valueName: "rate"),
            transform: FrameRateArgument.parse)
    var fps: FrameRateArgument?

    @Option(name: .customLong("prompter-overlay"),
            help: ArgumentHelp("Burn this prompter script (UTF-8 text) into every frame, scrolling with each take's recording time; takes recorded with 'capture --prompter' replay their recorded scroll.", valueName: "script"))
    var prompterOverlay: String?

    @Option(name: .customLong("prompter-box"),
            help: ArgumentHelp("The prompter's box in output pixels, X,Y,W,H (default: across the top; moved and resized to fit, at least 160x116 points).", valueName: "x,y,w,h"))
    var prompterBox: String?

    @OptionGroup var prompter: PrompterArguments

    @OptionGroup var scriptUse: ScriptArguments

    @Option(name: .customLong("trim-silence"),
            help: ArgumentHelp("Cut each take's leading and trailing silence, measured on its own sound: quieter than DB dBFS (default -40), keeping MARGIN of quiet beside the sound (default 0.25 s). The value may be left out.", valueName: "db[:margin]"))
    var trimSilence: String?

    @Option(name: .customLong("cut-pauses"),
            help: ArgumentHelp("With --trim-silence: also cut pauses longer than this inside a take (e.g. 1.5s).", valueName: "time"),
            transform: DurationArgument.parse)
    var cutPauses: DurationArgument?
    @Option(help: ArgumentHelp("Bring the sound to this integrated loudness (EBU R128 / ITU-R BS.1770), e.g. -16 for the web, -23 for broadcast: measured over the whole export, one gain, a true-peak limiter at -1 dBTP. Only the sound is re-encoded.", valueName: "LUFS"),
            transform: LoudnessArgument.parse)
    var loudness: LoudnessArgument?
    // Its value may be left out (`OptionalValues` turns a bare --stabilize into --stabilize=default).
    @Option(help: ArgumentHelp("Smooth away the camera's shake, as the app's cinematic mode does: STRENGTH 0-1 (default 0.5) "
                               + "averages the camera path over STRENGTH seconds each side and zooms in 4% + 8%·STRENGTH "
                               + "to hide the borders. Needs a transcode.", valueName: "strength"))
    var stabilize: String?
    @Option(help: ArgumentHelp("At each join: cut (default), fade:T or dissolve:T (pictures dissolve and sound cross-fades over T seconds; the takes overlap, so the output is shorter) or dip:T (to black and silence over T/2, back over T/2; length unchanged).", valueName: "kind"))
    var transition = "cut"

    static let presets = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow", "placebo"]

    func validate() throws {
        if inputs.isEmpty { throw ValidationError("give at least one input take") }
        if let crf, !(0...51).contains(crf) { throw ValidationError("--crf must be between 0 and 51, got \(crf)") }
        if let preset, !Self.presets.contains(preset) {
            throw ValidationError("--preset '\(preset)' is not one of \(Self.presets.joined(separator: ", "))")
        }
        if let audioTrack, audioTrack < 1 { throw ValidationError("--audio-track must be 1 or more, got \(audioTrack)") }
        if let prompterBox, Self.box(prompterBox) == nil {
            throw ValidationError("--prompter-box '\(prompterBox)' is not X,Y,W,H in pixels (e.g. 64,40,1152,240)")
        }
        if let trimSilence { _ = try silence(trimSilence) }
        if cutPauses != nil, trimSilence == nil { throw ValidationError("--cut-pauses needs --trim-silence") }
        if let stabilize {
            do { _ = try StabilizeRequest(parsing: stabilize) } catch let error as VRenderError { throw ValidationError(error.description) }
        }
        do { _ = try Transition(parsing: transition) } catch let error as VRenderError { throw ValidationError(error.description) }
        if prompterOverlay == nil && (prompterBox != nil || prompter.isChanged) {
            throw ValidationError("--prompter-box, --prompter-speed, --prompter-font and --prompter-end need --prompter-overlay SCRIPT")
        }
    }

    /// `--trim-silence`'s request, with `--cut-pauses`.
    private func silence(_ value: String) throws -> SilenceTrimRequest {
        do {
            return try SilenceTrimRequest.parse(value == OptionalValues.defaultValue ? "" : value, pause: cutPauses?.seconds)
        } catch let error as VRenderError {
            throw ValidationError(error.description)
        }
    }

    /// `X,Y,W,H`: whole pixels, a positive size.
    static func box(_ text: String) -> PixelRect? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 4, let x = parts[0], let y = parts[1], let width = parts[2], let height = parts[3],
              width > 0, height > 0 else { return nil }
        return PixelRect(x: x, y: y, width: width, height: height)
    }

    /// A chunked export cannot apply `--for` yet (its chunks have fixed keyframes and its sound
    /// is joined apart): refused, naming the option that made it chunked.
    func refuseDeliveryWhenChunked(_ option: String) throws {
        guard let delivery else { return }
        throw ValidationError("--for \(delivery.text) with \(option): a chunked export cannot apply the preset yet (its chunks "
                              + "have fixed keyframes and its sound is joined apart); export in one process, or give --codec, --crf and --loudness")
    }

    /// The options as the library takes them (output "export.mov" until the command sets its
    /// own); `validate()` has checked their syntax.
    func options(gpu: FilterBackendChoice, outputGiven: Bool = false) throws -> ExportOptions {
        var options = ExportOptions(inputs: inputs, output: "export.mov", audioTrack: audioTrack,
                                    filter: try FilterRegistry.chain(filter), codec: (codec ?? .auto).request, crf: crf, preset: preset,
                                    size: size?.value, frameRate: fps?.rate, gpu: gpu)
        options.threads = threads.budget
        options.silence = try trimSilence.map(silence)
        options.loudness = loudness?.target
        if let script = prompterOverlay {
            let (settings, notices) = prompter.settings
            options.prompter = PrompterOverlayRequest(script: try PrompterScript(contentsOfFile: script), settings: settings,
                                                      box: prompterBox.flatMap(Self.box), notices: notices)
        }
        options.stabilize = try stabilize.map(StabilizeRequest.init(parsing:))
        options.transition = try Transition(parsing: transition)
        options.script = try scriptUse.request()
        delivery?.target.apply(to: &options, given: .init(codec: codec != nil, crf: crf != nil, loudness: loudness != nil,
                                                          output: outputGiven))
        return options
    }
}

/// `concat --codec`: a name or one of its other names (`h265`, `libx264`: `CodecNames`).
struct CodecArgument: ValueArgument {
    static let names = ["auto", "hevc", "h264", "ffv1", "vp9", "av1", "copy"]
    static let auto = Self(name: "auto", text: "auto")
    let name: String
    let text: String

    static func read(_ text: String) throws(ValueSyntaxError) -> Self {
        Self(name: try CodecNames.resolve(text, among: names), text: text)
    }

    var request: ExportOptions.CodecRequest {
        switch name {
        case "hevc": .encode(.hevc)
        case "h264": .encode(.h264)
        case "ffv1": .encode(.ffv1)
        case "vp9": .encode(.vp9)
        case "av1": .encode(.av1)
        case "copy": .copy
        default: .auto
        }
    }
}

/// `--for web|archive`.
struct DeliveryArgument: ValueArgument {
    let target: DeliveryTarget
    let text: String

    static func read(_ text: String) throws(ValueSyntaxError) -> Self {
        let names = DeliveryTarget.allCases.map(\.rawValue)
        let aliases = ["youtube": "web", "vimeo": "web", "publish": "web", "master": "archive", "lossless": "archive"]
        guard let name = Suggestion.resolve(text, among: names, aliases: aliases), let target = DeliveryTarget(rawValue: name) else {
            throw ValueSyntaxError(value: text, expected: Suggestion.appended(to: "web or archive", typed: text,
                                                                              among: names + aliases.keys.sorted()))
        }
        return Self(target: target, text: text)
    }
}
