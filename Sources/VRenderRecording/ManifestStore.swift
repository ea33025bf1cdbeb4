import Dispatch
import Foundation
import Synchronization
import VRenderCore
import VRenderTakes

/// `takes.json` while a capture writes it: the writer thread lists each finished take, the
/// checker thread fills in what reading it back found. Each change is made under the folder's
/// lock (`FolderLock`) to the file as it is on disk, re-read, and saved at once (atomically):
/// another capture into the folder, or a `takes rm`, changes it meanwhile, and a copy kept
/// here would undo their changes.
///
/// Nothing waits for the lock but the store's own thread (the lister), which makes the changes
/// in the order they came. A take is complete on disk before it is listed, so when another
/// process holds the lock the take is kept, the user is told, and the lister lists it as soon
/// as the lock frees, while the camera records on. `finish` waits for what is still queued when
/// the capture ends, and names what could not be listed, for `vrender takes recover`.
final class ManifestStore: Sendable {
    /// One change to `takes.json`, made under one hold of the lock.
    private enum Change: Sendable {
        case append(TakeEntry)
        case check(TakeCheck, file: String)

        var file: String {
            switch self {
            case .append(let entry): entry.file
            case .check(_, let file): file
            }
        }
    }

    private struct State {
        var started = false
        /// This capture's takes, with their checks, as they are (or will be) listed.
        var recorded: [String: TakeEntry] = [:]
        /// Takes queued to be listed and not listed yet, in recording order.
        var unlisted: [String] = []
        /// Takes the user was told wait for the lock, and since when.
        var announced: [String: ContinuousClock.Instant] = [:]
        /// Who holds the lock while the lister waits for it (nil: not waiting).
        var holder: String?
        /// Set by `finish` when the wait is over: what is still queued is not saved.
        var givingUp = false
        /// Takes that could not be listed, and why.
        var failed: [(file: String, reason: String)] = []
    }

    /// The takes folder, open: `takes.json` is read and written through its descriptor.
    let folder: FolderHandle
    var directory: String { folder.path }
    private let events: @Sendable (RecorderEvent) -> Void
    // Inferred, not spelled `Mutex<State>`: the ThreadSanitizer build's stand-in
    // (VRenderCore/TSanMutex.swift) makes the spelled-out type ambiguous outside VRenderCore.
    private let state = Mutex(State())
    /// Never full in practice (two changes a take); `.block` keeps every change.
    private let changes = BoundedQueue<Change>(capacity: 1 << 16)
    private let lister = StageGroup()

    /// Who holds the folder's lock, for a command kept waiting.
    static let command = "vrender capture"
    /// How long one try for the lock lasts while the lister waits: how soon it notices `finish`
    /// giving up.
    private static let retrySlice: Duration = .milliseconds(250)

    /// `events` gets `.takeFinished` as each take is listed, `.takeChecked` as its check is
    /// saved, and notices when the lock keeps a take waiting or a change cannot be saved.
    init(directory: String, events: @escaping @Sendable (RecorderEvent) -> Void = { _ in }) throws {
        folder = try FolderHandle.open(directory, as: .output)
        self.events = events
    }

    /// Lists a finished take, now or as soon as the folder's lock can be had.
    func append(_ entry: TakeEntry) {
        state.withLock { state in
            state.recorded[entry.file] = entry
            state.unlisted.append(entry.file)
        }
        enqueue(.append(entry))
    }

    /// Records `check` in the entry for `file` (dropped when `takes.json` no longer lists it:
    /// a `takes rm` meanwhile).
    func record(_ check: TakeCheck, for file: String) {
        state.withLock { $0.recorded[file]?.check = check }
        enqueue(.check(check, file: file))
    }

    /// This capture's take `file` as listed, with its check.
    func entry(for file: String) -> TakeEntry? {
        state.withLock { $0.recorded[file] }
    }

    /// Waits until every change is saved, at most `wait` (nil: until `giveUp` is raised),
    /// telling the user once what it waits for. Returns the error that names the takes left
    /// unlisted (complete on disk, for `vrender takes recover`); nil when every take is listed.
    func finish(waitingAtMost wait: Duration?, unless giveUp: StopSignal) -> VRenderError? {
        if state.withLock({ $0.started }) {
            changes.finish()
            let clock = ContinuousClock()
            let deadline = wait.map { clock.now + $0 }
            var told = false
            while !lister.join(timeout: 0.1) {
                if giveUp.isRaised || deadline.map({ clock.now >= $0 }) == true {
                    state.withLock { $0.givingUp = true }
                } else if !told, let holder = state.withLock({ $0.holder }) {
                    told = true
                    events(.notice(waitingNotice(holder: holder, wait: wait)))
                }
            }
        }
        return unlistedError()
    }

    // MARK: - The lister

    private func enqueue(_ change: Change) {
        let start = state.withLock { state in
            defer { state.started = true }
            return !state.started
        }
        if start {
            lister.start("vrender takes.json") { [self] in
                while let change = changes.pop() { apply(change) }
            }
        }
        _ = changes.push(change)
    }

