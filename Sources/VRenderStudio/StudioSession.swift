import Foundation
import Synchronization
import VRenderCapture
import VRenderCore
import VRenderFilters
import VRenderPrompter
import VRenderRecording

/// One `vrender studio`: the camera recording on its own thread (the capture job `vrender
/// capture` runs, driven by the pages' actions instead of keys), the live preview, the takes
/// folder, playable copies of the takes and the exports — everything the server serves, as
/// a `StudioBackend`. The server is a thin shell over this, as the CLI is over the library.
///
/// Every change ends in `update`, which bumps the snapshot's version and sends it to every page.
public final class StudioSession: StudioBackend {
    public let options: StudioOptions
    /// A line for the terminal: the camera opened, a notice, an error (`isError`).
    public typealias Terminal = @Sendable (_ line: String, _ isError: Bool) -> Void

    let hub = StudioHub()
    let snapshot: Mutex<StudioState>
    /// What the pages asked for that the capture loop has not shown yet, and the running parts.
    let control = Mutex(Control())
    /// The pages' camera actions, drained by the capture loop before each frame (never full at
    /// 64 between two frames; dropping the oldest keeps an HTTP handler from ever waiting).
    let commands = BoundedQueue<LiveCommand>(capacity: 64, policy: .dropOldest)
    let preview: PreviewEncoder
    let proxies: ProxyMaker
    let exports: StudioExport
    let terminal: Terminal
    private let captureDone = DispatchSemaphore(value: 0)

    struct Control {
        /// Whether the pages want a take recording: a second "record" from another page at the
        /// same moment changes nothing, where a toggle would stop the take the first one started.
        var wantRecording = false
        /// The capture job while the camera is open (nil before, after, or when it failed).
        var job: CaptureJob?
        var stopping = false
        var nextNoticeID = 1
        /// The prompter box the pages left, fractions of the picture (what exports burn in).
        var prompterBox: [Double] = StudioSession.defaultPrompterBox
    }

    static let defaultPrompterBox = [PrompterGeometry.defaultBox.x, PrompterGeometry.defaultBox.y,
                                     PrompterGeometry.defaultBox.width, PrompterGeometry.defaultBox.height]

    public init(options: StudioOptions, terminal: @escaping Terminal = { _, _ in }) {
        self.options = options
        self.terminal = terminal
        var state = StudioState(device: options.device, folder: options.folder, exportsFolder: options.exportsFolder)
        state.filters = FilterRegistry.names
        snapshot = Mutex(state)
        let hub = self.hub
        preview = PreviewEncoder(maxWidth: options.previewMaxWidth) { frame in hub.send(frame) }
        proxies = ProxyMaker(takesFolder: options.folder)
        exports = StudioExport(takesFolder: options.folder, exportsFolder: options.exportsFolder)
    }

    /// Opens the camera and starts recording's thread, then returns. A camera that does not
    /// open, or a folder that cannot be written, is reported (terminal and pages) and leaves
    /// the studio up, showing why, with nothing recorded lost.
    public func start() {
        proxies.onChange = { [weak self] in self?.refreshTakes() }
        refreshTakes()
        for take in snapshot.withLock({ $0.takes }) { proxies.enqueue(file: take.file) }
        let thread = Thread { [self] in
            runCapture()
            captureDone.signal()
        }
        thread.name = "studio capture"
        thread.start()
    }

    /// Ends the studio: the take in progress is finished and kept, the export and the proxies
    /// stop (their partial files are removed), and every page's stream ends.
    public func stop() {
        let job = control.withLock { control -> CaptureJob? in
            control.stopping = true
            return control.job
        }
        if job != nil {
            commands.push(.quit)
            job?.requestStop()
            captureDone.wait()
        }
        exports.cancel()
        proxies.stop()
        preview.stop()
        hub.finish()
    }

    // MARK: - StudioBackend

    public func state() -> StudioState { snapshot.withLock { $0 } }

    public func subscribe() -> StudioSubscription {
        snapshot.withLock { hub.subscribe(current: $0) }
    }

    public func mediaPath(_ kind: MediaKind, name: String) -> String? {
        switch kind {
        case .thumbnails:
            guard let manifest = try? TakesFolder.manifest(in: options.folder),
                  manifest.takes.contains(where: { $0.thumbnail == name }) else { return nil }
            return TakesFolderPaths.join(options.folder, name)
        case .proxies:
            return proxies.path(ofProxyNamed: name)
        case .exports:
            return exports.path(ofExportNamed: name)
        }
    }

    public func filterGrid() throws -> [UInt8] {
        guard let last = snapshot.withLock({ $0.takes.last }) else {
            throw StudioActionError(status: 409, "record a take first: the grid shows each filter on a take's middle frame")
        }
        do {
            return try FilterGrid.png(takePath: TakesFolderPaths.join(options.folder, last.file))
        } catch {
            throw StudioActionError(status: 500, "\(error)")
        }
    }

    // MARK: - State

    /// Changes the snapshot and sends it to every page (under the lock, so pages see the
    /// versions in order).
    func update(_ change: (inout StudioState) -> Void) {
        snapshot.withLock { state in
            change(&state)
            state.version += 1
            hub.send(state)
        }
    }

    /// A message for the user: in the terminal and on every page.
    func notify(_ text: String, isError: Bool = false) {
        terminal(text, isError)
        let id = control.withLock { control in
            defer { control.nextNoticeID += 1 }
            return control.nextNoticeID
        }
        update { state in
            state.notices.append(StudioState.Notice(id: id, level: isError ? "error" : "info", text: text))
            if state.notices.count > StudioState.noticeLimit { state.notices.removeFirst(state.notices.count - StudioState.noticeLimit) }
        }
    }

    /// Reads takes.json again into the snapshot, with each take's proxy state.
    func refreshTakes() {
        let takes: [StudioState.TakeInfo]
        do {
            takes = try StudioTakes.list(folder: options.folder, proxies: proxies)
        } catch {
            notify("\(error)", isError: true)
            return
        }
        update { $0.takes = takes }
    }
}
