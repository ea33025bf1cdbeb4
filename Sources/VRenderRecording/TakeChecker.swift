import Foundation
import Synchronization
import VRenderCore
import VRenderTakes

/// `takes.json` while a capture writes it: the writer thread appends each finished take, the
/// checker thread fills in what reading it back found. Each change is made under the folder's
/// lock (`FolderLock`) to the file as it is on disk, re-read, and saved at once (atomically):
/// another capture into the folder, or a `takes rm`, changes it meanwhile, and a copy kept
/// here would undo their changes.
final class ManifestStore: Sendable {
    /// The takes folder, open: `takes.json` is read and written through its descriptor.
    let folder: FolderHandle
    var directory: String { folder.path }
    /// This capture's takes as last listed: what `Recorder.run` returns.
    // Inferred, not spelled `Mutex<[String: TakeEntry]>`: the ThreadSanitizer build's stand-in
    // (VRenderCore/TSanMutex.swift) makes the spelled-out type ambiguous outside VRenderCore.
    private let listed = Mutex([String: TakeEntry]())

    /// Who holds the folder's lock, for a command kept waiting.
    static let command = "vrender capture"

    init(directory: String) throws {
        folder = try FolderHandle.open(directory, as: .output)
    }

    /// Lists a finished take and saves.
    func append(_ entry: TakeEntry) throws {
        try change { manifest in manifest.takes.append(entry) }
        listed.withLock { $0[entry.file] = entry }
    }

    /// Records `check` in the entry for `file` and saves; returns the updated entry, nil when
    /// `takes.json` no longer lists it (a `takes rm` meanwhile).
    func record(_ check: TakeCheck, for file: String) throws -> TakeEntry? {
        let updated = try change { manifest -> TakeEntry? in
            guard let index = manifest.takes.lastIndex(where: { $0.file == file }) else { return nil }
            manifest.takes[index].check = check
            return manifest.takes[index]
        }
        listed.withLock { $0[file]?.check = check }
        return updated
    }

    func entry(for file: String) -> TakeEntry? {
        listed.withLock { $0[file] }
    }

    /// Reads `takes.json` under the folder's lock, lets `body` change it, and saves it.
    private func change<T>(_ body: (inout TakesManifest) -> T) throws -> T {
        try FolderLock.with(folder, .exclusive, for: Self.command) {
            var manifest = try TakesManifest.load(in: folder)
            let result = body(&manifest)
            try manifest.save(in: folder)
            return result
        }
    }
}

/// Reads every finished take back (`TakeVerifier`) on a thread of its own, at a low CPU
/// priority: decoding a long take takes seconds, which the writer thread cannot spare while
/// the next take is recording, and the encoder must keep its cores.
final class TakeChecker: Sendable {
    private struct Job: Sendable {
        var file: String
        var expectedFrames: Int
    }

    private let jobs = BoundedQueue<Job>(capacity: 1024)
    private let store: ManifestStore
    private let events: @Sendable (RecorderEvent) -> Void
    private let done = DispatchSemaphore(value: 0)

    /// Starts the thread. `events` gets `.takeChecked` per take, and a `.notice` when the result
    /// cannot be saved in takes.json.
    init(store: ManifestStore, events: @escaping @Sendable (RecorderEvent) -> Void) {
        self.store = store
        self.events = events
        Thread { [self] in
            // On Linux, nice is per thread and who = 0 is the calling thread (setpriority(2),
            // NOTES): 10 lets the encoder and capture threads go first.
            setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
            while let job = jobs.pop() { check(job) }
            done.signal()
        }.start()
    }

    /// Queues the take `file` (in the store's folder), which was given `expectedFrames` frames.
    func check(file: String, expectedFrames: Int) {
        _ = jobs.push(Job(file: file, expectedFrames: expectedFrames))
    }

    /// Waits until every queued take has been checked.
    func finish() {
        jobs.finish()
        done.wait()
    }

    private func check(_ job: Job) {
        let path = TakesFolder.join(store.directory, job.file)
        let result = TakeVerifier.verify(path: path, expectedFrames: job.expectedFrames)
        do {
            if let entry = try store.record(result, for: job.file) { events(.takeChecked(entry)) }
        } catch {
            events(.notice("\(job.file): checked (\(result.problem ?? "good")), but \(TakesManifest.fileName) could not be saved: \(error)"))
        }
    }
}
