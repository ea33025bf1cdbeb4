import Foundation
import Synchronization
import VRenderCapture
import VRenderCore
import VRenderFilters
import VRenderPrompter
import VRenderRecording
import VRenderTakes

/// One `vrender studio`: the camera recording on its own thread (the capture job `vrender
/// capture` runs, driven by the pages' actions instead of keys), the live preview, the takes
/// folder, playable copies of the takes and the exports — everything the server serves, as
/// a `StudioBackend`. The server is a thin shell over this, as the CLI is over the library.
///
/// Every change ends in `update`, which bumps the snapshot's version and sends it to every page.
/// The take recording and the export running have one owner, the `StudioSessionState` actor
/// (`activity`): the pages' requests and the recorder's events
/// (through `inputs`, in the capture thread's order) change them there. What touches the
/// takes folder (a delete, a reorder, an export's start: its lock and fsyncs) runs on
/// `folderQueue`, never on the server's threads.
package final class StudioSession: StudioBackend {
    package let options: StudioOptions
    /// A line for the terminal: the camera opened, a notice, an error (`isError`).
    package typealias Terminal = @Sendable (_ line: String, _ isError: Bool) -> Void

    let hub = StudioHub()
    // Inferred, not spelled `Mutex<StudioState>` (see VRenderCore/TSanMutex.swift); init sets it.
    let snapshot = Mutex(StudioState(device: "", folder: "", exportsFolder: ""))
    /// The running parts. Lock order: `control` may be held while `snapshot` is taken, never
    /// the other way round.
    let control = Mutex(Control())
    /// Held from reading the take list to showing it: a listing read before a change (a proxy
    /// finishing) must not overwrite one read after it (the take deleted meanwhile).
    /// (It counts the listings: ThreadSanitizer's build reports its own accesses to a Mutex of
    /// an empty value as races.)
    private let takesListing = Mutex(0)
    /// The pages' camera actions, drained by the capture loop before each frame. Pushed only by
    /// `activity`, which refuses a command when it is full: none is dropped, no handler waits.
    /// (`.dropOldest` only for `stop()`'s `.quit`, which must not wait either.)
    let commands = BoundedQueue<LiveCommand>(capacity: 64, policy: .dropOldest)
    let pushed = CommandCount()
    let activity: StudioSessionState
    /// The capture thread's news for `activity`, in its order (consumed from `start()`).
    let inputs: AsyncStream<StudioInput>
    let input: AsyncStream<StudioInput>.Continuation
    /// Where folder work runs (`onFolderQueue`): one at a time, off the server's threads.
    let folderQueue = DispatchQueue(label: "vrender studio folder")
    let preview: PreviewEncoder
    /// The prompter wrapped for the pages' box (nil without a prompter).
    let prompterLayout: StudioPrompterLayout?
    let terminal: Terminal
    /// Every recorder event as it comes, before the session handles it (tests judge by them).
    let observe: @Sendable (RecorderEvent) -> Void
    private let capture = StageGroup()

    struct Control {
        /// The capture job while the camera is open (nil before, after, or when it failed).
        var job: CaptureJob?
        var stopping = false
        var nextNoticeID = 1
        /// The number the next take's file gets, as the writer numbers it: on from the folder's
        /// takes when the camera opened, and from each take this studio saved.
        var nextTakeNumber = 1
        /// The prompter box the pages left, fractions of the picture (what exports burn in).
        var prompterBox: [Double] = StudioSession.defaultPrompterBox
        /// The takes' playable copies, made once the takes folder exists (nil before, or when
        /// its proxies folder was refused).
        var proxies: ProxyMaker?
        /// The export running or last run, and the files this session's exports wrote (by name,
        /// with the folder each was written in: the only ones `/media/exports/` serves).
        var export: StudioExport?
        var exported: [String: FolderHandle] = [:]
        /// The takes and exports folders, each opened once and then held: everything the
        /// studio reads, writes and serves there goes through these, never through their
        /// paths, which someone could turn into links meanwhile (nil until first needed).
        var takesFolder: FolderHandle?
        var exportsFolder: FolderHandle?
        /// The prompter as the capture last showed it, and when (Unix milliseconds).
        var prompterView: (view: PrompterView, at: Double)?
    }

    static let defaultPrompterBox = [PrompterGeometry.defaultBox.x, PrompterGeometry.defaultBox.y,
                                     PrompterGeometry.defaultBox.width, PrompterGeometry.defaultBox.height]

    /// Throws when the preview's JPEG encoder does not open (an FFmpeg without mjpeg).
    package convenience init(options: StudioOptions, terminal: @escaping Terminal = { _, _ in }) throws {
        try self.init(options: options, terminal: terminal, observe: { _ in })
    }

    init(options: StudioOptions, terminal: @escaping Terminal, observe: @escaping @Sendable (RecorderEvent) -> Void) throws {
        self.options = options
        self.terminal = terminal
        self.observe = observe
        var state = StudioState(device: options.device, folder: options.folder, exportsFolder: options.exportsFolder)
        state.filters = FilterRegistry.names
        snapshot.withLock { $0 = state }
        let hub = self.hub
        prompterLayout = try options.prompter.map { try StudioPrompterLayout(script: $0.script) }
        preview = try PreviewEncoder(maxWidth: options.previewMaxWidth) { frame in hub.send(frame) }
        activity = StudioSessionState(commands: commands, pushed: pushed)
        (inputs, input) = AsyncStream.makeStream(of: StudioInput.self)
    }

    /// Opens the camera and starts recording's thread, then returns. A camera that does not
    /// open, or a folder that cannot be written, is reported (terminal and pages) and leaves
    /// the studio up, showing why, with nothing recorded lost.
    package func start() {
        refreshTakes()
        activity.attach(StudioSessionState.Ends(
            publish: { [weak self] in self?.show($0) }, takeStarted: { [weak self] in self?.announce(take: $0) },
            cameraOpen: { [weak self] in self?.control.withLock { $0.job != nil } ?? false }))
        let activity = self.activity, inputs = self.inputs
        Task {
            for await news in inputs { await activity.apply(news) }
        }
        capture.start("studio capture") { [self] in runCapture() }
    }

    /// Ends the studio: the take in progress is finished and kept, the export and the proxies
    /// stop (their partial files are removed), and every page's stream ends.
    package func stop() {
        let job = control.withLock { control -> CaptureJob? in
            control.stopping = true
            return control.job
        }
        if job != nil {
            commands.push(.quit)
            job?.requestStop()
            capture.join()
        }
        let (export, proxies) = control.withLock { ($0.export, $0.proxies) }
        export?.cancel()
        _ = export?.wait()
        proxies?.stop()
        preview.stop()
        input.finish()
        hub.finish()
    }

    // MARK: - StudioBackend

    package func state() -> StudioState { snapshot.withLock { $0 } }

    package func subscribe() -> StudioSubscription {
        snapshot.withLock { hub.subscribe(current: $0) }
    }

    package func mediaLocation(_ kind: MediaKind, name: String) -> MediaLocation? {
        switch kind {
        case .thumbnails:
            guard let takes = heldTakesFolder(), let manifest = try? TakesFolder.manifest(in: options.folder),
                  manifest.takes.contains(where: { $0.thumbnail == name }) else { return nil }
            return MediaLocation(folder: takes, name: name)
        case .proxies:
            guard let proxies = control.withLock({ $0.proxies }),
                  let take = snapshot.withLock({ $0.takes.first { ProxyMaker.proxyName(of: $0.file) == name } }),
                  proxies.state(of: take.file) == .ready else { return nil }
            return MediaLocation(folder: proxies.proxies, name: name)
        case .exports:
            return control.withLock { $0.exported[name] }.map { MediaLocation(folder: $0, name: name) }
        case .captions:
            guard let script = options.prompter?.script, let takes = heldTakesFolder(),
                  let proxies = control.withLock({ $0.proxies }),
                  let take = snapshot.withLock({ $0.takes.first { StudioCaptions.name(of: $0.file) == name } }) else { return nil }
            return StudioCaptions.location(of: take.file, script: script, takes: takes, proxies: proxies.proxies)
        }
    }

    package func filterGrid() throws -> [UInt8] {
        guard let last = snapshot.withLock({ $0.takes.last }), let takes = heldTakesFolder() else {
            throw StudioActionError(status: 409, "record a take first: the grid shows each filter on a take's middle frame")
        }
        do {
            // The take opened once (no link, regular): the file checked is the file read.
            let take = try TakesFolder.openTake(last.file, in: takes)
            return try withExtendedLifetime(take) {
                do {
                    return try FilterGrid.png(take: take.readablePath)
                } catch {
                    throw HeldFile.naming(error, [take])
                }
            }
        } catch {
            throw StudioActionError(status: 500, "\(error)")
        }
    }

    /// The takes folder, opened the first time it is there (the camera makes it) and held.
    func heldTakesFolder() -> FolderHandle? {
        if let held = control.withLock({ $0.takesFolder }) { return held }
        guard let opened = try? FolderHandle.open(options.folder) else { return nil }
        return control.withLock { control in
            if control.takesFolder == nil { control.takesFolder = opened }
            return control.takesFolder
        }
    }

    /// The exports folder, made and opened (a link or a file there refused) by the first
    /// export, and held for the next ones; opened again only when it was removed.
    func heldExportsFolder() throws -> FolderHandle {
        if let held = control.withLock({ $0.exportsFolder }), !held.isRemoved { return held }
        let opened = try StudioExport.openExportsFolder(options.exportsFolder)
        control.withLock { $0.exportsFolder = opened }
        return opened
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
            state.notices.append(StudioState.Notice(id: id, level: isError ? .error : .info, text: text))
            if state.notices.count > StudioState.noticeLimit { state.notices.removeFirst(state.notices.count - StudioState.noticeLimit) }
        }
    }

    /// Starts making the takes' playable copies, once the camera opened (the takes folder then
    /// exists): those of the takes already listed first. A proxies folder that is a link or a
    /// file is refused with a notice, and the takes then have none.
    func startProxies() {
        guard control.withLock({ $0.proxies == nil }) else { return }
        let listed = snapshot.withLock { $0.takes.map(\.file) }
        do {
            guard let takes = heldTakesFolder() else { throw VRenderError.output(options.folder, "no such folder") }
            let proxies = try ProxyMaker(takes: takes, existing: listed) { [weak self] file, state in
                if state == .failed, let self, let problem = self.proxies?.problem(of: file) {
                    notify("\(file): no playable copy (\(problem))", isError: true)
                }
                self?.refreshTakes()
            }
            control.withLock { $0.proxies = proxies }
            for file in listed { proxies.enqueue(file: file) }
        } catch {
            notify("\(error) (takes will have no playable copies)", isError: true)
        }
        refreshTakes()
    }

    var proxies: ProxyMaker? { control.withLock { $0.proxies } }

    /// Playable copies are made only while nothing else wants the machine: no take recording
    /// and no export running. Derived from the snapshot at every change of either, so a take's
    /// check or a status report never resumes the copies in the middle of an export.
    func gateProxies() {
        let busy = snapshot.withLock { $0.recordingState != .idle || $0.export?.state == .running }
        if busy { proxies?.pause() } else { proxies?.resume() }
    }

    /// Reads takes.json again into the snapshot, with each take's proxy state.
    func refreshTakes() {
        takesListing.withLock { listings in
            listings += 1
            let takes: [StudioState.TakeInfo]
            do {
                takes = try StudioTakes.list(folder: options.folder, proxies: control.withLock { $0.proxies })
            } catch {
                notify("\(error)", isError: true)
                return
            }
            update { $0.takes = takes }
        }
    }
}
