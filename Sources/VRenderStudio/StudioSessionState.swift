import Synchronization
import VRenderCore
import VRenderRecording

/// Where a take stands, as the pages see it: the recorder's own state (from its events), and
/// a start or stop on its way to it.
package enum RecordingState: Sendable, Equatable {
    case idle
    /// A start is on its way to the recorder, which records nothing yet.
    case starting
    /// The recorder records take `take` (0-based in this capture).
    case recording(take: Int)
    /// A stop is on its way; the recorder still records (and goes on when the stop comes under
    /// `TakeScheduler.shortestStop` into the take: a double press).
    case stopping(take: Int)

    /// Whether the recorder records a take now.
    package var isRecording: Bool {
        switch self {
        case .idle, .starting: false
        case .recording, .stopping: true
        }
    }

    /// The page's name for it (`StudioState.recordingState`).
    package var phase: StudioState.RecordingPhase {
        switch self {
        case .idle: .idle
        case .starting: .starting
        case .recording: .recording
        case .stopping: .stopping
        }
    }
}

/// What reaches the session's state from the capture thread, in the order it happened there.
enum StudioInput: Sendable {
    /// Capture ended (the studio stops, the camera failed or went away).
    case cameraClosed
    case takeStarted(Int)
    case takeEnded(Int)
    /// Every command pushed up to this count was drained and performed before a frame.
    case drained(Int)
}

/// The studio's one state: the take the recorder records, the start or stop on its way, and
/// whether an export runs. One owner (this actor): the pages' requests
/// and the recorder's events change it here, one at a time, and each change is published to the
/// pages (`publish`) in the order made. The recording state follows what the recorder did (its
/// `.takeStarted`/`.takeEnded` events and the drained commands), never what was asked: a stop
/// it ignores leaves the take shown recording, a take it ends by itself shows idle.
actor StudioSessionState {
    /// The recorder's commands. Only this actor pushes them (and `stop()` its last `.quit`),
    /// and never into a full queue: a command is refused, never dropped.
    let commands: BoundedQueue<LiveCommand>
    /// Commands pushed so far; the capture thread acknowledges them (`StudioInput.drained`).
    let pushed: CommandCount
    /// The session's side: shows a new state to the pages, says a take started, and whether the
    /// capture job runs (closed before the pages are told why). Set once, by `attach`.
    struct Ends: Sendable {
        var publish: @Sendable (RecordingState) -> Void = { _ in }
        var takeStarted: @Sendable (Int) -> Void = { _ in }
        var cameraOpen: @Sendable () -> Bool = { false }
    }

    // Inferred, not spelled `Mutex<Ends>` (see VRenderCore/TSanMutex.swift).
    private let ends = Mutex(Ends())

    private var recorderTake: Int?
    /// The last start and the last stop pushed and not acknowledged yet (their counts).
    private var pendingStart: Int?
    private var pendingStop: Int?
    private var exporting = false
    private var shown = RecordingState.idle

    init(commands: BoundedQueue<LiveCommand>, pushed: CommandCount) {
        self.commands = commands
        self.pushed = pushed
    }

    /// The session's ends, given once it exists, before the camera opens.
    nonisolated func attach(_ ends: Ends) {
        self.ends.withLock { $0 = ends }
    }

    var recording: RecordingState { shown }

    /// A page's record (true) or stop: sent to the recorder whatever the state shows (it starts
    /// or stops idempotently, and a take may have ended meanwhile); refused only when it cannot
    /// be done at all.
    func record(_ on: Bool) throws {
        if on, exporting { throw StudioActionError(status: 409, "an export is running: wait for it or cancel it before recording") }
        let ticket = try send(on ? .startRecording : .stopRecording)
        if on { pendingStart = ticket } else { pendingStop = ticket }
        show()
    }

    /// Pushes a command for the capture loop; its count. Refused while the camera is closed,
    /// and (503) when the loop has not drained the queue's capacity of commands: never dropped.
    @discardableResult
    func send(_ command: LiveCommand) throws -> Int {
        guard ends.withLock({ $0.cameraOpen })() else { throw StudioActionError(status: 409, "the camera is not open") }
        guard commands.depth < commands.capacity else {
            throw StudioActionError(status: 503, "the camera is not taking commands now (\(commands.capacity) waiting): try again")
        }
        commands.push(command)
        return pushed.add()
    }

    /// Claims the studio for an export: refused while a take records or a start is on its way.
    func claimExport() throws {
        if exporting { throw StudioActionError(status: 409, "an export is running: wait for it or cancel it") }
        if shown != .idle { throw StudioActionError(status: 409, "stop recording first: an export joins the finished takes") }
        exporting = true
    }

    /// The export ended (or failed to start); `then` runs in the same step, so no record
    /// pressed on seeing the end is refused, and no new export's start comes between.
    func endExport(then: @Sendable () -> Void = {}) {
        exporting = false
        then()
    }

    func apply(_ input: StudioInput) {
        switch input {
        case .cameraClosed:
            recorderTake = nil
            pendingStart = nil
            pendingStop = nil
        case .takeStarted(let take):
            recorderTake = take
            ends.withLock { $0.takeStarted }(take)
        case .takeEnded(let take):
            if recorderTake == take { recorderTake = nil }
        case .drained(let count):
            if let ticket = pendingStart, ticket <= count { pendingStart = nil }
            if let ticket = pendingStop, ticket <= count { pendingStop = nil }
        }
        show()
    }

    /// The state from the recorder's take and the command on its way, published when it changed.
    private func show() {
        // A start on its way begins a take whatever stop comes with it (under the shortest
        // stop); a stop on its way may end the take recording.
        let state: RecordingState = switch recorderTake {
        case nil: pendingStart == nil ? .idle : .starting
        case let take?: pendingStop == nil ? .recording(take: take) : .stopping(take: take)
        }
        guard state != shown else { return }
        shown = state
        ends.withLock { $0.publish }(state)
    }
}

/// Commands pushed so far, counted by the session's state and read by the capture thread.
final class CommandCount: Sendable {
    private let value = Atomic(0)

    /// Counts one more; the new count.
    func add() -> Int { value.add(1, ordering: .sequentiallyConsistent).newValue }

    var count: Int { value.load(ordering: .sequentiallyConsistent) }

    func set(_ count: Int) { value.store(count, ordering: .sequentiallyConsistent) }
}
