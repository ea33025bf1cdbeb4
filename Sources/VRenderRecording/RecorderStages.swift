import Synchronization
import VRenderCore
import VRenderTakes

/// The recording's stage timers (README "Measuring"), made before the writer thread starts:
/// capture on the capture thread, the rest on the writer thread. All nil when timings are off.
struct CaptureTimers: Sendable {
    /// Per frame the source delivers: rendering it, or, from a live source (a V4L2 camera, the
    /// synthetic camera paced to real time), mostly waiting for it, which makes it a wait.
    var capture: StageTimer?
    /// Per frame: from its commit into the ring until the writer takes it.
    var ringWait: StageTimer?
    /// Per frame: time in the encoder.
    var encode: StageTimer?
    /// Per frame: writing the packets the encoder gave for it (and the take's thumbnails).
    var write: StageTimer?

    init(_ timings: StageTimings?, liveSource: Bool) {
        capture = timings?.timer("capture", measures: liveSource ? .wait : .work)
        ringWait = timings?.timer("ring wait", measures: .wait)
        encode = timings?.timer("encode")
        write = timings?.timer("write")
    }
}

/// The writer thread and its result, handed to the capture thread when the writer is done.
final class WriterOutcome: Sendable {
    private let entries = Mutex([TakeEntry]())
    private let thread = StageGroup()

    /// Runs `writer` to the end on a thread of its own; a failure cancels the ring so capture
    /// stops too.
    init(_ writer: TakeWriterStage, ring: FrameRing) {
        thread.onCancel { ring.cancel() }
        thread.start("vrender-take-writer") { [self] in
            let written = try writer.run()
            entries.withLock { $0 = written }
        }
    }

    /// Waits for the writer: the takes it wrote, or its failure.
    func wait() -> Result<[TakeEntry], any Error> {
        Result {
            try thread.wait()
            return entries.withLock { $0 }
        }
    }
}
