import Foundation
import Synchronization
import VRenderCapture
import VRenderCore
import VRenderMedia
import VRenderPrompter
import VRenderTakes

/// What to record.
public struct RecordingPlan: Sendable {
    /// The takes' video codec, under a name the command line reaches without importing
    /// VRenderMedia (it calls this library, not the media layer).
    package typealias Codec = VideoCodecChoice

    public var outputDirectory: String
    /// Takes to record in batch mode.
    public var takes: Int
    /// Length of each take; nil: until the script's `stop` (or the user, interactively).
    public var duration: Double?
    /// Seconds before the trigger that a take starts with.
    public var preroll: Double
    public var codec: VideoCodecChoice
    public var script: ActionScript?
    /// The teleprompter, made once the source's picture size is known; it scrolls while takes
    /// record and each take's scroll goes into its takes.json entry. Nil: no prompter.
    public var prompter: PrompterSession.Factory?
    /// The prompter's script read aloud by the synthetic microphone (`setPrompter`); nil: no
    /// prompter, or nobody reads it.
    public var presenter: PresenterPlan?
    /// How long the end of the capture waits for the folder's lock when another process holds
    /// it and takes recorded are not listed in takes.json yet (they are complete on disk); nil:
    /// until they are, or until a stop is requested once more (a second Ctrl-C). Takes left
    /// unlisted are named in the error, for `vrender takes recover`.
    public var listingWait: Duration?

    public init(outputDirectory: String, takes: Int = 1, duration: Double? = nil, preroll: Double = 0,
                codec: VideoCodecChoice = .auto, script: ActionScript? = nil, prompter: PrompterSession.Factory? = nil,
                listingWait: Duration? = nil) {
        self.outputDirectory = outputDirectory
        self.takes = takes
        self.duration = duration
        self.preroll = preroll
        self.codec = codec
        self.script = script
        self.prompter = prompter
        self.listingWait = listingWait
    }

    /// True when nothing in the plan ends a take (no duration, no script `stop`): takes are
    /// then started and stopped by keys.
    public var isOpenEnded: Bool { duration == nil && script?.stopTime == nil }
}

/// What the recorder tells its user (the CLI's status line and messages).
public enum RecorderEvent: Sendable {
    /// The source is open and about to capture in this format.
    case sourceOpened(name: String, format: NegotiatedFormat)
    /// `--codec auto` on a live source: the codec this machine keeps up with, and why.
    case codecChosen(LiveCodecCalibration.Choice)
    /// `--audio auto`: the microphone it picked, as the capture opens (never for a microphone
    /// the user named).
    case microphoneChosen(MicrophonePick)
    case takeStarted(index: Int)
    /// The capture loop ended take `index` (a stop, `--duration`, the script's `stop`, the
    /// device gone, quitting): its last frame is captured, its file still being finished.
    /// `.takeFinished` follows once it is listed (never, when it cannot be).
    case takeEnded(index: Int)
    case takeFinished(TakeEntry)
    /// A finished take was read back: its entry with `check` set. A check with a problem is
    /// to be reported loudly (the take is empty or broken).
    case takeChecked(TakeEntry)
    /// A control (a starting option, a script line or a key) was clamped or is unsupported, or
    /// the device went away: the message says how, naming the cause.
    case notice(String)
    /// Periodic status while recording.
    case status(RecorderStatus)
    /// The prompter's view, whenever what it shows changes (its top line, state, speed, size
    /// or percentage) and at each take's start; only with a prompter.
    case prompter(PrompterView)
}

public struct RecorderStatus: Sendable {
    public var take: Int
    public var recording: Bool
    public var seconds: Double
    public var fps: Double
    public var dropped: Int
    /// Seconds of frames waiting in the ring for the encoder: what a kill now would lose
    /// beyond the last fragment (the ring grows while the encoder is behind).
    public var behind: Double
    public var camera: CameraState
    /// The microphone's meter (nil: silent takes).
    public var sound: SoundStatus?
}

/// The sound part of the status line.
public struct SoundStatus: Sendable {
    /// The loudest sample of the last half second, dBFS (−inf: silence).
    public var peakDBFS: Double
    /// A sample reached full scale in the last two seconds: the input gain is too high.
    public var clipping: Bool
    /// Milliseconds of the take in progress with no sound from the device.
    public var missingMilliseconds: Double
}