    /// Makes `change` under the lock, waiting for it as long as the capture lasts.
    private func apply(_ change: Change) {
        var wait = FolderLock.briefWait
        while true {
            let attempt: FolderLock.Attempt
            do {
                attempt = try FolderLock.attempt(folder, .exclusive, for: Self.command, wait: FolderLock.Patience(wait))
            } catch {
                return failed(change, reason: "\(error)")
            }
            switch attempt {
            case .held(let lock):
                let outcome = Result { try withExtendedLifetime(lock) { try save(change) } }
                state.withLock { $0.holder = nil }
                switch outcome {
                case .success(let entry): return saved(change, entry: entry)
                case .failure(let error): return failed(change, reason: "\(error)")
                }
            case .busy(let holder, _):
                guard !waiting(for: holder) else { return failed(change, reason: "\(directory) was in use by \(holder) until the capture ended") }
                wait = Self.retrySlice
            }
        }
    }

    /// Notes that `holder` keeps the lister waiting, and tells the user of each take that
    /// waits with it (queued behind the change tried, too). True when `finish` gave up.
    private func waiting(for holder: String) -> Bool {
        let (givingUp, news) = state.withLock { state in
            state.holder = holder
            let news = state.unlisted.filter { state.announced[$0] == nil }
            for file in news { state.announced[file] = ContinuousClock.now }
            return (state.givingUp, news)
        }
        for file in news where !givingUp {
            events(.notice("\(file) is complete and kept, but \(directory) is in use by \(holder): it will be listed in "
                           + "\(TakesManifest.fileName) as soon as the lock frees"))
        }
        return givingUp
    }

    /// Reads `takes.json`, makes the change and saves it: the entry listed or updated (nil: a
    /// check for a take no longer listed).
    private func save(_ change: Change) throws -> TakeEntry? {
        var manifest = try TakesManifest.load(in: folder)
        let index = manifest.takes.lastIndex { $0.file == change.file }
        switch change {
        case .append(var entry):
            if let index {
                // `takes recover` listed it while it waited: this entry says more; keep its trim.
                entry.trim = manifest.takes[index].trim
                manifest.takes[index] = entry
            } else {
                manifest.takes.append(entry)
            }
        case .check(let check, _):
            guard let index else { return nil }
            manifest.takes[index].check = check
        }
        try manifest.save(in: folder)
        return manifest.takes[index ?? manifest.takes.count - 1]
    }

    private func saved(_ change: Change, entry: TakeEntry?) {
        guard let entry else { return }
        switch change {
        case .append:
            let since = state.withLock { state in
                state.unlisted.removeAll { $0 == entry.file }
                return state.announced[entry.file]
            }
            if let since {
                events(.notice("\(entry.file): listed in \(TakesManifest.fileName) after waiting "
                               + "\(Self.seconds(ContinuousClock.now - since)) s for the folder's lock"))
            }
            events(.takeFinished(entry))
            if entry.check != nil { events(.takeChecked(entry)) }
        case .check:
            events(.takeChecked(entry))
        }
    }

    private func failed(_ change: Change, reason: String) {
        switch change {
        case .append(let entry):
            state.withLock { state in
                state.unlisted.removeAll { $0 == entry.file }
                state.failed.append((entry.file, reason))
            }
            events(.notice("\(entry.file) is complete and kept, but is not listed in \(TakesManifest.fileName) (\(reason)); "
                           + "'vrender takes recover \(directory)' lists it"))
        case .check(let check, let file):
            events(.notice("\(file): checked (\(check.problem ?? "good")), but \(TakesManifest.fileName) could not be saved: \(reason)"))
        }
    }

    // MARK: - Messages

    private func waitingNotice(holder: String, wait: Duration?) -> String {
        let takes = state.withLock { $0.unlisted }
        let upTo = wait.map { "up to \(Self.seconds($0)) s " } ?? ""
        let head = "waiting \(upTo)for the lock of \(directory) (in use by \(holder))"
        guard !takes.isEmpty else { return head + " to save the checks of its takes in \(TakesManifest.fileName)" }
        let it = takes.count == 1 ? "it" : "them"
        let recover = "'vrender takes recover \(directory)'"
        let after = wait == nil ? "stopping again (Ctrl-C) leaves \(it) for \(recover)" : "then \(recover) lists \(it)"
        return head + " to list \(Self.names(takes)) in \(TakesManifest.fileName); " + after
    }

    private func unlistedError() -> VRenderError? {
        let failed = state.withLock { $0.failed }
        guard !failed.isEmpty else { return nil }
        let reasons = failed.map(\.reason).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        let files = failed.map(\.file)
        let it = files.count == 1 ? "it" : "them"
        return VRenderError.output(TakesFolder.manifestPath(directory),
                                   "does not list \(Self.names(files)), complete and kept on disk (\(reasons.joined(separator: "; "))); "
                                   + "'vrender takes recover \(directory)' lists \(it)")
    }

    /// Whole seconds, as the messages show a wait.
    private static func seconds(_ duration: Duration) -> String {
        "\(Int((Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18).rounded()))"
    }

    /// Every name: the user is to find each of them.
    private static func names(_ files: [String]) -> String {
        files.joined(separator: ", ")
    }
}
