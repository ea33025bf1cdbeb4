import VRenderCapture
import VRenderCore
import VRenderPrompter
import VRenderTakes

/// The recorder's capture thread: before each frame, asks the `TakeScheduler` what to do and
/// does it (begin or end a take in the ring, apply a control and log it in the take's
/// timeline), then captures the frame into the ring and reports status now and then.
struct CaptureLoop {
    let source: any CaptureSource
    let ring: FrameRing
    let log: TakeLog
    let plan: RecordingPlan
    /// The microphone's audio thread (nil: silent takes): given the camera's clock origin,
    /// paced by the camera in batch, pruned to the pre-roll, read for the meter.
    let audio: AudioCapture?
    let events: @Sendable (RecorderEvent) -> Void
    /// Shown every frame it is ready for (the studio's page); nil: no preview.
    let preview: (any LivePreview)?
    /// Seconds between frames.
    let interval: Double
    /// Per frame the source delivers (rendered, or waited for and converted); nil when
    /// timings are off.
    let timer: StageTimer?
    /// The take recording now and its start, as the steps performed so far left it.
    private var recording: (take: Int, start: Double)?
    /// The teleprompter (`plan.prompter`), on the same clock as the takes: capture time.
    private var prompter: PrompterSession?
    /// The prompter's view as last reported, to report it again only when it changes.
    private var shownPrompter: PrompterView?
    /// The synthetic microphone reading the prompter's script (`plan.presenter`), if it records.
    private let presenter: SyntheticPresenter?
    /// A presenter failure or an action it cannot do was reported: once is enough.
    private var presenterNoticed = false

    /// `listed`: the folder's takes before this capture; the prompter continues where the last
    /// of its script left it (`PrompterSession.continueFromFolder`).
    init(source: any CaptureSource, ring: FrameRing, log: TakeLog, plan: RecordingPlan, audio: AudioCapture? = nil,
         preview: (any LivePreview)? = nil, timer: StageTimer? = nil, listed: [TakeEntry] = [],
         events: @escaping @Sendable (RecorderEvent) -> Void) {
        self.audio = audio
        self.preview = preview
        self.source = source
        self.timer = timer
        self.ring = ring
        self.log = log
        self.plan = plan
        self.events = events
        interval = 1 / source.format.frameRate.doubleValue
        prompter = plan.prompter?(source.format.width, source.format.height)
        presenter = SyntheticPresenter.attached(to: audio?.source, reading: plan.presenter.map { ($0.script, $0.voice) })
        if let notice = prompter?.continueFromFolder(listed) { events(.notice(notice)) }
    }

    /// Captures until the scheduler is done, the ring is cancelled (the writer failed) or the
    /// device goes away; any take in progress is ended, and kept.
    mutating func run(commands: BoundedQueue<LiveCommand>?, stop: StopSignal) throws {
        try source.start()
        audio?.setOrigin(source.monotonicOrigin)   // a synthetic camera knows it now, a V4L2 one at its first frame
        var scheduler = TakeScheduler(plan: plan, interval: interval, interactive: commands != nil)
        var status = StatusTicker(interval: interval)
        var nextTime = 0.0
        // A batch microphone runs only as far as the camera: once capture ends, it may finish
        // the last frame's sound (and a period more), which the writer waits for.
        defer { audio?.timeline.allow(through: nextTime + 0.05) }
        while true {
            let keys = commands.map(Self.drain) ?? []
            perform(scheduler.steps(beforeFrameAt: nextTime, commands: keys, stopRequested: stop.isRaised), at: nextTime)
            if scheduler.isDone { return }
            showPrompter(at: nextTime)
            guard let slot = ring.acquire() else { break }
            let frame = ring.frame(slot)
            timer?.begin()
            try frame.makeWritable()
            guard let info = try source.nextFrame(into: frame) else {
                timer?.otherDone()
                ring.release(slot)
                events(.notice("\(source.name): the device went away; the take was ended and kept"))
                break
            }
            timer?.frameDone()
            nextTime = info.time + interval
            if let take = recording?.take { ring.addDeviceDrops(info.droppedBefore, take: take) }
            ring.commit(slot: slot, info: info, take: recording?.take)
            preview?.offer(frame, time: info.time, monotonic: source.monotonicOrigin.map { $0 + info.time },
                           sequence: info.sequence)
            follow(info.time)
            if let fps = status.tick(at: info.time) {
                events(.status(RecorderStatus(take: scheduler.takesStarted, recording: recording != nil,
                                              seconds: recording.map { info.time - $0.start } ?? 0, fps: fps,
                                              dropped: recording.map { ring.dropped(take: $0.take) } ?? 0,
                                              behind: Double(ring.backlog) * interval, camera: source.state,
                                              sound: soundStatus(at: info.time))))
            }
        }
        perform(scheduler.finish(), at: nextTime)
    }

    /// Keeps the sound in step with a frame captured at `time`: the camera's clock origin, how
    /// far a batch microphone may run (this frame's end), and the sound the pre-roll still needs.
    private func follow(_ time: Double) {
        guard let audio else { return }
        audio.setOrigin(source.monotonicOrigin)
        audio.timeline.allow(through: time + interval)
        // Frames wait in the ring at most its capacity before a take pins its sound.
        audio.timeline.prune(before: time - plan.preroll - 1 - Double(ring.maxSlotCount) * interval)
    }

