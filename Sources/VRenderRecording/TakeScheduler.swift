import VRenderCapture
import VRenderPrompter

/// What the capture loop does before capturing a frame.
package enum TakeStep: Sendable, Equatable {
    /// Start take `take` with the frame about to be captured (at `time`), pre-roll included.
    case begin(take: Int, at: Double)
    /// End take `take`: the frame about to be captured is not part of it.
    case end(take: Int)
    /// Change a camera control now: from a script line (`cause` is `file:line`) or a key.
    case control(CameraControl, cause: String)
    /// The torch key: on when off, off when on (resolved against the camera when applied).
    case toggleTorch
    /// The +/- keys: ramp the zoom one doubling up or down from where it is.
    case zoomStep(up: Bool)
    /// A prompter key: hold/resume, speed or text size.
    case prompter(PrompterCommand, cause: String)
    /// A stop came `age` seconds into take `take`, under `TakeScheduler.shortestStop`: a double
    /// press, ignored (the take goes on).
    case stopIgnored(take: Int, age: Double)
}

/// When takes begin and end, and when script actions apply, as frames arrive: the capture
/// loop's decisions, without a camera, a ring or an encoder, so each rule is tested alone.
///
/// Batch (no keyboard): `takes` takes back to back, the first "pressed" after the pre-roll,
/// each lasting `duration` or until the script's `stop`. Interactive: the space key starts and
/// stops takes, `q` quits. Either way a stop request (Ctrl-C) ends the take in progress.
///
/// Times are capture times in seconds; a frame "is due" at a time when it lies within half a
/// frame interval of it, so rounding never adds or loses a frame.
package struct TakeScheduler: Sendable {
    /// Takes to record in batch mode.
    package let takes: Int
    /// Length of each take, from `--duration` or the script's `stop` (infinite: until stopped).
    package let takeLength: Double
    /// Seconds of pre-roll: the first batch take begins after this much has been captured.
    package let preroll: Double
    package let script: ActionScript?
    /// Seconds between frames.
    package let interval: Double
    /// Keys drive the takes (true) or the batch plan does (false).
    package let interactive: Bool
    /// A stop pressed sooner than this after its take began is ignored: the one rule for a
    /// double press of space in `capture` and a double click of record in the studio (it
    /// once saved a 0.33 s junk take). Ctrl-C, `q` and the script's `stop` still end a take.
    package static let shortestStop = 0.5

    /// The take recording now, if any.
    package private(set) var recordingTake: Int?
    /// Takes begun so far.
    package private(set) var takesStarted = 0
    /// Capture time the current (or last) take began at.
    package private(set) var takeStart = 0.0
    /// True once capture should stop (after performing the steps that said so).
    package private(set) var isDone = false

    /// Batch: when the next take may begin (the frame after the last one ended).
    private var triggerTime: Double
    /// The next script action for the take in progress.
    private var scriptIndex = 0

    package init(plan: RecordingPlan, interval: Double, interactive: Bool) {
        takes = plan.takes
        takeLength = Swift.min(plan.duration ?? .infinity, plan.script?.stopTime ?? .infinity)
        preroll = plan.preroll
        script = plan.script
        self.interval = interval
        self.interactive = interactive
        triggerTime = plan.preroll
    }

    /// The steps to take before capturing the frame expected at `time`, given the keys pressed
    /// since the last frame (`commands`) and whether a stop was requested. After them, check
    /// `isDone`: when true, capture no more frames.
    package mutating func steps(beforeFrameAt time: Double, commands: [LiveCommand] = [],
                               stopRequested: Bool = false) -> [TakeStep] {
        var steps: [TakeStep] = []
        var quitting = isDone || stopRequested
        // A take ends before the next one may begin on the same frame: no frame is lost
        // between back-to-back takes.
        if let take = recordingTake, time - takeStart >= takeLength - interval / 2 || quitting {
            steps.append(end(take))
            triggerTime = time
        }
        if interactive {
            for command in commands {
                steps += self.steps(for: command, at: time, quitting: &quitting)
            }
            if quitting, let take = recordingTake { steps.append(end(take)) }
        } else if !quitting, recordingTake == nil, takesStarted < takes, time >= triggerTime - interval / 2 {
            steps.append(begin(at: time))
        }
        if quitting || (!interactive && recordingTake == nil && takesStarted >= takes) {
            isDone = true
            return steps
        }
        return steps + dueScriptActions(at: time)
    }

    /// Ends the take in progress, if any: capture stopped (the device went away, or the loop
    /// ended for another reason).
    package mutating func finish() -> [TakeStep] {
        isDone = true
        return recordingTake.map { [end($0)] } ?? []
    }

    // MARK: - Steps

    private mutating func steps(for command: LiveCommand, at time: Double, quitting: inout Bool) -> [TakeStep] {
        switch command {
        case .toggleRecording:
            guard let take = recordingTake else { return [begin(at: time)] }
            if time - takeStart < Self.shortestStop { return [.stopIgnored(take: take, age: time - takeStart)] }
            return [end(take)]
        case .startRecording:
            return recordingTake == nil ? [begin(at: time)] : []
        case .stopRecording:
            // The toggle's stop, rule included; nothing to stop is nothing to do.
            return recordingTake == nil ? [] : steps(for: .toggleRecording, at: time, quitting: &quitting)
        case .control(let control, let cause):
            return [.control(control, cause: cause)]
        case .toggleTorch:
            return [.toggleTorch]
        case .zoomStep(let up):
            return [.zoomStep(up: up)]
        case .prompter(let command, let cause):
            return [.prompter(command, cause: cause)]
        case .quit:
            quitting = true
            return []
        }
    }

    private mutating func begin(at time: Double) -> TakeStep {
        let take = takesStarted
        takesStarted += 1
        recordingTake = take
        takeStart = time
        scriptIndex = 0
        return .begin(take: take, at: time)
    }

    private mutating func end(_ take: Int) -> TakeStep {
        recordingTake = nil
        return .end(take: take)
    }

    /// Script actions due by the frame at `time`, relative to the take's start. `stop` is
    /// already in `takeLength`.
    private mutating func dueScriptActions(at time: Double) -> [TakeStep] {
        guard recordingTake != nil, let script else { return [] }
        var steps: [TakeStep] = []
        while scriptIndex < script.actions.count, script.actions[scriptIndex].time <= time - takeStart + interval / 2 {
            let action = script.actions[scriptIndex]
            scriptIndex += 1
            if case .control(let control) = action.command {
                steps.append(.control(control, cause: "\(script.source):\(action.line)"))
            }
        }
        return steps
    }
}
