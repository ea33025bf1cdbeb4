import ArgumentParser
import Foundation
import VRenderBench
import VRenderCapture
import VRenderCore
import VRenderExport
import VRenderFilters
import VRenderRecording
import VRenderWorkerCommands

extension VRender {
    /// `vrender bench`: per-stage frame timings of an export, a capture or a filter.
    struct Bench: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Measure per-stage frame timings of an export, a capture or a filter.",
            discussion: """
                Runs the real pipeline with a clock around each stage's work on each frame and \
                prints, per stage, the frames it handled, the p50/p95/p99/max time per frame and \
                the share of the run it was busy (the busiest stage is the bottleneck), then \
                throughput, wall and CPU time, peak memory, how full the queues between stages \
                were, and drops. --json FILE writes the whole report (every frame's time \
                included), --plot FILE.svg a plot of it.
                """,
            subcommands: [BenchConcat.self, BenchCapture.self, BenchFilter.self, BenchSoak.self])
    }
}

/// `--json FILE` and `--plot FILE.svg`, shared by the bench commands.
struct BenchFileOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Write the report there as JSON (docs/bench.md).", valueName: "file.json"))
    var json: String?

    @Option(help: ArgumentHelp("Write an SVG plot there: frame time over frame index per stage, and a histogram per stage.", valueName: "file.svg"))
    var plot: String?

    func validate() throws {
        if let plot, (plot as NSString).pathExtension.lowercased() != "svg" {
            throw ValidationError("--plot '\(plot)' must name an .svg file")
        }
    }

    var files: BenchFiles { BenchFiles(json: json, plot: plot) }

    /// Prints the table, then where the files went.
    func show(_ report: TimingReport) {
        print(TimingTable.text(report))
        for (what, path) in [("report", json), ("plot", plot)] {
            if let path { print("\(what): \(path)") }
        }
    }
}

/// `vrender bench concat`.
struct BenchConcat: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "concat",
        abstract: "Run an export as 'vrender concat' does, and print its per-stage frame timings.",
        discussion: """
            Takes the inputs and options of 'vrender concat'. Without -o the export goes to a \
            temporary file that is removed afterwards.
            """)

    @Option(name: [.short, .customLong("output")],
            help: ArgumentHelp("Keep the export in this file (default: a temporary file, removed afterwards).", valueName: "file"))
    var output: String?

    @OptionGroup var export: ExportArguments

    @Flag(help: "Replace the -o file if it exists.")
    var overwrite = false

    @OptionGroup var files: BenchFileOptions

    @OptionGroup var backend: GPUOptions

    func validate() throws {
        try ExportOutput.validate(output: output)
    }

    func run() throws {
        var options = try export.options(gpu: backend.gpu)
        options.overwrite = overwrite
        let bench = ConcatBench(options: options, output: output, files: files.files)
        let interrupts = InterruptHandling.install { bench.cancel() }
        defer { withExtendedLifetime(interrupts) {} }
        let result = try bench.run { plan in
            FileHandle.standardError.write(Data("bench: \(plan.takes.count) take(s), \(plan.reason)\n".utf8))
        }
        files.show(result.report)
        if !result.outputRemoved { print("output: \(result.summary.output)") }
    }
}

/// `vrender bench capture`.
struct BenchCapture: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "capture",
        abstract: "Record one take through the real recording pipeline and print its per-stage frame timings.",
        discussion: """
            The synthetic camera runs as fast as the pipeline takes its frames (batch), so the \
            run measures capacity; --realtime paces it to the clock, as a live camera is, and \
            then the ring drops frames the encoder cannot keep up with. Without --out the take \
            goes to a temporary folder that is removed afterwards.
            """)

    @Option(help: ArgumentHelp("Camera: synthetic[:seed=N] or a V4L2 device path.", valueName: "device"))
    var device = "synthetic:seed=1"

    @Option(help: ArgumentHelp("Capture size WxH (default 1920x1080).", valueName: "WxH"), transform: SizeArgument.parse)
    var size = SizeArgument(1920, 1080)

    @Option(help: ArgumentHelp("Frame rate to capture at (default 30).", valueName: "rate"), transform: FrameRateArgument.parse)
    var fps = FrameRateArgument(30)

    @Option(help: "Frames to record.")
    var frames: Int?

    @Option(help: ArgumentHelp("Length of the take instead of --frames, e.g. 5s (default 5s).", valueName: "time"),
            transform: DurationArgument.parse)
    var seconds: DurationArgument?

    @Option(help: "Video codec: auto (HEVC when it opens, else H.264), hevc, h264 or ffv1.", transform: CaptureCodecArgument.parse)
    var codec: CaptureCodecArgument = .auto

    @Flag(help: "Pace the synthetic camera to real time.")
    var realtime = false

    @Option(help: ArgumentHelp("Keep the take in this folder (default: a temporary folder, removed afterwards).", valueName: "dir"))
    var out: String?

    @OptionGroup var files: BenchFileOptions

    func validate() throws {
        if let frames, frames < 1 { throw ValidationError("--frames must be at least 1, got \(frames)") }
        if frames != nil && seconds != nil { throw ValidationError("give --frames or --seconds, not both") }
    }

    func run() throws {
        let request = CaptureRequest(frameRate: fps.rate, size: size.value, realtime: realtime)
        let bench = CaptureBench(device: device, request: request, frames: frames, seconds: seconds?.seconds,
                                 codec: codec.choice, folder: out, files: files.files)
        let interrupts = InterruptHandling.install { bench.cancel() }
        defer { withExtendedLifetime(interrupts) {} }
        let status = StatusPrinter(statusLine: false, announcesSource: true)
        let report = try bench.run { status.handle($0) }
        files.show(report)
    }
}

