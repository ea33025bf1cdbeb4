import Foundation
import Synchronization
import Testing
import VRenderCore
import VRenderExport
import VRenderTestSupport
@testable import VRenderScale

/// A chunked export's bar: the frames its workers report through the work folder, read back by
/// the run that follows them, and what a crafted progress file can (not) do to it.
@Suite struct ChunkProgressTests {
    let directory = TestMedia.scratchDirectory()

    /// A work folder made as `concat --engine` makes it, for the two-chunk, 30-frame plan.
    func workFolder() throws -> (WorkFolder, ChunkPlan) {
        let folder = WorkFolder(path: directory + "/work")
        try folder.create()
        return (folder, try WorkFolderFileTests.load(WorkFolderFileTests.planJSON()))
    }

    func progress(_ frames: Int, at elapsed: Double, finished: Bool = false) -> ExportProgress {
        ExportProgress(framesDone: frames, framesTotal: 15, outputSeconds: 0, elapsed: elapsed, finished: finished)
    }

    @Test func workersProgressAddsUpOverChunksAndDoneChunksCountWhole() throws {
        let (folder, plan) = try workFolder()
        #expect(folder.framesDone(plan) == 0)
        let first = ChunkProgressFile(folder: folder, chunk: 0, interval: 0.5)
        first.begin()
        first.record(progress(4, at: 1.0))
        #expect(folder.framesDone(plan) == 4)
        first.record(progress(9, at: 1.2))
        #expect(folder.framesDone(plan) == 4, "within the interval nothing is written")
        first.record(progress(9, at: 1.6))
        #expect(folder.framesDone(plan) == 9)
        let second = ChunkProgressFile(folder: folder, chunk: 1)
        second.begin()
        second.record(progress(15, at: 0.1, finished: true))
        #expect(folder.framesDone(plan) == 24)
        // Chunk 0 in the done-list counts all of its 15 frames, whatever its progress file says.
        let done = try FolderHandle.open(folder.path + "/done")
        _ = try done.createExclusive("chunk_0000.json")
        #expect(folder.framesDone(plan) == 30)
    }

    @Test func anAttemptStartsFromNothingNotFromTheLastAttemptsFrames() throws {
        let (folder, plan) = try workFolder()
        let first = ChunkProgressFile(folder: folder, chunk: 1)
        first.begin()
        first.record(progress(12, at: 1))
        #expect(folder.framesDone(plan) == 12)
        let retry = ChunkProgressFile(folder: folder, chunk: 1)
        retry.record(progress(3, at: 1))
        #expect(folder.framesDone(plan) == 12, "nothing is written before begin (the plan is not checked yet)")
        retry.begin()
        #expect(folder.framesDone(plan) == 0)
    }

    @Test func craftedProgressFilesOnlyShortenTheBar() throws {
        let (folder, plan) = try workFolder()
        let progress = folder.path + "/progress/"
        let planted: [(String, String)] = [
            ("frames=99999\n", "more than the chunk has: clamped to its 15"),
            ("frames=-40\n", "negative: none"),
            ("frames=7", "no line end: not what a worker writes"),
            ("frames=" + String(repeating: "9", count: 80) + "\n", "over 64 bytes: not read"),
            ("junk\n", "not frames=N"),
        ]
        let expected = [15, 0, 0, 0, 0]
        for ((text, why), frames) in zip(planted, expected) {
            try Data(text.utf8).write(to: URL(fileURLWithPath: progress + "chunk_0000"))
            #expect(folder.framesDone(plan) == frames, "\(why)")
        }
        // A link is not followed, a folder not read.
        try FileManager.default.removeItem(atPath: progress + "chunk_0000")
        try Data("frames=5\n".utf8).write(to: URL(fileURLWithPath: directory + "/elsewhere"))
        try FileManager.default.createSymbolicLink(atPath: progress + "chunk_0000", withDestinationPath: directory + "/elsewhere")
        try FileManager.default.createDirectory(atPath: progress + "chunk_0001", withIntermediateDirectories: false)
        #expect(folder.framesDone(plan) == 0)
        // A FIFO would block a plain open: it is not waited on.
        try FileManager.default.removeItem(atPath: progress + "chunk_0000")
        #expect(mkfifo(progress + "chunk_0000", 0o600) == 0)
        #expect(folder.framesDone(plan) == 0)
    }

    @Test func theWatcherReportsFramesOverAllChunksAndFinishesAtTheTotal() throws {
        let (folder, plan) = try workFolder()
        let seen = ProgressLog()
        let watcher = ChunkProgressWatcher(folder: folder, plan: plan, interval: 60) { seen.add($0) }
        watcher.start()
        let worker = ChunkProgressFile(folder: folder, chunk: 0)
        worker.begin()
        worker.record(progress(15, at: 0, finished: true))
        let second = ChunkProgressFile(folder: folder, chunk: 1)
        second.begin()
        second.record(progress(15, at: 0, finished: true))
        watcher.stop()
        watcher.stop()
        let reports = seen.all
        #expect(reports.first?.framesDone == 0 && reports.first?.framesTotal == 30)
        #expect(reports.last?.framesDone == 30 && reports.last?.finished == true)
        #expect(reports.count == 2, "the first look, and the last at stop (a second stop adds nothing)")
    }

    @Test func aResumedRunCountsEarlierChunksButMeasuresItsRateFromItsOwn() throws {
        let (folder, plan) = try workFolder()
        _ = try FolderHandle.open(folder.path + "/done").createExclusive("chunk_0000.json")
        let seen = ProgressLog()
        let watcher = ChunkProgressWatcher(folder: folder, plan: plan, interval: 60) { seen.add($0) }
        watcher.start()
        watcher.stop()
        #expect(seen.all.map(\.framesDone) == [15, 15])
        #expect(seen.all.allSatisfy { $0.firstFrame == nil }, "no frame of this run yet: no rate")
    }
}

/// Reports as a watcher's thread delivers them.
private final class ProgressLog: Sendable {
    private let reports = Mutex<[ExportProgress]>([])
    func add(_ progress: ExportProgress) { reports.withLock { $0.append(progress) } }
    var all: [ExportProgress] { reports.withLock { $0 } }
}
