import ArgumentParser
import Foundation
import VRenderCapture
import VRenderCore
import VRenderMedia
import VRenderRecording

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

                Keys on a terminal: space start/stop a take, 0/1/2 lens 0.5x/1x/2x, +/- ramp the \
                zoom, t torch, f flip the camera, q quit.

                Script lines: 'at 1.5s zoom 2 ramp 4', 'at 0s lens 0.5', 'at 2s torch on', \
                'at 3s flip', 'at 1s focus 0.2 0.8', 'at 4s stop' (times from each take's start).
                """)

        @Option(help: ArgumentHelp("Camera: a V4L2 device path (/dev/video0) or synthetic[:seed=N].", valueName: "device"))
        var device: String

        @Option(help: ArgumentHelp("Folder for the takes (created if missing).", valueName: "dir"))
        var out: String

        @Option(help: "Number of takes to record (batch mode).")
        var takes = 1

        @Option(help: ArgumentHelp("Length of each take, e.g. 4s or 1500ms.", valueName: "time"))
        var duration: String?

        @Option(help: ArgumentHelp("Frame rate to capture at (default 30).", valueName: "rate"))
        var fps: String = "30"

        @Option(help: ArgumentHelp("Capture size WxH (narrows the format choice).", valueName: "WxH"))
        var size: String?

        @Option(help: "Camera position (synthetic camera): back or front.")
        var position: PositionArgument = .back

        @Option(help: ArgumentHelp("Start on this lens: 0.5, 1 or 2.", valueName: "factor"))
        var lens: Double?

        @Option(help: ArgumentHelp("Start at this zoom factor (clamped to the camera's range).", valueName: "factor"))
        var zoom: Double?

        @Flag(help: "Start with the torch on.")
        var torch = false

        @Option(help: ArgumentHelp("Action script driving each take.", valueName: "file"))
        var script: String?

        @Option(help: ArgumentHelp("Seconds before the trigger each take starts with, e.g. 2s.", valueName: "time"))
        var preroll: String = "0s"

        @Option(help: "Video codec: auto (HEVC when it opens and keeps up, else H.264), hevc or h264.")
        var codec: CaptureCodecArgument = .auto

        @Flag(help: "Pace the synthetic camera to real time (V4L2 cameras always are).")
        var realtime = false

        @Flag(help: "Print the recorded takes as JSON on standard output.")
        var json = false

        func validate() throws {
            if takes < 1 { throw ValidationError("--takes must be at least 1") }
            if let duration, (ValueSyntax.seconds(duration) ?? 0) <= 0 {
                throw ValidationError("--duration '\(duration)' is not a positive time (e.g. 4s, 1500ms)")
            }
            if ValueSyntax.frameRate(fps) == nil { throw ValidationError("--fps '\(fps)' is not a frame rate (e.g. 30, 60)") }
            if let size, ValueSyntax.size(size) == nil { throw ValidationError("--size '\(size)' is not WxH with even sides") }
            if ValueSyntax.seconds(preroll) == nil { throw ValidationError("--preroll '\(preroll)' is not a time (e.g. 2s)") }
            if let lens, ![0.5, 1, 2].contains(lens) { throw ValidationError("--lens must be 0.5, 1 or 2") }
        }

        func run() throws {
            FFmpegLog.configure(verbose: false)
            let created = Self.missingFolders(out)
            do {
                try record()
            } catch {
                // A capture that failed must not leave behind folders it made for nothing.
                // rmdir(2) removes a folder only while it is empty, so takes are never lost.
                for folder in created {
                    guard rmdir(folder) == 0 else { break }   // not empty: keep it and its parents
                }
                throw ErrorReporting.exitCode(for: error, context: device)
            }
        }

        /// `path` and those of its parents that do not exist yet, deepest first: what
        /// `createDirectory(withIntermediateDirectories:)` will make.
        static func missingFolders(_ path: String) -> [String] {
            var missing: [String] = []
            var current = path
            while current.count > 1 && current.hasSuffix("/") { current.removeLast() }
            var status = stat()
            while !current.isEmpty, current != "/", current != ".", lstat(current, &status) != 0, errno == ENOENT {
                missing.append(current)
                current = (current as NSString).deletingLastPathComponent
            }
            return missing
        }

        private func record() throws {
            let script = try self.script.map { path -> ActionScript in
                guard let data = FileManager.default.contents(atPath: path) else {
                    throw VRenderError.input(path, "cannot read the script")
                }
                return try ActionScript(text: String(decoding: data, as: UTF8.self), source: path)
            }
            let duration = self.duration.flatMap(ValueSyntax.seconds)
            let interactive = duration == nil && script?.stopTime == nil
            if interactive && isatty(STDIN_FILENO) == 0 {
                throw VRenderError.option("--duration", "needed when standard input is not a terminal (or a script with 'at <time> stop')")
            }
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)

            let request = CaptureRequest(frameRate: ValueSyntax.frameRate(fps)!, size: size.flatMap(ValueSyntax.size),
                                         position: position.value, realtime: realtime)
            let source = try CaptureDevices.open(device, request: request)
            let format = source.format
            FileHandle.standardError.write(Data("capture: \(source.name): \(format.pixelFormat.rawValue) \(format.width)x\(format.height) at \(format.frameRate) fps (\(format.reason))\n".utf8))
            // Starting controls go through the same path as script actions, so a clamp is reported.
            var startControls: [(CameraControl, String)] = []
            if let lens { startControls.append((.lens(lens), "--lens")) }
            if let zoom { startControls.append((.zoom(zoom), "--zoom")) }
            if torch { startControls.append((.torch(level: 1), "--torch")) }
            for (control, option) in startControls {
                switch source.apply(control, at: 0) {
                case .applied: break
                case .clamped(let message), .unsupported(let message):
                    FileHandle.standardError.write(Data("vrender: notice: \(option): \(message)\n".utf8))
                }
            }

            let commands = interactive ? BoundedQueue<LiveCommand>(capacity: 64) : nil
            let status = StatusPrinter(enabled: isatty(STDERR_FILENO) != 0)
            let plan = RecordingPlan(outputDirectory: out, takes: takes, duration: duration,
                                     preroll: ValueSyntax.seconds(preroll) ?? 0, codec: codec.value, script: script)
            let recorder = Recorder(source: source, plan: plan, commands: commands) { event in
                status.handle(event)
            }
            let interrupts = InterruptHandling.install { recorder.requestStop() }
            defer { withExtendedLifetime(interrupts) {} }
            var keyboard: KeyboardReader?
            if let commands {
                keyboard = KeyboardReader(commands: commands)
                FileHandle.standardError.write(Data("capture: space starts/stops a take, 0/1/2 lens, +/- zoom, t torch, f flip, q quits\n".utf8))
            }
            defer { keyboard?.restore() }
            let recorded = try recorder.run()
            status.finish()
            if json {
                try JSONOutput.print(recorded)
            } else {
                print("captured \(recorded.count) take(s) into \(out) (\(TakesManifest.fileName))")
            }
            if InterruptHandling.wasInterrupted { throw ExitCode(130) }
        }
    }
}

enum PositionArgument: String, ExpressibleByArgument, CaseIterable {
    case back, front
    var value: CameraPosition { self == .back ? .back : .front }
}

enum CaptureCodecArgument: String, ExpressibleByArgument, CaseIterable {
    case auto, hevc, h264
    var value: VideoCodecChoice {
        switch self {
        case .auto: return .auto
        case .hevc: return .hevc
        case .h264: return .h264
        }
    }
}
