import Foundation
import VRenderCapture
import VRenderCore
import VRenderMedia
import VRenderPrompter
import VRenderRecording

extension StudioSession {
    /// The capture thread: the same `CaptureJob` as `vrender capture` in interactive mode,
    /// its keys the pages' actions, its frames offered to the preview. Returns when the studio
    /// stops, the camera fails to open or goes away; a take in progress is always kept.
    func runCapture() {
        let job = CaptureJob(options: CaptureOptions(device: options.device, request: options.request, plan: options.recordingPlan,
                                                     audio: options.audio, audioRequest: options.audioRequest))
        let stopping = control.withLock { control in
            control.job = job
            return control.stopping
        }
        guard !stopping else { return }
        var failure: String?
        do {
            let gate = PreviewGate(hub: hub, encoder: preview, commands: commands, pushed: pushed, input: input)
            _ = try job.run(commands: commands, preview: gate) { [weak self] event in self?.handle(event) }
            if !control.withLock({ $0.stopping }) {
                failure = "\(options.device): the camera stopped; the takes recorded are kept. Restart the studio to record again"
            }
        } catch {
            failure = "\(error)"
        }
        // Closed before the pages hear why: from then on every camera action is refused.
        control.withLock { $0.job = nil }
        input.yield(.cameraClosed)
        if let failure { fail(failure) }
    }

    /// The studio cannot record: the reason goes to the terminal and every page's banner.
    private func fail(_ message: String) {
        terminal(message, true)
        update { $0.error = message }
    }

    /// What the capture job reports, into the snapshot.
    func handle(_ event: RecorderEvent) {
        observe(event)
        switch event {
        case .sourceOpened(let name, let format):
            terminal("camera: \(name), \(format.width)x\(format.height) at \(ValueSyntax.text(format.frameRate.doubleValue)) fps", false)
            update { state in
                state.camera = StudioState.CameraInfo(name: name, width: format.width, height: format.height,
                                                      frameRate: format.frameRate.doubleValue, state: CameraState(
                                                          position: options.request.position, lens: options.request.lens ?? 1,
                                                          zoom: options.request.zoom ?? 1, torch: options.request.torch ? 1 : 0),
                                                      synthetic: options.device.hasPrefix("synthetic"))
                state.error = nil
            }
            countTakesInFolder()
            startProxies()
        case .microphoneChosen(let pick):
            notify("audio: \(pick.summary)")
        case .codecChosen(let choice):
            notify("takes are written as \(choice.codec) (\(choice.reason))")
        case .takeStarted(let index):
            update { state in
                state.takeSeconds = 0
                state.dropped = 0
            }
            input.yield(.takeStarted(index))
        case .takeEnded(let index):
            input.yield(.takeEnded(index))
        case .takeFinished(let entry):
            announce(saved: entry)
            refreshTakes()
        case .takeChecked(let entry):
            if let problem = entry.check?.problem, entry.check?.isGood == false {
                notify("\(entry.file): \(problem)", isError: true)
            }
            refreshTakes()
            proxies?.enqueue(file: entry.file)
            gateProxies()
        case .notice(let text):
            notify(text)
        case .status(let status):
            show(status)
        case .prompter(let view):
            show(view)
        }
    }

    private func show(_ status: RecorderStatus) {
        // Whether a take records is `activity`'s to say (from the take's events, in order).
        update { state in
            state.takeSeconds = status.seconds
            state.fps = status.fps
            state.dropped = status.dropped
            state.behindSeconds = status.behind
            state.camera?.position = status.camera.position
            state.camera?.lens = status.camera.lens
            state.camera?.zoom = status.camera.zoom
            state.camera?.torch = status.camera.torch
            state.sound = status.sound.map { sound in
                StudioState.SoundInfo(peakDBFS: sound.peakDBFS.isFinite ? sound.peakDBFS : nil, clipping: sound.clipping,
                                      missingMilliseconds: sound.missingMilliseconds)
            }
        }
        gateProxies()
    }

    private func show(_ view: PrompterView) {
        control.withLock { $0.prompterView = (view, Date().timeIntervalSince1970 * 1000) }
        showPrompter()
    }

    /// The prompter's last view, laid out for the box the pages left, into the snapshot.
    func showPrompter() {
        guard let prompter = options.prompter, let prompterLayout else { return }
        let (shown, box) = control.withLock { ($0.prompterView, $0.prompterBox) }
        guard let (view, at) = shown, let camera = snapshot.withLock({ $0.camera }) else { return }
        let laid = prompterLayout.layout(box: box, width: camera.width, height: camera.height, fontSize: view.fontSize)
        let info = StudioState.PrompterInfo(
            script: prompter.script.name, lines: laid.text.lines, lineHeight: laid.text.lineHeight, fontSize: view.fontSize,
            speed: view.speed, offset: Swift.min(view.offset, laid.maxOffset), maxOffset: laid.maxOffset, sentAt: at,
            state: view.state.rawValue, percent: view.percent,
            pointsAcrossShorterSide: PrompterGeometry.pointsAcrossShorterSide, box: box)
        update { $0.prompter = info }
    }
}

/// Passes frames to the preview encoder only while a page watches: with none open, the
/// studio costs what `vrender capture` does. Shown every frame, after the loop performed the
/// commands it drained before it: an empty queue then means every command counted so far was
/// performed, and their events sent, which `activity` hears (`.drained`) after those events.
private struct PreviewGate: LivePreview {
    let hub: StudioHub
    let encoder: PreviewEncoder
    let commands: BoundedQueue<LiveCommand>
    let pushed: CommandCount
    let input: AsyncStream<StudioInput>.Continuation
    /// The count last acknowledged (only the capture thread touches it).
    private let acknowledged = CommandCount()

    init(hub: StudioHub, encoder: PreviewEncoder, commands: BoundedQueue<LiveCommand>, pushed: CommandCount,
         input: AsyncStream<StudioInput>.Continuation) {
        self.hub = hub
        self.encoder = encoder
        self.commands = commands
        self.pushed = pushed
        self.input = input
    }

    func offer(_ frame: Frame, time: Double, monotonic: Double?, sequence: Int) {
        // Counted first, then the queue found empty: each command counted was pushed before.
        let count = pushed.count
        if count > acknowledged.count, commands.depth == 0 {
            acknowledged.set(count)
            input.yield(.drained(count))
        }
        guard hub.count > 0 else { return }
        encoder.offer(frame, time: time, monotonic: monotonic, sequence: sequence)
    }
}
