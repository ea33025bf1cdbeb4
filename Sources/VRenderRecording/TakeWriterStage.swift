import Foundation
import VRenderCapture
import VRenderCore
import VRenderMedia

/// The writer thread: drains the frame ring take by take into segment files, then records
/// each finished take in `takes.json`.
/// Created on the capture thread, then used only by the writer thread.
// @unchecked Sendable: handed to the writer thread once, then used by it alone.
final class TakeWriterStage: @unchecked Sendable {
    let ring: FrameRing
    let plan: RecordingPlan
    let format: NegotiatedFormat
    let deviceName: String
    let live: Bool
    let log: TakeLog
    private var manifest: TakesManifest
    /// The number the next take's file gets; counts on from the takes already in the folder.
    private var nextNumber: Int
    private let makeWriter: TakeWriterFactory
    /// Ring wait, encode and write; nil members when timings are off.
    private let timers: CaptureTimers
    let events: @Sendable (RecorderEvent) -> Void

    init(ring: FrameRing, plan: RecordingPlan, format: NegotiatedFormat, deviceName: String, live: Bool,
         log: TakeLog, manifest: TakesManifest, firstNumber: Int, writers: @escaping TakeWriterFactory,
         timers: CaptureTimers, events: @escaping @Sendable (RecorderEvent) -> Void) {
        self.ring = ring
        self.plan = plan
        self.format = format
        self.deviceName = deviceName
        self.live = live
        self.log = log
        self.manifest = manifest
        nextNumber = firstNumber
        makeWriter = writers
        self.timers = timers
        self.events = events
    }

    /// Runs until the ring is finished and drained. Returns the takes it wrote.
    func run() throws -> [TakeEntry] {
        var written: [TakeEntry] = []
        var writer: (any TakeFileWriter)?
        var writerTake = -1
        var latencies: [UInt64] = []
        while let item = ring.next() {
            switch item {
            case .frame(let entry):
                timers.ringWait?.record(nanoseconds: MonotonicClock.now() &- entry.capturedAt)
                defer { ring.release(entry.slot) }
                let current: any TakeFileWriter
                if let writer, writerTake == entry.take {
                    current = writer
                } else {
                    current = try openWriter()
                    writer = current
                    writerTake = entry.take
                }
                try current.write(ring.slots[entry.slot], info: entry.info)
                latencies.append(MonotonicClock.now() &- entry.capturedAt)
            case .takeEnded(let take):
                guard let finishing = writer, writerTake == take else { continue }  // a take with no frames
                let duration = try finishing.finish()
                let entry = makeEntry(finishing, take: take, duration: duration, latency: LatencySummary(nanoseconds: latencies))
                latencies.removeAll(keepingCapacity: true)
                manifest.takes.append(entry)
                try manifest.save(to: plan.outputDirectory)
                written.append(entry)
                events(.takeFinished(entry))
                writer = nil
                writerTake = -1
            }
        }
        // Cancelled mid-take: finish the file so it stays playable, but it is not listed.
        if let writer { _ = try? writer.finish() }
        return written
    }

    /// The next take's file, numbered on from the last.
    private func openWriter() throws -> any TakeFileWriter {
        let request = TakeFileRequest(directory: plan.outputDirectory, number: nextNumber, format: format,
                                      codec: plan.codec, device: deviceName, live: live, encodeTimer: timers.encode, writeTimer: timers.write)
        nextNumber += 1
        return try makeWriter(request)
    }

    private func makeEntry(_ writer: any TakeFileWriter, take: Int, duration: Double, latency: LatencySummary?) -> TakeEntry {
        let record = log.record(for: take)
        let formatter = ISO8601DateFormatter()
        return TakeEntry(
            file: writer.fileName, thumbnail: writer.thumbnailName,
            created: formatter.string(from: record?.created ?? Date()),
            frames: writer.frames, dropped: ring.dropped(take: take), duration: duration,
            fps: format.frameRate.description, width: format.width, height: format.height,
            codec: writer.codecName, device: deviceName, preroll: record?.preroll ?? 0,
            timeline: record?.timeline ?? [], latency: latency)
    }
}
