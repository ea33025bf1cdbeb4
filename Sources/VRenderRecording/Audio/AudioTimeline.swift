import Foundation
import VRenderCore

/// The microphone's sound on the capture clock: sample `i` was captured at capture time
/// i / rate (negative before the camera's frame 0). The audio thread appends sound already
/// aligned and drift-corrected (`AudioCapture`), and silence standing for what the device lost;
/// the take writer reads each take's span, the capture thread prunes what no take will need.
///
/// - Pre-roll: sound is kept back to the oldest frame a take may start with (`prune`), so a
///   take with pre-roll has its sound too; a take being written pins what it has not read.
/// - Batch (a source that is not live, the synthetic microphone in batch): the audio thread may
///   run only as far as the camera (`allow`), so the same frames always meet the same sound and
///   memory stays bounded; the writer waits for the sound of each frame.
/// - Live: the writer takes what has arrived and never waits, except at a take's end (bounded).
// @unchecked Sendable: every mutable field is touched only with `lock` held.
final class AudioTimeline: @unchecked Sendable {
    let rate: Int
    let channels: Int
    let live: Bool
    private let lock = QueueLock()
    /// Interleaved samples from index `base`, starting at `storage[head]`.
    private var storage: [Float] = []
    private var head = 0
    private var base: Int64 = 0
    /// Index after the last sample; nil before the first.
    private var end: Int64?
    /// Silence appended for sound the device lost (xruns, stalls), oldest first.
    private var lost: [Range<Int64>] = []
    /// Batch: the index the audio thread may append up to.
    private var allowed: Int64 = 0
    /// The open take's next unread index: nothing from there on is pruned.
    private var pinned: Int64?
    private var meter = LevelMeter()
    private var drift = 0.0
    /// A live timeline keeps at most this much sound, the pin notwithstanding (a stalled
    /// writer must not take the machine's memory); what goes is read as lost.
    private let maxFrames: Int

    init(rate: Int, channels: Int, live: Bool, maxSeconds: Double = 60) {
        self.rate = rate
        self.channels = channels
        self.live = live
        maxFrames = Int(maxSeconds * Double(rate))
    }

    /// The timeline index of capture time `seconds`.
    func index(at seconds: Double) -> Int64 { Int64((seconds * Double(rate)).rounded()) }

    // MARK: - The audio thread

    /// Appends `frames` aligned samples, or silence (`samples` nil; `lost`: it stands for sound
    /// the device lost). The first call places the sound at `start`; later ones follow on.
    /// `clipped`: the device delivered a sample at full scale in them (the meter's CLIP).
    func append(_ samples: UnsafeBufferPointer<Float>?, frames: Int, start: Int64, lost isLost: Bool = false,
                clipped: Bool = false) {
        guard frames > 0 else { return }
        lock.update {
            if end == nil {
                base = start
                end = start
            }
            let from = end!
            if let samples {
                storage.append(contentsOf: samples.prefix(frames * channels))
                meter.add(samples.prefix(frames * channels), clipped: clipped)
            } else {
                storage.append(contentsOf: repeatElement(0, count: frames * channels))
                if isLost { lost.append(from..<(from + Int64(frames))) }
            }
            end = from + Int64(frames)
            if live { trim(keepingFrom: end! - Int64(maxFrames), forced: true) }
        }
    }

    /// The drift the audio thread measures, for takes.json.
    func setDrift(_ ppm: Double) { lock.withLock { drift = ppm } }

    /// Batch: waits until the camera has reached `index` (true), or the timeline was closed (false).
    func waitForCamera(through index: Int64) -> Bool {
        lock.withLock {
            lock.wait(while: { allowed < index })
            return !lock.isCancelled && !lock.isFinished
        }
    }

    /// The source ended (the audio thread tells the user why). Readers get silence from here on.
    func sourceEnded() { lock.finish() }

    // MARK: - The capture thread

    /// Batch: the camera has captured up to capture time `seconds`.
    func allow(through seconds: Double) {
        let index = index(at: seconds)
        lock.update { allowed = Swift.max(allowed, index) }
    }

    /// Forgets sound before capture time `seconds` that no open take still needs.
    func prune(before seconds: Double) {
        let index = index(at: seconds)
        lock.withLock { trim(keepingFrom: index, forced: false) }
    }

    /// Capture is over: the audio thread stops at its next wait, readers stop waiting.
    func close() { lock.cancel() }

    /// The level of the last half second and the sound lost since capture time `since`.
    func status(since seconds: Double) -> (peak: Double, clipped: Bool, lostMilliseconds: Double) {
        let from = index(at: seconds)
        return lock.withLock {
            (meter.peak, meter.clippedRecently, Double(lostFrames(in: Self.span(from, end ?? from))) * 1000 / Double(rate))
        }
    }

