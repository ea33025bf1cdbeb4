import Foundation
import VRenderCapture
import VRenderCore
import VRenderMedia

/// What to record.
public struct RecordingPlan: Sendable {
    public var outputDirectory: String
    /// Takes to record in batch mode.
    public var takes: Int
    /// Length of each take; nil: until the script's `stop` (or the user, interactively).
    public var duration: Double?
    /// Seconds before the trigger that a take starts with.
    public var preroll: Double
    public var codec: VideoCodecChoice
    public var script: ActionScript?
    /// Test hook: extra time the writer spends per frame, to show that a slow encoder makes a
    /// live capture drop frames instead of falling behind.
    public var writerDelay: Double

    public init(outputDirectory: String, takes: Int = 1, duration: Double? = nil, preroll: Double = 0,
                codec: VideoCodecChoice = .auto, script: ActionScript? = nil, writerDelay: Double = 0) {
        self.outputDirectory = outputDirectory
        self.takes = takes
        self.duration = duration
        self.preroll = preroll
        self.codec = codec
        self.script = script
        self.writerDelay = writerDelay
    }
}

/// What the recorder tells its user (the CLI's status line and messages).
public enum RecorderEvent: Sendable {
    case takeStarted(index: Int)
    case takeFinished(TakeEntry)
    /// A control was clamped or is unsupported: the message says how.
    case notice(String)
    /// Periodic status while recording.
    case status(RecorderStatus)
}

public struct RecorderStatus: Sendable {
    public var take: Int
    public var recording: Bool
    public var seconds: Double
    public var fps: Double
    public var dropped: Int
    public var camera: CameraState
}

/// Commands from the keyboard (interactive capture), polled by the capture loop.
public enum LiveCommand: Sendable, Equatable {
    case toggleRecording
    case control(CameraControl, cause: String)
    case toggleTorch
    /// Ramp the zoom one doubling up or down (the +/- keys).
    case zoomStep(up: Bool)
    case quit
}

/// Records takes from a capture source through the frame ring into segment files and
/// `takes.json`. The calling thread captures; one writer thread encodes.
public final class Recorder: @unchecked Sendable {
    private let source: any CaptureSource
    private let plan: RecordingPlan
    private let events: @Sendable (RecorderEvent) -> Void
    private let stop = StopSignal()
    /// Keys, for interactive capture (nil in batch mode).
    private let commands: BoundedQueue<LiveCommand>?
    let log = TakeLog()

    public init(source: any CaptureSource, plan: RecordingPlan, commands: BoundedQueue<LiveCommand>? = nil,
                events: @escaping @Sendable (RecorderEvent) -> Void = { _ in }) {
        self.source = source
        self.plan = plan
        self.commands = commands
        self.events = events
    }

    /// Ends recording from any thread (Ctrl-C): the take in progress is finished and kept.
    public func requestStop() { stop.raise() }

    /// Records until the planned takes are done (batch) or the user quits (interactive).
    /// Returns the takes recorded, also saved in `takes.json`.
    public func run() throws -> [TakeEntry] {
        let format = source.format
        let interval = 1 / format.frameRate.doubleValue
        let prerollFrames = Int((plan.preroll * format.frameRate.doubleValue).rounded(.up))
        // Room for the pre-roll plus half a second of encoder latency.
        let slotCount = prerollFrames + Swift.max(8, Int((format.frameRate.doubleValue / 2).rounded()))
        let ring = try FrameRing(slotCount: slotCount, width: format.width, height: format.height,
                                 live: source.isLive, prerollFrames: prerollFrames)
        let manifest = try TakesManifest.load(from: plan.outputDirectory)
        let writer = TakeWriterStage(ring: ring, plan: plan, format: format, deviceName: source.name,
                                     live: source.isLive, log: log, manifest: manifest,
                                     firstNumber: try TakesFolder.nextTakeNumber(in: plan.outputDirectory), events: events)
        let writerDone = DispatchSemaphore(value: 0)
        let writerResult = ResultBox()
        Thread {
            do { writerResult.entries = try writer.run() } catch {
                writerResult.error = error
                ring.cancel()
            }
            writerDone.signal()
        }.start()

        var captureError: (any Error)?
        do {
            try captureLoop(ring: ring, interval: interval)
        } catch {
            captureError = error
        }
        source.stop()
        ring.finish()
        writerDone.wait()
        if let error = captureError ?? writerResult.error { throw error }
        return writerResult.entries
    }

    // MARK: - Capture loop