/// `vrender bench filter`.
struct BenchFilter: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "filter",
        abstract: "Time a filter on pictures of one size, against memcpy of the same pictures in the same run.",
        discussion: """
            Filters a synthetic picture, or the decoded frames of INPUT, with the executor an \
            export would use (--gpu), and copies each picture with memcpy as the baseline: the \
            report gives the filter's speed as a ratio to memcpy's.
            """)

    @Argument(help: ArgumentHelp("A video whose frames are filtered (default: a synthetic picture).", valueName: "input"))
    var input: String?

    @Option(help: ArgumentHelp("Filter or comma-separated chain (see 'vrender filters').", valueName: "name"))
    var filter = "mono"

    @Option(help: ArgumentHelp("Picture size WxH (default 1920x1080, or INPUT's upright size).", valueName: "WxH"),
            transform: SizeArgument.parse)
    var size: SizeArgument?

    @Option(help: "Pictures to filter.")
    var frames = 100

    @OptionGroup var backend: GPUOptions

    @OptionGroup var threads: ThreadsOption

    @OptionGroup var files: BenchFileOptions

    func validate() throws {
        if frames < 1 { throw ValidationError("--frames must be at least 1, got \(frames)") }
    }

    func run() throws {
        let request = FilterBenchRequest(filter: try FilterRegistry.chain(filter), backend: backend.gpu,
                                         size: size?.value, frames: frames, input: input, threads: threads.budget)
        files.show(try FilterBench.run(request, files: files.files))
    }
}

/// `vrender bench soak`.
struct BenchSoak: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "soak",
        abstract: "Record and export the demo's takes round after round in one process; fail if it leaks.",
        discussion: """
            Each round is 'vrender demo': three synthetic takes recorded, then exported with \
            mono. After each round it prints the open file descriptors, threads and resident \
            memory. After \(SoakBench.warmUpRounds) warm-up rounds, descriptors and threads must \
            not grow (the least of the first three rounds against the least of the last three) \
            and memory must not grow more than \(SoakReport.residentSlopeLimit / 1024) KB a round \
            (a least-squares fit); otherwise it exits 1.
            """)

    @Option(help: "Rounds to run.")
    var rounds = 20

    @Option(help: ArgumentHelp("Capture size WxH of the takes (default 320x240).", valueName: "WxH"), transform: SizeArgument.parse)
    var size = SizeArgument(320, 240)

    @Option(help: ArgumentHelp("Folder for the rounds' takes and export (default: a temporary folder, removed afterwards).",
                               valueName: "dir"))
    var out: String?

    @OptionGroup var backend: GPUOptions

    @Flag(help: "Print the report as JSON on standard output instead of a table.")
    var json = false

    func validate() throws {
        if rounds < SoakBench.warmUpRounds + 6 { throw ValidationError("--rounds must be at least \(SoakBench.warmUpRounds + 6)") }
    }

    func run() throws {
        let bench = SoakBench(rounds: rounds, directory: out, size: size.value, gpu: backend.gpu)
        if !json { print("round  open files  threads  resident MB  seconds") }
        let report = try bench.run { round in
            guard !json else { return }
            print(String(format: "%5d  %10d  %7d  %11.1f  %7.2f", round.round, round.openFiles, round.threads,
                         Double(round.residentBytes) / 1_048_576, round.seconds))
        }
        if json { try JSONOutput.print(report) }
        try report.requireFlat()
        if !json { print("soak: flat over \(rounds) rounds") }
    }
}
