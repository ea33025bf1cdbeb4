import Foundation
import VRenderCapture
import VRenderCore
import VRenderMedia
import VRenderTakes

/// The writer thread: drains the frame ring take by take into segment files, hands each
/// finished take to the `ManifestStore` to be listed in `takes.json` and to the `TakeChecker`
/// to be read back. It never waits for the folder's lock for longer than `FolderLock.briefWait`:
/// the ring fills while it waits. When a write fails (disk full, file too large, folder gone)
/// the take is cut back to what was written whole, listed, and the error says so.
/// Created on the capture thread, then used only by the writer thread.
// @unchecked Sendable: handed to the writer thread once, then used by it alone.
final class TakeWriterStage: @unchecked Sendable {
    let ring: FrameRing
    let plan: RecordingPlan
    let format: NegotiatedFormat
    let deviceName: String
    /// The microphone's sound and name (nil: silent takes).
    let sound: (timeline: AudioTimeline, device: String)?
    let live: Bool
    let log: TakeLog
    let store: ManifestStore
    let checker: TakeChecker
    /// Decides the codec the takes are written with, on the writer thread before its first
    /// take (`--codec auto` on a live source measures the machine meanwhile, as the ring fills).
    private let chooseCodec: @Sendable () -> VideoCodecChoice
    private var codec = VideoCodecChoice.auto
    /// The number this capture's last take got (0: none yet).
    private var lastNumber = 0
    private let makeWriter: TakeWriterFactory
    /// Ring wait, encode and write; nil members when timings are off.
    private let timers: CaptureTimers
    /// The take being written.
    private struct OpenTake {
        var writer: any TakeFileWriter
        var take: Int
        var latencies: [UInt64] = []
    }

    init(ring: FrameRing, plan: RecordingPlan, codec: @escaping @Sendable () -> VideoCodecChoice, format: NegotiatedFormat,
         deviceName: String, sound: (timeline: AudioTimeline, device: String)? = nil,
         live: Bool, log: TakeLog, store: ManifestStore, checker: TakeChecker,
         writers: @escaping TakeWriterFactory, timers: CaptureTimers) {
        self.ring = ring
        self.plan = plan
        chooseCodec = codec
        self.format = format
        self.deviceName = deviceName
        self.sound = sound
        self.live = live
        self.log = log
        self.store = store
        self.checker = checker
        makeWriter = writers
        self.timers = timers
    }

    /// Runs until the ring is finished and drained. Returns the takes it wrote (as first
    /// listed: their checks come later, from the checker).
    func run() throws -> [TakeEntry] {
        var written: [TakeEntry] = []
        var open: OpenTake?
        codec = chooseCodec()
        do {
            while let item = ring.next() {
                switch item {
                case .frame(let entry):
                    timers.ringWait?.record(nanoseconds: MonotonicClock.now() &- entry.capturedAt)
                    defer { ring.release(entry.slot) }
                    if open?.take != entry.take { open = OpenTake(writer: try openWriter(), take: entry.take) }
                    try open!.writer.write(ring.frame(entry.slot), info: entry.info)
                    open!.latencies.append(MonotonicClock.now() &- entry.capturedAt)
                case .takeEnded(let take):
                    guard let finishing = open, finishing.take == take else { continue }  // a take with no frames
                    open = nil   // finished from here on, whatever happens: never salvaged
                    written.append(try finish(finishing))
                }
            }
        } catch {
            guard let open else { throw error }
            throw keepWhatWasWritten(open, after: error)
        }
        // Cancelled mid-take: finish the file so it stays playable, but it is not listed.
        if let open { _ = try? open.writer.finish() }
        return written
    }

    /// Completes a take's file, lists it and queues it to be read back.
    private func finish(_ open: OpenTake) throws -> TakeEntry {
        let duration = try open.writer.finish()
        let entry = makeEntry(open.writer, take: open.take, frames: open.writer.frames, duration: duration,
                              latency: LatencySummary(nanoseconds: open.latencies))
        store.append(entry)   // reports `.takeFinished` once listed
        checker.check(file: entry.file, expectedFrames: entry.frames)
        return entry
    }