    private func captureLoop(ring: FrameRing, interval: Double) throws {
        try source.start()
        let interactive = commands != nil
        var take = -1                  // index of the take recording now, -1 when idle
        var takesStarted = 0
        var takeStart = 0.0
        var takeEnd = Double.infinity  // take-relative end (duration or script stop)
        var scriptIndex = 0
        var lastTime: Double?
        var triggerTime = plan.preroll // batch: the first take is "pressed" after the pre-roll
        var quitting = false
        var statusClock = 0.0
        var framesSinceStatus = 0

        func beginTake(at time: Double) {
            takesStarted += 1
            take = takesStarted - 1
            takeStart = time
            takeEnd = Swift.min(plan.duration ?? .infinity, plan.script?.stopTime ?? .infinity)
            scriptIndex = 0
            let preroll = ring.beginTake(take, prerollSince: time - plan.preroll)
            log.begin(take: take, state: source.state, at: time, preroll: Double(preroll) * interval)
            events(.takeStarted(index: take))
        }
        func endTake() {
            ring.endTake(take)
            take = -1
        }
        func apply(_ control: CameraControl, at time: Double, cause: String) {
            let outcome = source.apply(control, at: time)
            switch outcome {
            case .applied: break
            case .clamped(let message), .unsupported(let message): events(.notice("\(cause): \(message)"))
            }
            if take >= 0 { log.record(take: take, state: source.state, at: time - takeStart, cause: cause) }
        }

        while true {
            let upcoming = lastTime.map { $0 + interval } ?? 0
            if stop.isRaised { quitting = true }
            // A take ends before the next one may begin on the same frame: no frame is lost
            // between back-to-back takes.
            if take >= 0 && (upcoming - takeStart >= takeEnd - interval / 2 || quitting) {
                endTake()
                triggerTime = upcoming
            }
            // Keys (interactive) or the batch plan start and stop takes.
            if let commands {
                while commands.depth > 0, let command = commands.pop() {
                    switch command {
                    case .toggleRecording:
                        if take >= 0 { endTake() } else { beginTake(at: upcoming) }
                    case .control(let control, let cause):
                        apply(control, at: upcoming, cause: cause)
                    case .toggleTorch:
                        apply(.torch(level: source.state.torch > 0 ? 0 : 1), at: upcoming, cause: "key t")
                    case .zoomStep(let up):
                        let zoom = source.state.zoom
                        apply(.rampZoom(to: up ? zoom * 2 : zoom / 2, rate: 2), at: upcoming, cause: up ? "key +" : "key -")
                    case .quit:
                        quitting = true
                    }
                }
                if quitting && take >= 0 { endTake() }
            } else if !quitting && take < 0 && takesStarted < plan.takes && upcoming >= triggerTime - interval / 2 {
                beginTake(at: upcoming)
            }
            if quitting || (!interactive && take < 0 && takesStarted >= plan.takes) { break }
            // Script actions due by the upcoming frame, relative to the take's start.
            if take >= 0, let script = plan.script {
                while scriptIndex < script.actions.count,
                      script.actions[scriptIndex].time <= upcoming - takeStart + interval / 2 {
                    let action = script.actions[scriptIndex]
                    scriptIndex += 1
                    if case .control(let control) = action.command {
                        apply(control, at: upcoming, cause: "\(script.source):\(action.line)")
                    }
                }
            }

            guard let slot = ring.acquire() else { break }
            let frame = ring.slots[slot]
            try frame.makeWritable()
            guard let info = try source.nextFrame(into: frame) else {
                ring.release(slot)
                if take >= 0 { endTake() }
                events(.notice("\(source.name): the device went away; the take was ended and kept"))
                break
            }
            lastTime = info.time
            if take >= 0 { ring.addDeviceDrops(info.droppedBefore, take: take) }
            ring.commit(slot: slot, info: info, take: take >= 0 ? take : nil)

            framesSinceStatus += 1
            if info.time - statusClock >= 0.5 {
                let fps = Double(framesSinceStatus) / Swift.max(info.time - statusClock, interval)
                events(.status(RecorderStatus(take: Swift.max(take, takesStarted - 1) + 1, recording: take >= 0,
                                              seconds: take >= 0 ? info.time - takeStart : 0, fps: fps,
                                              dropped: take >= 0 ? ring.dropped(take: take) : 0, camera: source.state)))
                statusClock = info.time
                framesSinceStatus = 0
            }
        }
        if take >= 0 { endTake() }
    }
}

/// Holds what the writer thread produced.
private final class ResultBox: @unchecked Sendable {
    var entries: [TakeEntry] = []
    var error: (any Error)?
}

/// Per-take facts the capture thread learns (start time, camera timeline) and the writer
/// thread needs to write the manifest entry.
final class TakeLog: @unchecked Sendable {
    struct Record {
        var created: Date
        var preroll: Double
        var timeline: [TakeEntry.TimelineEvent]
    }

    private let lock = ConditionLock()
    private var records: [Int: Record] = [:]

    func begin(take: Int, state: CameraState, at time: Double, preroll: Double) {
        lock.withLock {
            records[take] = Record(created: Date(), preroll: preroll, timeline: [
                TakeEntry.TimelineEvent(time: 0, position: state.position, lens: state.lens, zoom: state.zoom,
                                        torch: state.torch, cause: "start"),
            ])
        }
    }

    func record(take: Int, state: CameraState, at time: Double, cause: String) {
        lock.withLock {
            records[take]?.timeline.append(TakeEntry.TimelineEvent(time: time, position: state.position, lens: state.lens,
                                                                   zoom: state.zoom, torch: state.torch, cause: cause))
        }
    }

    func record(for take: Int) -> Record? { lock.withLock { records[take] } }
}
