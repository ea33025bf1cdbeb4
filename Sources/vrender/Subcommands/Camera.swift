import ArgumentParser
import Foundation
import VRenderCapture
import VRenderCore
import VRenderRecording
import VRenderWorkerCommands

extension VRender {
    /// `vrender camera`: the synthetic camera for other programs.
    struct Camera: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Stream the synthetic camera to another program: a pipe, a file, or a V4L2 output device.",
            discussion: """
                Frames are the synthetic camera's, bit for bit: the same seed, size, rate and \
                script give the same pictures on every run, and the same as 'vrender capture \
                --codec ffv1' records.

                -o - streams to standard output (vrender camera ... -o - | ffmpeg -i - ...), -o \
                PATH to a FIFO (opened when a reader opens it) or a file (written complete or not \
                at all). --format (default: -o's extension, .nut or .yuv, else y4m): y4m (ffmpeg, \
                GStreamer's y4mdec, Chromium's \
                --use-file-for-fake-video-capture), nut (with the synthetic microphone's sound, \
                float PCM, and the clapper's patch in the picture) or rawvideo (bare yuv420p \
                planes: tell the reader the size and rate). Without --realtime, frames go as \
                fast as the reader takes them. A reader that quits ends the feed: exit 0.

                --v4l2-out /dev/videoN writes into a V4L2 output device (v4l2loopback, or vivid's \
                output node looped to its capture node), which readers then open as a camera. \
                The feed negotiates yuv420p (YU12: the camera's bytes), else YUYV, else NV12 \
                (--v4l2-format picks), says what the device took, and paces frames to real time.

                Script lines act on the picture as in capture: 'at 1.5s zoom 2 ramp 4', \
                'at 0s lens 0.5', 'at 2s torch on', 'at 3s flip', 'at 1s focus 0.2 0.8', \
                'at 2s clap' (a white flash patch, and a click in nut's sound), 'at 4s stop'. \
                Keys on a terminal: 0/1/2 lens, +/- ramp the zoom, t torch, f flip, q quit.
                """)

        @Option(help: ArgumentHelp("The camera: synthetic[:seed=N].", valueName: "device"))
        var device = "synthetic"

        @Option(help: ArgumentHelp("Action script driving the camera.", valueName: "file"))
        var script: String?

        @Option(help: ArgumentHelp("Picture size WxH (default 1280x720).", valueName: "WxH"), transform: SizeArgument.parse)
        var size: SizeArgument?

        @Option(help: ArgumentHelp("Frame rate (default 30).", valueName: "rate"), transform: FrameRateArgument.parse)
        var fps = FrameRateArgument(30)

        @Option(help: ArgumentHelp("Length to stream, e.g. 2s (default: until the script's stop, the reader quits, q or Ctrl-C).",
                                   valueName: "time"), transform: DurationArgument.parse)
        var duration: DurationArgument?

        @Flag(help: "Pace frames to real time (always, with --v4l2-out).")
        var realtime = false

        @Option(name: [.customShort("o"), .customLong("output")],
                help: ArgumentHelp("Where to stream: - (standard output), a FIFO or a file.", valueName: "out"))
        var output: String?

        @Option(help: ArgumentHelp("Stream format: y4m, nut (with sound) or rawvideo (default: as -o's extension "
                                   + "says, .nut or .yuv, else y4m)."))
        var format: StreamFormatArgument?

        @Option(name: .customLong("v4l2-out"), help: ArgumentHelp("A V4L2 output device to feed.", valueName: "device"))
        var v4l2Out: String?

        @Option(name: .customLong("v4l2-format"), help: ArgumentHelp("Layout to give the V4L2 device: yuv420p, yuyv or nv12 "
                                                                     + "(default: the first of these it takes)."))
        var v4l2Format: OutputLayoutArgument?

        @Option(name: .customLong("v4l2-io"), help: ArgumentHelp("How frames reach the V4L2 device: auto (mmap streaming "
                                                                 + "where offered, else write()), mmap or write."))
        var v4l2IO: OutputIO = .auto

        @OptionGroup var start: StartingStateArguments

        func validate() throws {
            if (v4l2Format != nil || v4l2IO != .auto) && v4l2Out == nil {
                throw ValidationError("--v4l2-format and --v4l2-io need --v4l2-out DEVICE")
            }
        }

        func run() throws {
            let options = try feedOptions()
            let interactive = isatty(STDIN_FILENO) != 0
            let feed = CameraFeed(options: options)
            let interrupts = InterruptHandling.install { feed.requestStop() }
            defer { withExtendedLifetime(interrupts) {} }
            let keyboard = interactive ? KeyboardReader() : nil
            defer { keyboard?.restore() }
            let statusLine = isatty(STDERR_FILENO) != 0
            let summary = try feed.run(commands: keyboard?.commands) { event in
                Self.report(event, statusLine: statusLine)
            }
            if statusLine { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
            let load = summary.wallSeconds > 0 ? summary.cpuSeconds / summary.wallSeconds * 100 : 0
            Self.say(String(format: "camera: %d frame(s) (%.2f s) in %.2f s, %.0f fps, %.0f%% of one core; ended by %@",
                            summary.frames, summary.seconds, summary.wallSeconds,
                            summary.wallSeconds > 0 ? Double(summary.frames) / summary.wallSeconds : 0, load,
                            summary.ending.words))
            if summary.ending == .interrupted { throw ExitCode(130) }
        }

        private func feedOptions() throws -> CameraFeedOptions {
            let request = start.request(frameRate: fps, size: size, realtime: realtime)
            let actions = try script.map { try ActionScript(contentsOfFile: $0) }
            return CameraFeedOptions(device: device, request: request, script: actions, duration: duration?.seconds,
                                     output: output,
                                     container: format?.container ?? .implied(by: output ?? "-"), v4l2Output: v4l2Out,
                                     v4l2Formats: v4l2Format.map { [$0.layout] } ?? CameraFeedOptions.v4l2Preferences,
                                     v4l2IO: v4l2IO)
        }

        private static func report(_ event: CameraFeedEvent, statusLine: Bool) {
            switch event {
            case .started(let line): say("camera: \(line)")
            case .notice(let line): say("camera: \(line)")
            case .progress(let frames, let seconds, let rate):
                guard statusLine else { return }
                let text = String(format: "\r\u{1B}[Kcamera: %d frames, %.1f s, %.1f fps", frames, seconds, rate)
                FileHandle.standardError.write(Data(text.utf8))
            }
        }

        /// Messages go to standard error: standard output may be the stream.
        private static func say(_ line: String) {
            FileHandle.standardError.write(Data((line + "\n").utf8))
        }
    }
}

extension OutputIO: ExpressibleByArgument {}

enum StreamFormatArgument: String, ExpressibleByArgument, CaseIterable {
    case y4m, nut, rawvideo

    var container: CameraFeedOptions.Container {
        switch self {
        case .y4m: .y4m
        case .nut: .nut
        case .rawvideo: .rawvideo
        }
    }
}

enum OutputLayoutArgument: String, ExpressibleByArgument, CaseIterable {
    case yuv420p, yuyv, nv12

    var layout: CapturePixelFormat {
        switch self {
        case .yuv420p: .yuv420p
        case .yuyv: .yuyv
        case .nv12: .nv12
        }
    }
}

extension CameraFeedSummary.Ending {
    var words: String {
        switch self {
        case .duration: "--duration"
        case .script: "the script's stop"
        case .readerLeft: "the reader, which quit"
        case .quit: "q"
        case .interrupted: "Ctrl-C"
        }
    }
}
