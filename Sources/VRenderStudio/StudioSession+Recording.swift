import Foundation
import VRenderRecording
import VRenderTakes

extension StudioSession {
    /// `activity`'s recording state, into the snapshot (called in its order, from its steps).
    func show(_ recording: RecordingState) {
        update { state in
            state.recording = recording.isRecording
            state.recordingState = recording.phase
            if !recording.isRecording { state.takeSeconds = 0 }
        }
        gateProxies()
    }

    /// The terminal's line for a take begun, numbered as its file will be (`segment_NNNN_…`).
    func announce(take index: Int) {
        let number = control.withLock { control in
            defer { control.nextTakeNumber += 1 }
            return control.nextTakeNumber
        }
        terminal("take \(number) recording", false)
    }

    /// Where the numbering goes on from: the takes folder as the camera opened it.
    func countTakesInFolder() {
        guard let folder = heldTakesFolder(), let next = try? TakesFolder.nextTakeNumber(in: folder) else { return }
        control.withLock { $0.nextTakeNumber = Swift.max($0.nextTakeNumber, next) }
    }

    /// The terminal's line for a take listed, with its number, seconds as the CLI prints them.
    func announce(saved entry: TakeEntry) {
        let number = TakesFolder.takeNumber(inFileName: entry.file)
        if let number { control.withLock { $0.nextTakeNumber = Swift.max($0.nextTakeNumber, number + 1) } }
        let seconds = String(format: "%.2f s", entry.duration)
        terminal("take \(number.map { "\($0) " } ?? "")saved: \(entry.file) (\(seconds), \(entry.frames) frames, "
                 + "\(entry.dropped) dropped)", false)
    }

    /// Runs `body` on `folderQueue` (a folder's lock, fsyncs): the caller's thread, a server's,
    /// only waits for it.
    func onFolderQueue<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            folderQueue.async { continuation.resume(with: Result { try body() }) }
        }
    }
}