    private func soundStatus(at time: Double) -> SoundStatus? {
        guard let audio else { return nil }
        let level = audio.timeline.status(since: recording?.start ?? time)
        return SoundStatus(peakDBFS: LevelMeter.decibels(level.peak), clipping: level.clipped,
                           missingMilliseconds: recording == nil ? 0 : level.lostMilliseconds)
    }

    /// The keys pressed since the last frame, without waiting for more.
    private static func drain(_ commands: BoundedQueue<LiveCommand>) -> [LiveCommand] {
        var pressed: [LiveCommand] = []
        while commands.depth > 0, let command = commands.pop() { pressed.append(command) }
        return pressed
    }

    private mutating func perform(_ steps: [TakeStep], at time: Double) {
        for step in steps {
            switch step {
            case .begin(let take, let start):
                let preroll = ring.beginTake(take, prerollSince: start - plan.preroll)
                log.begin(take: take, state: source.state, preroll: Double(preroll) * interval)
                recording = (take, start)
                events(.takeStarted(index: take))
                prompter?.takeStarted(at: start)
                presenterStarts(take: start)
                showPrompter(at: start, always: true)
            case .end(let take):
                // Logged before the take's end reaches the writer, which lists it with it.
                if let record = prompter?.takeStopped(at: time) { log.record(take: take, prompter: record) }
                presenterStops(take: take, at: time)
                ring.endTake(take)
                recording = nil
                events(.takeEnded(index: take))
            case .control(let control, let cause):
                apply(control, at: time, cause: cause)
            case .toggleTorch:
                apply(.toggledTorch(from: source.state), at: time, cause: "key t")
            case .zoomStep(let up):
                apply(.zoomStep(up: up, from: source.state), at: time, cause: up ? "key +" : "key -")
            case .prompter(let command, let cause):
                guard prompter != nil else {
                    events(.notice("\(cause): there is no prompter (start the capture with --prompter FILE)"))
                    continue
                }
                if let notice = prompter?.perform(command, at: time) { events(.notice("\(cause): \(notice)")) }
            case .stopIgnored(_, let age):
                // Unnumbered: the loop counts this session's takes, the folder numbers their files.
                events(.notice(String(format: "stop ignored %.2f s after the take began (a double press?); "
                                      + "press again to stop it", age)))
            }
        }
    }

    /// The synthetic presenter starts reading with the take (recording from scene time `start`),
    /// from the prompter's place then; the script's `flub` and `skip` actions go with it. Without
    /// a presenter, those actions are reported unsupported, once.
    private mutating func presenterStarts(take start: Double) {
        let actions = plan.script?.presenterActions ?? []
        guard let presenter, let prompter else {
            if let first = actions.first, let source = plan.script?.source, !presenterNoticed {
                presenterNoticed = true
                events(.notice("\(source):\(first.line): \(first.action.rawValue) is for the synthetic presenter, who reads "
                               + "the --prompter script through the synthetic microphone (--audio synthetic): ignored"))
            }
            return
        }
        presenter.takeStarted(SyntheticPresenter.TakeStart(
            time: start, text: prompter.text, anchor: prompter.scroll.anchor, maxOffset: prompter.scroll.maxOffset,
            ending: prompter.settings.ending, actions: actions.map { ($0.time, $0.action) }))
    }

    /// The take ends at `time`: what the presenter said in it goes into its takes.json entry.
    private mutating func presenterStops(take: Int, at time: Double) {
        do {
            if let said = try presenter?.takeStopped(at: time) { log.record(take: take, presenter: said) }
        } catch {
            guard !presenterNoticed else { return }
            presenterNoticed = true
            events(.notice("\(error); the takes record the clapper only from here"))
        }
    }

    /// Reports the prompter's view at `time` when it shows something new (or `always`).
    private mutating func showPrompter(at time: Double, always: Bool = false) {
        guard let view = prompter?.view(at: time) else { return }
        if !always, let shown = shownPrompter, shown.rows == view.rows, shown.header == view.header { return }
        shownPrompter = view
        events(.prompter(view))
    }

    /// Applies a control, reports a clamp, and logs the camera's new state in the take.
    private func apply(_ control: CameraControl, at time: Double, cause: String) {
        switch source.apply(control, at: time) {
        case .applied: break
        case .clamped(let message), .unsupported(let message): events(.notice("\(cause): \(message)"))
        }
        if let recording { log.record(take: recording.take, state: source.state, at: time - recording.start, cause: cause) }
    }
}

/// Paces the status line: one report per half second of capture time, with the frame rate
/// captured over it.
struct StatusTicker {
    /// Seconds between frames (the shortest span a rate is measured over).
    let interval: Double
    private var since = 0.0
    private var frames = 0

    init(interval: Double) {
        self.interval = interval
    }

    /// Counts a frame captured at `time`; returns the frame rate when a report is due.
    mutating func tick(at time: Double) -> Double? {
        frames += 1
        guard time - since >= 0.5 else { return nil }
        let fps = Double(frames) / Swift.max(time - since, interval)
        since = time
        frames = 0
        return fps
    }
}

extension CameraControl {
    /// The t key: the torch off when it is on, else on at full.
    static func toggledTorch(from state: CameraState) -> CameraControl {
        .torch(level: state.torch > 0 ? 0 : 1)
    }

    /// The +/- keys: a ramp one doubling up or down, at two doublings a second.
    static func zoomStep(up: Bool, from state: CameraState) -> CameraControl {
        .rampZoom(to: up ? state.zoom * 2 : state.zoom / 2, rate: 2)
    }
}