    /// Drift measured so far (ppm).
    var driftPPM: Double { lock.withLock { drift } }

    // MARK: - The take writer

    /// Pins sound from `index` on (the take's next read); nil unpins.
    func pin(_ index: Int64?) { lock.withLock { pinned = index } }

    /// The end of what can be read now, up to `through`: in batch, waits for it; live, waits
    /// only until `deadline` (`MonotonicClock` ns; nil: not at all). Past the source's end,
    /// `through` (the rest reads as silence).
    func available(through: Int64, deadline: UInt64?) -> Int64 {
        lock.withLock {
            while true {
                if let end, end >= through { return through }
                if lock.isFinished || lock.isCancelled { return through }
                if live {
                    guard let deadline, MonotonicClock.now() < deadline else { return Swift.min(end ?? Int64.min, through) }
                    lock.waitForChange(untilNanoseconds: deadline)
                } else {
                    lock.waitForChange()
                }
            }
        }
    }

    /// Copies samples [from, from + frames) into `destination` (interleaved). Samples the
    /// timeline does not hold (before the sound began, pruned, after the source ended) are
    /// silence. Returns how many frames of the span are missing sound: not held, or lost.
    func copy(from: Int64, frames: Int, into destination: UnsafeMutableBufferPointer<Float>) -> Int {
        precondition(destination.count >= frames * channels)
        return lock.withLock {
            let span = from..<(from + Int64(frames))
            let held = Self.span(Swift.max(span.lowerBound, base), Swift.min(span.upperBound, end ?? base))
            _ = destination.initialize(from: repeatElement(0, count: frames * channels))
            if !held.isEmpty {
                let source = head + Int(held.lowerBound - base) * channels
                let target = Int(held.lowerBound - from) * channels
                storage.withUnsafeBufferPointer {
                    _ = UnsafeMutableBufferPointer(rebasing: destination[target..<(target + held.count * channels)])
                        .update(fromContentsOf: $0[source..<(source + held.count * channels)])
                }
            }
            return frames - held.count + lostFrames(in: held)
        }
    }

    // MARK: - Internals (lock held)

    /// `from..<to`, empty when `to` is before `from`.
    private static func span(_ from: Int64, _ to: Int64) -> Range<Int64> { from..<Swift.max(from, to) }

    private func lostFrames(in span: Range<Int64>) -> Int {
        lost.reduce(0) { total, range in
            total + Self.span(Swift.max(range.lowerBound, span.lowerBound), Swift.min(range.upperBound, span.upperBound)).count
        }
    }

    /// Drops samples before `index`: never past the pin unless `forced`.
    private func trim(keepingFrom index: Int64, forced: Bool) {
        guard let end else { return }
        var limit = Swift.min(index, end)
        if !forced, let pinned { limit = Swift.min(limit, pinned) }
        guard limit > base else { return }
        head += Int(limit - base) * channels
        base = limit
        lost.removeAll { $0.upperBound <= limit }
        // Compact once the dead prefix outweighs what is kept, so appends stay amortized O(1).
        if head > 65_536 && head > storage.count / 2 {
            storage.removeFirst(head)
            head = 0
        }
    }
}

/// Peak level over the last half second of sound, and whether the device clipped in the last two:
/// the status line's meter.
struct LevelMeter {
    private var recentPeak = 0.0
    private var previousPeak = 0.0
    private var windowFrames = 0
    private var sinceClip = Int.max
    /// Samples per window (interleaved; set for 48 kHz stereo, close enough for a meter).
    private let window = 24_000 * 2

    /// `clipped`: the device's own samples reached full scale (read before resampling, whose
    /// filter overshoots a loud click past full scale without any clipping).
    mutating func add(_ samples: Slice<UnsafeBufferPointer<Float>>, clipped: Bool) {
        var peak: Float = 0
        for sample in samples { peak = Swift.max(peak, abs(sample)) }
        if windowFrames >= window {
            previousPeak = recentPeak
            recentPeak = 0
            windowFrames = 0
        }
        recentPeak = Swift.max(recentPeak, Double(peak))
        windowFrames += samples.count
        // Saturating: it starts at Int.max (never clipped), and `&+` wrapped that negative,
        // which read as "clipped just now" for every device that never clipped.
        sinceClip = clipped ? 0 : (sinceClip > Int.max - samples.count ? Int.max : sinceClip + samples.count)
    }

    /// The highest sample of this window and the one before (0...1).
    var peak: Double { Swift.max(recentPeak, previousPeak) }

    var clippedRecently: Bool { sinceClip < 4 * window }

    /// The peak as dBFS (−inf for silence).
    static func decibels(_ peak: Double) -> Double { peak > 0 ? 20 * log10(peak) : -.infinity }
}