    /// After a failed write: keeps the take up to its last complete fragment, listed with what
    /// reading it back found, and returns the error to end the capture with, saying so.
    private func keepWhatWasWritten(_ open: OpenTake, after error: any Error) -> any Error {
        guard open.writer.salvage() else { return error }
        let path = TakesFolder.join(plan.outputDirectory, open.writer.fileName)
        let check = TakeVerifier.verify(path: path, streamsEndTogether: false)
        guard check.decodableFrames > 0 else { return error }
        var entry = makeEntry(open.writer, take: open.take, frames: check.decodableFrames, duration: check.duration,
                              latency: LatencySummary(nanoseconds: open.latencies))
        entry.check = check
        store.append(entry)   // reports `.takeFinished` and `.takeChecked` once listed
        let kept = "the take ends there: its first \(String(format: "%.2f", check.duration)) s are kept"
        guard let failure = error as? VRenderError else { return error }
        return VRenderError(failure.kind, subject: failure.subject, reason: failure.reason + "; " + kept)
    }

    /// The next take's file, numbered on from the takes in the folder. Under the folder's lock
    /// when it can be had at once: the number counts the files there, and the writer's file,
    /// made here, reserves it, so two captures into one folder never take the same number. When
    /// another process holds the lock (or its file cannot be used), the take is numbered without
    /// it rather than lost: the frames are waiting in the ring. Its name stays unique (a UUID);
    /// only a capture writing into the folder at that same moment could take the same number.
    private func openWriter() throws -> any TakeFileWriter {
        let lock = try? FolderLock.attempt(store.folder, .exclusive, for: ManifestStore.command,
                                          wait: FolderLock.Patience(FolderLock.briefWait)).lock
        return try withExtendedLifetime(lock) {
            // On from this capture's last take too: a writer may make no file (tests' fakes).
            let number = Swift.max(try TakesFolder.nextTakeNumber(in: store.folder), lastNumber + 1)
            let request = TakeFileRequest(directory: plan.outputDirectory, number: number, format: format,
                                          codec: codec, device: deviceName, live: live,
                                          encodeTimer: timers.encode, writeTimer: timers.write, sound: sound?.timeline)
            let writer = try makeWriter(request)
            lastNumber = number
            return writer
        }
    }

    private func makeEntry(_ writer: any TakeFileWriter, take: Int, frames: Int, duration: Double,
                           latency: LatencySummary?) -> TakeEntry {
        let record = log.record(for: take)
        let formatter = ISO8601DateFormatter()
        return TakeEntry(
            file: writer.fileName, thumbnail: writer.thumbnailName,
            created: formatter.string(from: record?.created ?? Date()),
            frames: frames, dropped: ring.dropped(take: take), duration: duration,
            fps: format.frameRate.description, width: format.width, height: format.height,
            codec: writer.codecName, device: deviceName, preroll: record?.preroll ?? 0,
            timeline: record?.timeline ?? [], latency: latency, prompter: record?.prompter, presenter: record?.presenter,
            audio: soundEntry(writer))
    }

    /// The take's sound for takes.json: the writer's levels, the audio thread's drift.
    private func soundEntry(_ writer: any TakeFileWriter) -> TakeSound? {
        guard let sound, let summary = writer.soundSummary else { return nil }
        let peak = summary.peakDBFS.isFinite ? (summary.peakDBFS * 10).rounded() / 10 : nil
        return TakeSound(device: sound.device, rate: summary.rate, channels: summary.channels, peak: peak,
                         missingMilliseconds: summary.missingMilliseconds.rounded(),
                         driftPPM: (sound.timeline.driftPPM * 10).rounded() / 10)
    }
}
