import Foundation
import Synchronization
import VRenderCore
import VRenderFilters
import VRenderMedia
import VRenderRecording

/// The studio's live preview: takes the capture's frames as `LivePreview`, and on a worker
/// thread of its own scales the newest one to at most `maxWidth`, runs the preview filter on the
/// small picture (CPU), encodes it to JPEG and delivers it as a `PreviewFrame`.
///
/// Recording has priority: `offer` only references the frame (`av_frame_ref`, no pixel copy)
/// into a one-slot mailbox and returns. A frame still waiting there when a newer one comes is
/// let go (counted as dropped), so a slow preview shows the newest picture and skips the rest;
/// the capture never waits for it. Call `stop()` when done: the worker holds the encoder until then.
package final class PreviewEncoder: LivePreview {
    /// What the preview did so far (the studio reports its CPU share from `encodeSeconds`).
    package struct Counters: Sendable, Equatable {
        package var offered = 0
        package var encoded = 0
        /// Frames let go unseen: replaced in the mailbox by a newer one, or offered after `stop`.
        package var dropped = 0
        /// Pictures that could not be scaled, filtered or encoded (the error is in `lastError`).
        package var failed = 0
        /// Seconds the worker spent scaling, filtering and encoding (thread CPU time).
        package var encodeSeconds = 0.0
        package var lastError: String?
    }

    /// Shared between the capture thread, the worker and the studio; guarded by `lock`.
    private struct Shared {
        /// The one-slot mailbox: a frame shell referencing the newest unclaimed frame.
        var waiting: Offer?
        /// An empty shell to reference the next frame into (the worker hands its own back).
        var spare: Frame? = Frame()
        var filter = FilterChain([])
        var stopped = false
        var counters = Counters()
    }

    struct Offer {
        var frame: Frame
        var monotonic: Double?
        var sequence: Int
    }

    package let maxWidth: Int
    private let lock = ConditionLock()
    // Guarded by `lock`: every access is inside `lock.withLock`.
    nonisolated(unsafe) private var shared = Shared()
    private let worker: PreviewWorker
    private let thread = StageGroup()
    /// Tests only: runs on the worker right after it claimed a frame, before any work on it.
    private let claimed: (@Sendable (Int) -> Void)?

    /// `quality`: the JPEG quantiser scale (2 best … 31); `deliver` is called on the worker
    /// thread with each picture and must not call `stop`.
    package convenience init(maxWidth: Int = 960, quality: Int = 6, deliver: @escaping @Sendable (PreviewFrame) -> Void) throws {
        try self.init(maxWidth: maxWidth, quality: quality, claimed: nil, deliver: deliver)
    }

    init(maxWidth: Int, quality: Int, claimed: (@Sendable (Int) -> Void)?, deliver: @escaping @Sendable (PreviewFrame) -> Void) throws {
        guard maxWidth >= 2 else {
            throw VRenderError.option("preview width", "\(maxWidth) is too small: the preview needs at least 2 pixels")
        }
        self.maxWidth = maxWidth
        self.claimed = claimed
        worker = PreviewWorker(maxWidth: maxWidth, encoder: try JPEGEncoder(quality: quality), deliver: deliver)
        // Niceness 5: the capture and the take's encoder come first.
        thread.start("vrender-preview", niceness: 5) { [self] in run() }
    }

    /// The filter later pictures are shown with; any thread.
    package func setFilter(_ chain: FilterChain) {
        lock.withLock { shared.filter = chain }
    }

    /// `setFilter` for a page's choice: a `--filter` specification such as "mono"; "" for none.
    /// Throws an option error naming the unknown filter, leaving the current one.
    package func setFilter(specification: String) throws {
        setFilter(specification.isEmpty ? FilterChain([]) : try FilterRegistry.chain(specification))
    }

    package var counters: Counters { lock.withLock { shared.counters } }

    /// Ends the worker after the picture it is on and lets the waiting frame go. Waits for the
    /// worker, so a `deliver` never comes after `stop` returns. Not from `deliver`.
    package func stop() {
        lock.withLock {
            shared.stopped = true
            if shared.waiting != nil { shared.counters.dropped += 1 }
            shared.waiting = nil
            lock.broadcast()
        }
        thread.join()
    }

    /// Capture thread: references `frame` into the mailbox (letting an unclaimed older one go)
    /// and returns; never copies pixels and never waits for the worker.
    package func offer(_ frame: Frame, time: Double, monotonic: Double?, sequence: Int) {
        lock.withLock {
            shared.counters.offered += 1
            guard !shared.stopped else {
                shared.counters.dropped += 1
                return
            }
            let shell: Frame
            if let older = shared.waiting {
                shell = older.frame
                shared.counters.dropped += 1
            } else {
                shell = shared.spare ?? Frame()
                shared.spare = nil
            }
            do {
                try shell.reference(frame)  // av_frame_ref: the buffers are shared, not copied
                shared.waiting = Offer(frame: shell, monotonic: monotonic, sequence: sequence)
                lock.broadcast()
            } catch {
                shared.waiting = nil
                shared.spare = shell
                shared.counters.failed += 1
                shared.counters.lastError = "\(error)"
            }
        }
    }

    /// The worker: waits for a frame, claims it (handing its previous shell back as the spare)
    /// and turns it into a preview picture outside the lock.
    private func run() {
        var done: Frame?
        while true {
            let next: (Offer, FilterChain)? = lock.withLock {
                if let done {
                    done.unref()
                    shared.spare = done
                }
                while shared.waiting == nil && !shared.stopped { lock.wait() }
                guard !shared.stopped, let offer = shared.waiting else { return nil }
                shared.waiting = nil
                return (offer, shared.filter)
            }
            guard let (offer, filter) = next else { break }
            claimed?(offer.sequence)
            let started = Self.threadCPUSeconds()
            let outcome = Result { try worker.show(offer, filter: filter) }
            let seconds = Self.threadCPUSeconds() - started
            lock.withLock {
                shared.counters.encodeSeconds += seconds
                switch outcome {
                case .success: shared.counters.encoded += 1
                case .failure(let error):
                    shared.counters.failed += 1
                    shared.counters.lastError = "\(error)"
                }
            }
            done = offer.frame
        }
    }

    /// CPU seconds this thread has run: the preview's share of a core, whatever else runs.
    private static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

// @unchecked Sendable: only the preview's worker thread ever touches it (created before it starts).
final class PreviewWorker: @unchecked Sendable {
    private let maxWidth: Int
    private let encoder: JPEGEncoder
    private let deliver: @Sendable (PreviewFrame) -> Void
    /// Reused while the camera's size stays: the scaler, the scaled and the filtered picture.
    private var normalizer: FrameNormalizer?
    private var scaled: Frame?
    private var filtered: Frame?

    init(maxWidth: Int, encoder: JPEGEncoder, deliver: @escaping @Sendable (PreviewFrame) -> Void) {
        self.maxWidth = maxWidth
        self.encoder = encoder
        self.deliver = deliver
    }

    /// The preview size for a camera picture: at most `maxWidth` wide, aspect kept, even sides.
    static func previewSize(width: Int, height: Int, maxWidth: Int) -> (width: Int, height: Int) {
        let targetWidth = max(2, min(width, maxWidth) & ~1)
        let targetHeight = max(2, Int((Double(height) * Double(targetWidth) / Double(max(width, 1))).rounded()) & ~1)
        return (targetWidth, targetHeight)
    }

    func show(_ offer: PreviewEncoder.Offer, filter: FilterChain) throws {
        let source = offer.frame
        let size = Self.previewSize(width: source.width, height: source.height, maxWidth: maxWidth)
        if normalizer?.canvasWidth != size.width || normalizer?.canvasHeight != size.height {
            normalizer = FrameNormalizer(canvasWidth: size.width, canvasHeight: size.height)
            scaled = try Frame.picture(width: size.width, height: size.height)
            filtered = try Frame.picture(width: size.width, height: size.height)
        }
        guard let normalizer, let scaled, let filtered else { return }
        try normalizer.normalize(source, rotation: .none, into: scaled)
        var shown = scaled
        if !filter.isIdentity {
            // One thread: the preview must leave the cores to the recording.
            filter.run(source: scaled.yuvImage(), destination: filtered.yuvImage(), threads: 1)
            shown = filtered
        }
        let captured = Self.wallClockMilliseconds(ofMonotonic: offer.monotonic)
        let picture = try encoder.encode(shown) { jpeg in
            PreviewFrame(capturedAtUnixMilliseconds: captured, sequence: offer.sequence, width: size.width,
                         height: size.height, jpeg: jpeg)
        }
        deliver(picture)
    }

    /// A CLOCK_MONOTONIC instant (seconds) moved onto the wall clock, as Unix milliseconds:
    /// now on the wall clock less how long ago it was. Now when the instant is not known.
    static func wallClockMilliseconds(ofMonotonic monotonic: Double?) -> Double {
        var wall = timespec(), steady = timespec()
        clock_gettime(CLOCK_REALTIME, &wall)
        clock_gettime(CLOCK_MONOTONIC, &steady)
        let wallSeconds = Double(wall.tv_sec) + Double(wall.tv_nsec) / 1e9
        guard let monotonic else { return wallSeconds * 1000 }
        let steadySeconds = Double(steady.tv_sec) + Double(steady.tv_nsec) / 1e9
        return (wallSeconds - (steadySeconds - monotonic)) * 1000
    }
}
