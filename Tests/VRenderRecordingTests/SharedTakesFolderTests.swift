import Foundation
import Synchronization
import Testing
import VRenderCapture
import VRenderCore
import VRenderMedia
import VRenderTestSupport
@testable import VRenderRecording
@testable import VRenderTakes

/// The real take writer, whose `finish` waits until `gate` opens: a take that stays open for as
/// long as a test needs, while other commands change its folder.
private final class HeldOpenWriter: TakeFileWriter {
    private let inner: any TakeFileWriter
    private let gate: DispatchSemaphore

    init(_ inner: any TakeFileWriter, gate: DispatchSemaphore) {
        self.inner = inner
        self.gate = gate
    }

    var fileName: String { inner.fileName }
    var thumbnailName: String? { inner.thumbnailName }
    var frames: Int { inner.frames }
    var codecName: String { inner.codecName }
    func write(_ frame: Frame, info: CapturedFrameInfo) throws { try inner.write(frame, info: info) }
    func finish() throws -> Double {
        gate.wait()
        return try inner.finish()
    }
}

/// A capture on a thread of its own whose first take, once its file is made (`opened`), stays
/// open until `finishFirstTake()`.
private final class HeldCapture: Sendable {
    private let opened = DispatchSemaphore(value: 0)
    private let gate = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    // Inferred, not spelled out: see VRenderCore/TSanMutex.swift.
    private let result = Mutex(Result<[TakeEntry], any Error>?.none)
    private let firstTake = Mutex(true)

    init(directory: String, takes: Int) {
        let writers: TakeWriterFactory = { [self] request in
            let writer = try SegmentWriter.factory(request)
            guard firstTake.withLock({ isFirst in defer { isFirst = false }; return isFirst }) else { return writer }
            opened.signal()
            return HeldOpenWriter(writer, gate: gate)
        }
        let plan = RecordingPlan(outputDirectory: directory, takes: takes, duration: 0.1, codec: .h264)
        Thread { [self] in
            let recorded = Result { try Recorder(source: FakeCamera(), plan: plan, writers: writers).run() }
            result.withLock { $0 = recorded }
            done.signal()
        }.start()
        opened.wait()
    }

    /// Lets the first take finish, and waits for the capture to end.
    func finishFirstTake() throws -> [TakeEntry] {
        gate.signal()
        done.wait()
        return try result.withLock { $0! }.get()
    }
}

/// Two commands on one takes folder at once: a capture and a second capture, or a `takes rm`.
/// Each change to `takes.json` is made under the folder's lock to the file as it is then, so
/// every take is listed exactly once and nothing removed comes back. The interleaving is fixed
/// by the held-open take, not by timing.
@Suite struct SharedTakesFolderTests {
    let scratch = ScratchFolder()
    var directory: String { scratch.path }

    private func movies() throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".mov") })
    }

    @Test func twoCapturesIntoOneFolderListEveryTakeOnce() throws {
        // The first capture's take 1 is open (its file made) while the second records two takes.
        let first = HeldCapture(directory: directory, takes: 2)
        let second = try Recorder(source: FakeCamera(), plan: RecordingPlan(outputDirectory: directory, takes: 2, duration: 0.1,
                                                                            codec: .h264), writers: SegmentWriter.factory).run()
        let firstTakes = try first.finishFirstTake()

        let listed = try TakesFolder.manifest(in: directory).takes.map(\.file)
        #expect(listed.count == 4)
        #expect(Set(listed) == Set((firstTakes + second).map(\.file)))
        #expect(Set(listed) == (try movies()), "every take file is listed")
        let numbers = listed.compactMap(TakesFolder.takeNumber(inFileName:))
        #expect(numbers.sorted() == [1, 2, 3, 4], "no take number twice: \(listed)")
        #expect(second.compactMap { TakesFolder.takeNumber(inFileName: $0.file) } == [2, 3])
        #expect(try TakesFolder.takePaths(in: directory).paths.count == 4)
    }

    @Test func takesRemovedDuringACaptureStayRemoved() throws {
        let earlier = try Recorder(source: FakeCamera(), plan: RecordingPlan(outputDirectory: directory, takes: 2, duration: 0.1,
                                                                             codec: .h264), writers: SegmentWriter.factory).run()
        let capture = HeldCapture(directory: directory, takes: 1)
        let removed = try TakesFolder.remove(["1"], from: directory)
        #expect(removed.map(\.file) == [earlier[0].file])
        let recorded = try capture.finishFirstTake()

        let listed = try TakesFolder.manifest(in: directory).takes
        #expect(listed.map(\.file) == [earlier[1].file, recorded[0].file])
        #expect(listed.last?.check?.isGood == true, "the check of the new take is recorded too")
        #expect(try movies() == Set(listed.map(\.file)))
        #expect(TakesFolder.takeNumber(inFileName: recorded[0].file) == 3)
        #expect(try TakesFolder.takePaths(in: directory).paths == listed.map { directory + "/" + $0.file })
    }
}
