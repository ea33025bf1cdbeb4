import Foundation
import VRenderCapture
import VRenderCore
import VRenderMedia
import VRenderTakes

/// Everything `vrender capture` can be asked, already parsed.
public struct CaptureOptions: Sendable {
    /// `synthetic[:seed=N]` or a V4L2 device path (see `CaptureDevices`).
    public var device: String
    /// Rate, size, position and the starting lens, zoom and torch.
    public var request: CaptureRequest
    /// Where the takes go, how many, how long, and the script.
    public var plan: RecordingPlan
    /// Let FFmpeg's own warnings through to standard error.
    public var verbose: Bool
    /// `--audio`: auto, none, synthetic[:seed=N], alsa:DEVICE or pulse:SOURCE.
    public var audio: String
    /// `--audio-rate`, `--audio-channels`, `--audio-drift`.
    public var audioRequest: AudioRequest

    public init(device: String, request: CaptureRequest, plan: RecordingPlan, verbose: Bool = false,
                audio: String = "none", audioRequest: AudioRequest = AudioRequest()) {
        self.device = device
        self.request = request
        self.plan = plan
        self.verbose = verbose
        self.audio = audio
        self.audioRequest = audioRequest
    }
}

/// One `vrender capture`: makes the takes folder, opens the device through `CaptureDevices`,
/// records, and, when that fails, takes back the folders it made (while they are empty, so
/// no take is ever lost). Every error it throws is a `VRenderError` that names the device, the
/// folder or the option at fault.
public final class CaptureJob: Sendable {
    public let options: CaptureOptions
    private let stop = StopSignal()
    /// Raised by a stop requested once the recording has ended: the end stops waiting for the
    /// folder's lock (`RecordingPlan.listingWait`).
    private let giveUp = StopSignal()
    /// Where the recording's stages record their frame times (`vrender bench capture`).
    private let timings: StageTimings?

    public init(options: CaptureOptions, timings: StageTimings? = nil) {
        self.options = options
        self.timings = timings
    }

    /// Ends the capture from any thread (Ctrl-C): the take in progress is finished and kept,
    /// and `run` returns the takes recorded. Asked again once the recording has ended (a second
    /// Ctrl-C while the end waits for the folder's lock), stops that wait: the takes not listed
    /// yet are left, complete, for `vrender takes recover`, and `run` throws naming them.
    public func requestStop() {
        if stop.isRaised { giveUp.raise() }
        stop.raise()
    }

    /// Records the takes. `commands`: keys, for interactive capture (nil: batch). `preview`:
    /// offered every frame (the studio's page). `events`: the source opened, notices, status
    /// and finished takes, for the user to see.
    public func run(commands: BoundedQueue<LiveCommand>? = nil, preview: (any LivePreview)? = nil,
                    events: @escaping @Sendable (RecorderEvent) -> Void = { _ in }) throws -> [TakeEntry] {
        FFmpegLog.configure(verbose: options.verbose)
        let folders = try FolderCreation(path: options.plan.outputDirectory)
        do {
            // Takes a killed capture left behind (or a damaged takes.json, which throws): said
            // before new takes join them, so the user knows to run `vrender takes recover`.
            if let notice = try TakesRecovery.pendingNotice(in: options.plan.outputDirectory) {
                events(.notice(notice))
            }
            // Errors from below that name nothing (an encoder's, a file system's) get the device.
            return try VRenderError.attributing(to: options.device, as: .runtime) {
                let sources = try CaptureSources(options: options)
                if let picked = sources.picked { events(.microphoneChosen(picked)) }
                for notice in sources.notices { events(.notice(notice)) }
                let recorder = Recorder(source: sources.camera, microphone: sources.microphone, plan: options.plan,
                                        commands: commands, stop: stop, giveUp: giveUp, timings: timings, preview: preview,
                                        events: events)
                return try recorder.run()
            }
        } catch {
            folders.undo()
            throw error
        }
    }
}

/// Makes a folder and its missing parents, remembering which it made, so a failed capture can
/// take back exactly those and leave every folder that was there before.
struct FolderCreation {
    /// The folders made, deepest first.
    let made: [String]

    /// Creates `path` and its missing parents. Throws `VRenderError.output(path, …)`.
    init(path: String) throws {
        made = Self.missingFolders(path)
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw VRenderError.output(path, "cannot create the folder (\(VRenderError.systemReason(error)))")
        }
    }

    /// Removes the folders made, deepest first, stopping at the first that is not empty:
    /// rmdir(2) removes a folder only while it is empty, so nothing inside is ever lost. A
    /// folder holding the lock file (a take was started in it) stays: another command may hold
    /// or be waiting for that lock, and removing the file would let the next command lock a new
    /// one beside them (`FolderLock`).
    func undo() {
        for folder in made {
            guard rmdir(folder) == 0 else { return }
        }
    }

    /// `path` and those of its parents that do not exist yet, deepest first: what
    /// `createDirectory(withIntermediateDirectories:)` will make.
    static func missingFolders(_ path: String) -> [String] {
        var missing: [String] = []
        var current = path
        while current.count > 1 && current.hasSuffix("/") { current.removeLast() }
        var status = stat()
        while !current.isEmpty, current != "/", current != ".", lstat(current, &status) != 0, SystemError.last.code == ENOENT {
            missing.append(current)
            current = FileNames.split(current).directory
        }
        return missing
    }
}
