import ArgumentParser
import VRenderCore
import VRenderVerify
import VRenderWorkerCommands

extension VRender {
    /// `vrender golden`: golden frames, as FFmpeg's FATE keeps them. The logic lives in
    /// VRenderVerify (`GoldenRecorder`, `GoldenChecker`, `VideoDiff`).
    struct Golden: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Record and check golden frames of a video, or compare two videos frame by frame.",
            discussion: """
                A golden is a folder: frames.txt (one line per decoded frame: index, pts, duration, \
                size, pixel format, MD5 as 'ffmpeg -noautorotate -f framemd5' prints it: frames as \
                decoded, a rotation tag not applied) and reference PNGs of \
                chosen frames. An exact golden must match every hash; a lossy one (recorded with \
                --psnr or --ssim) must keep each reference frame within that tolerance.
                """,
            subcommands: [Record.self, Check.self, Diff.self])
    }
}

/// `--psnr` / `--ssim`, shared by record (the tolerance stored) and check (a tighter one).
struct ToleranceOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Lossy: each reference frame's PSNR must be at least this many dB.", valueName: "dB"))
    var psnr: Double?

    @Option(help: ArgumentHelp("Lossy: each reference frame's SSIM must be at least this (0-1].", valueName: "x"))
    var ssim: Double?

    func validate() throws {
        if psnr != nil && ssim != nil { throw ValidationError("give --psnr or --ssim, not both") }
        if let psnr, !(psnr > 0 && psnr.isFinite) { throw ValidationError("--psnr must be a positive number of dB, got \(psnr)") }
        if let ssim, !(ssim > 0 && ssim <= 1) { throw ValidationError("--ssim must be in (0, 1], got \(ssim)") }
    }

    var tolerance: GoldenTolerance? {
        if let psnr { return .psnr(psnr) }
        return ssim.map { .ssim($0) }
    }
}

/// `--threads`, the decoder's fixed thread count.
struct DecoderThreadsOption: ParsableArguments {
    @Option(help: "Decoder threads (a fixed count: any count must give the same frames).")
    var threads = 1

    func validate() throws {
        if threads < 1 || threads > 64 { throw ValidationError("--threads must be 1…64, got \(threads)") }
    }
}

extension VRender.Golden {
    struct Record: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a golden of VIDEO: frames.txt and reference PNGs (replacing any golden there).")

        @Argument(help: ArgumentHelp("The video to record.", valueName: "video"))
        var video: String

        @Option(help: ArgumentHelp("The golden's folder (made if missing).", valueName: "dir"))
        var golden: String

        @Option(help: ArgumentHelp("Frames to keep as reference PNGs: numbers from 0, 'middle', 'last' (default 0,middle,last).",
                                   valueName: "list"))
        var frames: String?

        @Option(help: ArgumentHelp("Keep every Nth frame as a reference PNG instead.", valueName: "n"))
        var every: Int?

        @OptionGroup var tolerance: ToleranceOptions
        @OptionGroup var decoder: DecoderThreadsOption

        func validate() throws {
            if frames != nil && every != nil { throw ValidationError("give --frames or --every, not both") }
            _ = try selection()
        }

        /// The frames asked for; a bad list is a usage error naming the option.
        private func selection() throws -> FrameSelection {
            do {
                if let every { return try FrameSelection.parse(every: every) }
                return try frames.map(FrameSelection.parse(frames:)) ?? .standard
            } catch let error as VRenderError {
                throw ValidationError(error.description)
            }
        }

        func run() throws {
            let options = GoldenRecordOptions(video: video, golden: golden, frames: try selection(),
                                              tolerance: tolerance.tolerance, threads: decoder.threads)
            let recorded = try GoldenRecorder(options: options).record()
            let mode = recorded.tolerance.map { "lossy, \($0)" } ?? "exact"
            print("golden: recorded \(recorded.frames) frames of \(video) in \(recorded.golden) (\(mode)); "
                  + "references: frames \(recorded.references.map(String.init).joined(separator: ","))")
        }
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check VIDEO against a golden; on a mismatch print what differs, write heat maps, exit 1.")

        @Argument(help: ArgumentHelp("The video to check.", valueName: "video"))
        var video: String

        @Option(help: ArgumentHelp("The golden's folder.", valueName: "dir"))
        var golden: String

        @OptionGroup var tolerance: ToleranceOptions
        @OptionGroup var decoder: DecoderThreadsOption

        /// A tolerance the golden does not allow (looser than its own, or any on an exact
        /// golden) is a usage error, though only the golden's frames.txt can tell.
        func validate() throws {
            do {
                try GoldenChecker.validate(tolerance: tolerance.tolerance, golden: golden)
            } catch let error as VRenderError {
                throw ValidationError(error.description)
            }
        }

        func run() throws {
            let options = GoldenCheckOptions(video: video, golden: golden, tolerance: tolerance.tolerance, threads: decoder.threads)
            let report = try GoldenChecker(options: options).check()
            guard report.passed else {
                print(GoldenTable.differences(report))
                throw VRenderError(.input, subject: video, reason: report.failure)
            }
            print(report.summary)
        }
    }

    struct Diff: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Compare two videos of one size frame by frame: PSNR and SSIM of every frame, and the worst.")

        @Argument(help: ArgumentHelp("The first video.", valueName: "a"))
        var first: String

        @Argument(help: ArgumentHelp("The second video.", valueName: "b"))
        var second: String

        @Flag(help: "Print every frame's scores as JSON.")
        var json = false

        @OptionGroup var decoder: DecoderThreadsOption

        func run() throws {
            let report = try VideoDiff.compare(first, second, threads: decoder.threads)
            if json {
                try JSONOutput.print(report)
            } else {
                print(GoldenTable.scores(report))
            }
        }
    }
}
