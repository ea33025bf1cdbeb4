import ArgumentParser
import Foundation
import VRenderCapture
import VRenderCore
import VRenderPrompter
import VRenderRecording
import VRenderTakes
import VRenderWorkerCommands

extension VRender {
    /// `vrender capture`: record takes from a camera.
    struct Capture: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Record takes from a V4L2 camera or the synthetic camera.",
            discussion: """
                Each take becomes its own file, DIR/segment_<NNNN>_<UUID>.mov (written fragmented, \
                so a take survives a crash up to its last second), with a thumbnail \
                DIR/segment_<NNNN>_<UUID>.png and an entry in DIR/takes.json. NNNN counts on from \
                the takes already in DIR, so 'DIR/*.mov' lists takes in recording order. Takes end \
                after --duration, at a script's 'at <time> stop', or, on a terminal without either, \
                when you press space again.

                A take that ends while another process holds the folder's lock \
                (DIR/.vrender.lock) is kept and listed in takes.json as soon as the lock frees; \
                at the end capture waits for that, saying so, and Ctrl-C then stops waiting: it \
                exits 1 naming each take left for 'vrender takes recover DIR'.

                Keys on a terminal: space start/stop a take, 0/1/2 lens 0.5x/1x/2x, +/- ramp the \
                zoom, t torch, f flip the camera, q quit; with --prompter, p hold/resume the \
                prompter, [ ] slower/faster, < > (or , .) smaller/larger text, r back to the top.

                --prompter FILE scrolls a UTF-8 script while each take records, stops with the \
                take and goes on from there with the next one; each take's scroll goes into \
                takes.json. A new capture into a folder with takes of the same script starts \
                where the last of them ended (from the top when it reached the end). On a \
                terminal it shows above the status line as the picture's box \
                would: one row per line of the script as wrapped in the box, as many rows as the \
                box holds lines, the top row the line at the scroll's offset (offset / line \
                height, rounded down). Speeds are points per second and sizes points, a point \
                being 1/390 of the picture's shorter side; values out of range are clamped, \
                with a notice.

                Script lines: 'at 1.5s zoom 2 ramp 4', 'at 0s lens 0.5', 'at 2s torch on', \
                'at 3s flip', 'at 1s focus 0.2 0.8', 'at 2s clap', 'at 3s audio-gap 200ms', \
                'at 4s stop' (times from each take's start; clap and audio-gap need the \
                synthetic camera recording the synthetic microphone).
                """)

        @OptionGroup var camera: CameraArguments

        @Option(help: "Number of takes to record (batch mode).")
        var takes = 1

        @Option(help: ArgumentHelp("Length of each take, e.g. 4s or 1500ms.", valueName: "time"), transform: DurationArgument.parse)
        var duration: DurationArgument?

        @OptionGroup var start: StartingStateArguments

        @Option(help: ArgumentHelp("Action script driving each take.", valueName: "file"))
        var script: String?

        @Option(help: ArgumentHelp("Seconds before the trigger each take starts with, e.g. 2s (default 0s).", valueName: "time"),
                transform: TimeArgument.parse)
        var preroll = TimeArgument(seconds: 0)

        @Option(help: ArgumentHelp("Sample rate to ask the microphone for, Hz (default: the device's, or 48000).", valueName: "Hz"))
        var audioRate: Int?

        @Option(help: ArgumentHelp("Channels to ask the microphone for, 1-8 (takes are mono or stereo).", valueName: "n"))
        var audioChannels: Int?

        @Option(help: ArgumentHelp("Synthetic microphone only: run its sample clock this many ppm fast (negative: slow), "
                                   + "as a cheap USB microphone's crystal does.", valueName: "ppm"))
        var audioDrift: Double = 0

        @Flag(help: "Pace the synthetic camera to real time (V4L2 cameras always are, and so is an interactive capture).")
        var realtime = false

        @Flag(help: "Print the recorded takes as JSON on standard output.")
        var json = false

        @Option(help: ArgumentHelp("Synthetic camera only: shake it as a hand-held camera shakes, up to AMPLITUDE pixels "
                                   + "(the same frames for the same SEED, default 1); what 'concat --stabilize' takes away.",
                                   valueName: "amplitude[:seed]"))
        var shake: String?

        func validate() throws {
            if takes < 1 { throw ValidationError("--takes must be at least 1") }
            if let shake {
                do { _ = try CameraShake(parsing: shake) } catch let error as VRenderError { throw ValidationError(error.description) }
                if !SyntheticCamera.isSynthetic(camera.device) {
                    throw ValidationError("--shake shakes the synthetic camera only (--device synthetic), not \(camera.device)")
                }
            }
        }

        func run() throws {
            var (options, notices) = try captureOptions()
            let interactive = try options.requireEnding(keys: isatty(STDIN_FILENO) != 0)
            let job = CaptureJob(options: options)
            let interrupts = InterruptHandling.install { job.requestStop() }
            defer { withExtendedLifetime(interrupts) {} }
            let status = StatusPrinter(statusLine: isatty(STDERR_FILENO) != 0, announcesSource: true, keysHelp: interactive,
                                       prompterKeys: camera.prompter != nil,
                                       firstTakeNumber: (try? TakesFolder.nextTakeNumber(in: camera.out)) ?? 1)
            defer { status.finish() }
            for notice in notices { status.handle(.notice(notice)) }
            let keyboard = interactive ? KeyboardReader() : nil
            defer { keyboard?.restore() }

            let recorded = try job.run(commands: keyboard?.commands) { status.handle($0) }
            status.finish()
            if json {
                try JSONOutput.print(recorded)
            } else {
                print("captured \(recorded.count) take(s) into \(camera.out) (\(TakesManifest.fileName))")
            }
            if let broken = TakeEntry.readBackFailure(of: recorded, in: camera.out) { throw broken }
            if InterruptHandling.wasInterrupted { throw ExitCode(130) }
        }

        /// The options as the library takes them, the scripts read (so a bad one fails before the
        /// camera opens), and notices of values clamped.
        private func captureOptions() throws -> (CaptureOptions, notices: [String]) {
            var request = start.request(frameRate: camera.fps, size: camera.size, realtime: realtime)
            request.shake = try shake.map(CameraShake.init(parsing:))
            let plan = RecordingPlan(outputDirectory: camera.out, takes: takes, duration: duration?.seconds,
                                     preroll: preroll.seconds, codec: camera.codec.choice)
            let sound = AudioRequest(sampleRate: audioRate, channels: audioChannels, driftPPM: audioDrift, realtime: realtime)
            var options = CaptureOptions(device: camera.device, request: request, plan: plan, audio: camera.audio,
                                         audioRequest: sound)
            let clamped = camera.prompterSettings.settings
            try options.readScripts(actions: script, prompter: camera.prompter, settings: clamped.settings, voice: camera.voice)
            return (options, camera.prompter == nil ? [] : clamped.notices)
        }
    }
}