/// Commands from the keyboard (interactive capture), polled by the capture loop.
public enum LiveCommand: Sendable, Equatable {
    /// Start a take when none records, else stop it (capture's space key).
    case toggleRecording
    /// Start a take; nothing when one records (the studio's record: two pages pressing it
    /// start one take).
    case startRecording
    /// Stop the take recording, under `TakeScheduler.shortestStop`'s rule; nothing when none is.
    case stopRecording
    case control(CameraControl, cause: String)
    case toggleTorch
    /// Ramp the zoom one doubling up or down (the +/- keys).
    case zoomStep(up: Bool)
    /// Hold or resume the prompter, change its speed or text size (`cause`: "key ]").
    case prompter(PrompterCommand, cause: String)
    case quit
}

/// Records takes from a capture source through the frame ring into segment files and
/// `takes.json`. The calling thread captures; one writer thread encodes.
// @unchecked Sendable: the source is used only by the thread in `run()`; other threads only
// call `requestStop()`, which touches the (thread-safe) StopSignal.
package final class Recorder: @unchecked Sendable {
    private let source: any CaptureSource
    /// The microphone recorded with every take (nil: silent takes).
    private let microphone: (any AudioSource)?
    private let plan: RecordingPlan
    private let events: @Sendable (RecorderEvent) -> Void
    private let stop: StopSignal
    /// Raised by a stop requested after the recording ended: stop waiting for the folder's lock.
    private let giveUp: StopSignal
    /// Keys, for interactive capture (nil in batch mode).
    private let commands: BoundedQueue<LiveCommand>?
    private let makeWriter: TakeWriterFactory
    /// Picks `--codec auto`'s codec for a live source (nil: HEVC first, unmeasured).
    private let chooseLiveCodec: LiveCodecCalibration.Chooser?
    /// Where the stages record their frame times and the ring its occupancy (nil: not measured).
    private let timings: StageTimings?
    /// Shown the frames it is ready for while capturing (nil: no preview).
    private let preview: (any LivePreview)?

    /// - Parameters:
    ///   - source: the camera, opened; the recorder starts and stops it.
    ///   - microphone: the sound source recorded with every take; nil records silent takes.
    ///   - plan: where the takes go, how many, how long, the codec and the script.
    ///   - events: what happens, for the user to see: the source opened, takes started,
    ///     finished and checked, notices and status (called from the capture, writer and checker
    ///     threads: keep it quick).
    ///   - commands: keys, for interactive capture; nil records the plan's takes in batch.
    ///   - stop: raised (from any thread, e.g. on Ctrl-C) to end the take in progress and stop;
    ///     raised by the recorder itself once the recording has ended.
    ///   - giveUp: raised to stop waiting for the folder's lock at the end (`plan.listingWait`).
    ///   - timings: a collector for per-stage frame times (`vrender bench capture`).
    ///   - preview: offered every frame captured (the studio's page).
    package convenience init(source: any CaptureSource, microphone: (any AudioSource)? = nil, plan: RecordingPlan,
                            commands: BoundedQueue<LiveCommand>? = nil,
                            stop: StopSignal = StopSignal(), giveUp: StopSignal = StopSignal(), timings: StageTimings? = nil,
                            preview: (any LivePreview)? = nil,
                            events: @escaping @Sendable (RecorderEvent) -> Void = { _ in }) {
        self.init(source: source, microphone: microphone, plan: plan, commands: commands, stop: stop, giveUp: giveUp,
                  writers: SegmentWriter.factory, liveCodec: LiveCodecCalibration.measure, timings: timings,
                  preview: preview, events: events)
    }

    /// As the public initializer, with the writer each take is written through (tests).
    init(source: any CaptureSource, microphone: (any AudioSource)? = nil, plan: RecordingPlan,
         commands: BoundedQueue<LiveCommand>? = nil,
         stop: StopSignal = StopSignal(), giveUp: StopSignal = StopSignal(), writers: @escaping TakeWriterFactory,
         liveCodec: LiveCodecCalibration.Chooser? = nil, timings: StageTimings? = nil,
         preview: (any LivePreview)? = nil,
         events: @escaping @Sendable (RecorderEvent) -> Void = { _ in }) {
        chooseLiveCodec = liveCodec
        self.preview = preview
        self.source = source
        self.microphone = microphone
        self.plan = plan
        self.commands = commands
        self.stop = stop
        self.giveUp = giveUp
        self.makeWriter = writers
        self.timings = timings
        self.events = events
    }

    /// Ends recording from any thread (Ctrl-C): the take in progress is finished and kept. Once
    /// the recording has ended, gives up waiting for the folder's lock (`plan.listingWait`).
    package func requestStop() {
        if stop.isRaised { giveUp.raise() }
        stop.raise()
    }

    /// Records until the planned takes are done (batch) or the user quits (interactive).
    /// Returns the takes recorded, also saved in `takes.json`. First reports the source and
    /// how its starting settings came out (`.sourceOpened`, then a `.notice` per clamp).
    /// Takes recorded but left unlisted (the folder's lock held elsewhere past
    /// `plan.listingWait`) are kept on disk, and the error thrown names them.
    package func run() throws -> [TakeEntry] {
        announceSource()
        let format = source.format
        let prerollFrames = Int((plan.preroll * format.frameRate.doubleValue).rounded(.up))
        // Room for the pre-roll and the encoder's delay; a live ring grows while the writer is
        // behind (measuring the codecs, opening a take's encoder) rather than drop frames.
        let sizing = RingSizing(format: format, prerollFrames: prerollFrames)
        let ring = try FrameRing(slotCount: sizing.initialSlots, maxSlotCount: sizing.maxSlots,
                                 width: format.width, height: format.height,
                                 live: source.isLive, prerollFrames: prerollFrames)
        let log = TakeLog()
        let timers = CaptureTimers(timings, liveSource: source.isLive)
        if let timings {
            ring.trackOccupancy()
            timings.watch("ring") { ring.occupancy }
        }
        // A damaged takes.json is refused before anything is recorded; each take re-reads it.
        let listed = try TakesManifest.load(from: plan.outputDirectory)
        let store = try ManifestStore(directory: plan.outputDirectory, events: events)
        let audio = try startMicrophone()   // before the checker's thread starts: it throws
        let checker = TakeChecker(store: store)
        let writer = TakeWriterStage(ring: ring, plan: plan, codec: { self.codec(for: format) }, format: format,
                                     deviceName: source.name,
                                     sound: audio.map { ($0.timeline, $0.source.name) },
                                     live: source.isLive, log: log, store: store, checker: checker,
                                     writers: makeWriter, timers: timers)
        let written = WriterOutcome(writer, ring: ring)

        var captureError: (any Error)?
        do {
            var loop = CaptureLoop(source: source, ring: ring, log: log, plan: plan, audio: audio, preview: preview,
                                   timer: timers.capture, listed: listed.takes, events: events)
            try loop.run(commands: commands, stop: stop)
        } catch {
            captureError = error
        }
        source.stop()
        ring.finish()
        stop.raise()   // the recording is over: a stop requested from now on gives up the wait below
        let entries = written.wait()
        audio?.stop()   // after the writer: the last take reads its sound to its last frame's end
        // Even after a failure: the takes that were finished get their checks, and are listed.
        checker.finish()
        let unlisted = store.finish(waitingAtMost: plan.listingWait, unless: giveUp)
        if let captureError { throw Self.error(captureError, adding: unlisted) }
        let recorded: [TakeEntry]
        do {
            recorded = try entries.get()
        } catch {
            throw Self.error(error, adding: unlisted)
        }
        if let unlisted { throw unlisted }
        return recorded.map { store.entry(for: $0.file) ?? $0 }
    }

    /// The error a capture ends with, saying too which takes are not listed.
    private static func error(_ error: any Error, adding unlisted: VRenderError?) -> any Error {
        guard let unlisted else { return error }
        guard let failure = error as? VRenderError else { return unlisted }
        return VRenderError(failure.kind, subject: failure.subject, reason: failure.reason + "; and " + unlisted.description)
    }

    /// Opens the sound path and starts the audio thread (nil without a microphone). A device
    /// that goes away raises the stop: the take in progress ends with what was recorded.
    private func startMicrophone() throws -> AudioCapture? {
        guard let microphone else { return nil }
        let take = AudioCapture.takeFormat(of: microphone.format)
        let timeline = AudioTimeline(rate: take.rate, channels: take.channels, live: microphone.isLive)
        let capture = AudioCapture(source: microphone, timeline: timeline, events: events,
                                   deviceLost: { [stop] in stop.raise() })
        try VRenderError.attributing(to: microphone.name, as: .input) { try capture.start() }
        return capture
    }

    /// The codec takes are written with: `--codec auto` on a live source is measured first
    /// (on the writer thread, while capture fills the ring, which grows to hold what comes).
    private func codec(for format: NegotiatedFormat) -> VideoCodecChoice {
        guard plan.codec == .auto, source.isLive, let chooseLiveCodec else { return plan.codec }
        let choice = chooseLiveCodec(format)
        events(.codecChosen(choice))
        return choice.codec
    }

    private func announceSource() {
        events(.sourceOpened(name: source.name, format: source.format))
        for notice in source.initialOutcomes.compactMap(\.notice) { events(.notice(notice)) }
    }
}
