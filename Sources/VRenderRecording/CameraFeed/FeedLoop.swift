import VRenderCapture
import VRenderCore
import VRenderMedia

/// The feed's frame loop: before each frame, the script's actions due by its time and the keys
/// pressed; then the frame, rendered once and handed to every outlet.
struct FeedLoop {
    let camera: SyntheticCamera
    let duration: Double?
    let events: (CameraFeedEvent) -> Void
    /// The script's actions, in time order (equal times in file order).
    private let actions: [ActionScript.Action]
    private let scriptSource: String
    private var nextAction = 0
    private var presenterNoticed = false
    /// Frames fed so far.
    private(set) var frames = 0

    init(camera: SyntheticCamera, script: ActionScript?, duration: Double?, events: @escaping (CameraFeedEvent) -> Void) {
        self.camera = camera
        self.duration = duration
        self.events = events
        actions = (script?.actions ?? []).enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
            .map(\.element)
        scriptSource = script?.source ?? "script"
    }

    /// Feeds frames until one of the endings.
    mutating func run(outlets: FeedOutlets, commands: BoundedQueue<LiveCommand>?, stop: StopSignal) throws
        -> CameraFeedSummary.Ending {
        let frame = try Frame.picture(width: camera.format.width, height: camera.format.height)
        var progress = ProgressTicker(everyFrames: max(1, Int(camera.format.frameRate.doubleValue.rounded())))
        while true {
            let time = camera.time(ofFrame: frames)
            // A frame due at or after the end is not fed (2 s at 30 fps: frames 0...59).
            if let duration, time + 1e-9 >= duration { return .duration }
            if stop.isRaised { return .interrupted }
            if applyScript(through: time) { return .script }
            if let commands, applyKeys(commands, at: time) { return .quit }
            _ = try camera.nextFrame(into: frame)
            try outlets.send(frame, index: frames, time: time, nextTime: camera.time(ofFrame: frames + 1))
            frames += 1
            if let rate = progress.tick() {
                events(.progress(frames: frames, seconds: camera.time(ofFrame: frames), framesPerSecond: rate))
            }
        }
    }

    /// Applies the actions due by `time`; true at a `stop`.
    private mutating func applyScript(through time: Double) -> Bool {
        while nextAction < actions.count, actions[nextAction].time <= time + 1e-9 {
            let action = actions[nextAction]
            nextAction += 1
            switch action.command {
            case .stop:
                return true
            case .control(let control):
                apply(control, at: action.time, cause: "\(scriptSource):\(action.line)")
            case .presenter(let what):
                guard !presenterNoticed else { continue }
                presenterNoticed = true
                events(.notice("\(scriptSource):\(action.line): \(what.rawValue) is for the synthetic presenter, "
                               + "who reads a prompter script in vrender capture: ignored"))
            }
        }
        return false
    }

    /// Applies the keys pressed since the last frame; true at `q` (or the end of the keyboard's input).
    private func applyKeys(_ commands: BoundedQueue<LiveCommand>, at time: Double) -> Bool {
        while commands.depth > 0, let command = commands.pop() {
            switch command {
            case .quit: return true
            case .control(let control, let cause): apply(control, at: time, cause: cause)
            case .toggleTorch: apply(.toggledTorch(from: camera.state), at: time, cause: "key t")
            case .zoomStep(let up): apply(.zoomStep(up: up, from: camera.state), at: time, cause: up ? "key +" : "key -")
            case .toggleRecording, .startRecording, .stopRecording, .prompter: continue   // capture's keys: a feed has no takes or prompter
            }
        }
        return false
    }

    private func apply(_ control: CameraControl, at time: Double, cause: String) {
        switch camera.apply(control, at: time) {
        case .applied: break
        case .clamped(let message), .unsupported(let message): events(.notice("\(cause): \(message)"))
        }
    }
}

/// Counts fed frames and, every `everyFrames`, says the rate they were fed at (wall clock).
struct ProgressTicker {
    let everyFrames: Int
    private var count = 0
    private var since = MonotonicClock.now()

    init(everyFrames: Int) {
        self.everyFrames = everyFrames
    }

    mutating func tick() -> Double? {
        count += 1
        guard count >= everyFrames else { return nil }
        let now = MonotonicClock.now()
        let rate = Double(count) / max(1e-9, Double(now - since) / 1e9)
        count = 0
        since = now
        return rate
    }
}
