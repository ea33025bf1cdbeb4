import Foundation
import VRenderCore
import VRenderExport
import VRenderMedia
import VRenderTakes

/// Makes a browser-playable copy of each take (browsers on Linux do not play HEVC): H.264
/// yuv420p in MP4 with the index first (faststart), AAC sound when the take has sound, at most
/// `maxWidth` wide, into TAKES/proxies/<take stem>.mp4. One at a time, in the order asked, on a
/// background thread of its own, with the library's `Exporter` (as `vrender concat` would).
///
/// Off the recording's critical path: `pause()` when a take starts cancels the proxy being
/// made (it goes back to the front of the queue) and `resume()` when it ends goes on.
/// Thread-safe: every method may be called from any thread. Call `stop()` when done: the
/// worker thread holds the maker until then.
package final class ProxyMaker: Sendable {
    package static let folderName = TakesFolder.proxiesFolderName
    package static let maxWidth = 640

    /// A take's browser copy: "waiting", "making", "ready" or "failed".
    package enum State: String, Sendable {
        case waiting, making, ready, failed
    }

    private struct Shared {
        var queue: [String] = []
        var states: [String: State] = [:]
        var problems: [String: String] = [:]
        var paused = false
        var stopped = false
        /// The take whose proxy is being made, and its exporter (to cancel it).
        var making: (file: String, exporter: Exporter)?
    }

    /// The proxies folder (TAKES/proxies), opened once without following links: every proxy is
    /// written, removed and served through it, never through its path (which someone could
    /// turn into a link to another folder meanwhile).
    package let proxies: FolderHandle
    /// The takes folder, held: takes are opened through it (`TakesFolder.openTake`).
    private let takes: FolderHandle
    private let lock = ConditionLock()
    // Guarded by `lock`: every access is inside `lock.withLock`.
    nonisolated(unsafe) private var shared = Shared()
    private let onChange: @Sendable (String, State) -> Void
    private let worker = StageGroup()

    /// Makes TAKES/proxies in the open takes folder (refusing one that is a link or not a
    /// folder), takes the proxies already there for `existing` takes as ready, and starts the
    /// worker. `onChange(take file, state)` is called on the worker (or the caller's) thread.
    package init(takes: FolderHandle, existing: [String] = [],
                onChange: @escaping @Sendable (String, State) -> Void = { _, _ in }) throws {
        self.takes = takes
        if let info = takes.status(Self.folderName), info.st_mode & S_IFMT != S_IFDIR {
            let what = info.st_mode & S_IFMT == S_IFLNK ? "a symbolic link" : "not a folder"
            throw VRenderError.output(takes.join(Self.folderName), "is \(what): vrender makes the takes' browser copies in a folder of its own there; move it away")
        }
        proxies = try takes.folder(Self.folderName, create: true, as: .output)
        self.onChange = onChange
        for file in existing where Self.isTakeName(file) {
            if let info = proxies.status(Self.proxyName(of: file)), info.st_mode & S_IFMT == S_IFREG {
                shared.states[file] = .ready
            }
        }
        // Niceness 15: copies wait for everything else (and are paused while recording).
        worker.start("vrender-proxies", niceness: 15) { [self] in run() }
    }

    /// As `init(takes:existing:onChange:)`, opening TAKES by its path.
    package convenience init(takesFolder: String, existing: [String] = [],
                            onChange: @escaping @Sendable (String, State) -> Void = { _, _ in }) throws {
        try self.init(takes: FolderHandle.open(takesFolder, as: .output), existing: existing, onChange: onChange)
    }

    /// The proxy's file name for a take (its stem with ".mp4"), as `takes rm` knows it.
    package static func proxyName(of file: String) -> String { TakesFolder.proxyName(of: file) }

    /// A take's file name is one component of the takes folder.
    static func isTakeName(_ file: String) -> Bool {
        !file.isEmpty && !file.contains("/") && !file.hasPrefix(".") && !file.contains("\0")
    }

    /// Where a take's proxy is (or will be).
    package func proxyPath(of file: String) -> String { proxies.join(Self.proxyName(of: file)) }

    package func state(of file: String) -> State? { lock.withLock { shared.states[file] } }

    /// Why a take's proxy failed; nil unless it did.
    package func problem(of file: String) -> String? { lock.withLock { shared.problems[file] } }

    /// Asks for `file`'s proxy after those already asked for (nothing when it is ready or queued).
    package func enqueue(file: String) {
        guard Self.isTakeName(file) else { return }
        let queued: Bool = lock.withLock {
            guard shared.states[file] != .ready, shared.states[file] != .making, !shared.queue.contains(file) else { return false }
            shared.queue.append(file)
            shared.states[file] = .waiting
            shared.problems[file] = nil
            lock.broadcast()
            return true
        }
        if queued { onChange(file, .waiting) }
    }

    /// A take started: stops the proxy being made (it waits at the front of the queue) and
    /// starts no other until `resume`.
    package func pause() {
        lock.withLock {
            shared.paused = true
            shared.making?.exporter.cancel()
        }
    }

    package func resume() {
        lock.withLock {
            shared.paused = false
            lock.broadcast()
        }
    }

    /// A take was deleted: drops it from the queue, stops its proxy if it is being made, and
    /// deletes the proxy this maker made or recognised (only that file, never through a link).
    package func forget(file: String) {
        lock.withLock {
            shared.queue.removeAll { $0 == file }
            if shared.making?.file == file { shared.making?.exporter.cancel() }
            if shared.states.removeValue(forKey: file) == .ready {
                proxies.remove(Self.proxyName(of: file))
            }
            shared.problems[file] = nil
        }
    }

    /// Stops the worker (cancelling the proxy being made) and waits for it.
    package func stop() {
        lock.withLock {
            shared.stopped = true
            shared.making?.exporter.cancel()
            lock.broadcast()
        }
        worker.join()
    }

    private func run() {
        while let file = next() {
            // The take opened once, here: the file checked is the file copied (`TakesFolder.openTake`).
            let take: HeldFile
            do {
                take = try TakesFolder.openTake(file, in: takes)
            } catch {
                finish(file, .failure(error))
                continue
            }
            // Probing the take for its size happens outside the lock: `pause` must not wait for it.
            let exporter = Exporter(options: options(for: file, take: take))
            let claimed: Bool = lock.withLock {
                guard shared.states[file] == .making else { return false }  // forgotten meanwhile
                shared.making = (file, exporter)
                if shared.paused || shared.stopped { exporter.cancel() }  // it stops as it starts
                return true
            }
            guard claimed else { continue }
            onChange(file, .making)
            // The take stays open until FFmpeg is done with it: its /proc/self/fd path leads to it.
            let outcome = withExtendedLifetime(take) { Result { try exporter.export() }.mapError { HeldFile.naming($0, [take]) } }
            finish(file, outcome)
        }
    }

    /// Waits for a take to make a proxy of, and claims it; nil once stopped.
    private func next() -> String? {
        lock.withLock {
            while !shared.stopped && (shared.paused || shared.queue.isEmpty) { lock.wait() }
            guard !shared.stopped else { return nil }
            let file = shared.queue.removeFirst()
            shared.states[file] = .making
            return file
        }
    }

    /// What happened to `file`'s proxy: ready, failed, back to the front (paused), or dropped
    /// (forgotten: a proxy finished in spite of the cancel is deleted).
    private func finish(_ file: String, _ outcome: Result<ExportSummary, any Error>) {
        let state: State? = lock.withLock {
            shared.making = nil
            let forgotten = shared.states[file] == nil
            switch outcome {
            case .success where forgotten:
                proxies.remove(Self.proxyName(of: file))
                return nil
            case .success:
                shared.states[file] = .ready
                return .ready
            case .failure where forgotten:
                return nil
            case .failure(let error as VRenderError) where error.kind == .cancelled:
                if shared.stopped { return nil }
                shared.queue.insert(file, at: 0)
                shared.states[file] = .waiting
                return .waiting
            case .failure(let error):
                shared.states[file] = .failed
                shared.problems[file] = "\(error)"
                return .failed
            }
        }
        if let state { onChange(file, state) }
    }

    /// The export that makes the proxy of `file`, open as `take`: H.264 (yuv420p,
    /// browser-playable), CRF 28, veryfast, fitted to `maxWidth` with even sides; MP4 gets
    /// faststart from the muxer. FFmpeg reads the open take (its `/proc/self/fd` path) and the
    /// muxer writes into the held proxies folder.
    private func options(for file: String, take: HeldFile) -> ExportOptions {
        let input = take.readablePath
        let size = (try? Probe.probe(input)).map { info in
            let upright = info.video.uprightSize
            let width = min(Self.maxWidth, upright.width) & ~1
            return (width: max(2, width), height: max(2, Int((Double(upright.height) * Double(width) / Double(max(upright.width, 1))).rounded()) & ~1))
        }
        var options = ExportOptions(inputs: [input], output: proxyPath(of: file), codec: .encode(.h264),
                                    crf: 28, preset: "veryfast", size: size, overwrite: true, filterThreads: 1, gpu: .cpu)
        options.outputFolder = proxies
        return options
    }
}
