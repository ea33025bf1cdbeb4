import VRenderCore

/// The film set's clapper board shared by the synthetic camera and the synthetic microphone: the
/// camera draws a flash and the microphone clicks at the same scene instants, so a tool that
/// is not vrender can measure sound against picture from the recorded file alone.
///
/// A clap is a frame: the one nearest each whole second of the scene clock, and the one nearest
/// each `clap` action. Its instant is that frame's time (k · den / num, as the camera computes
/// it), so the click lands on the flash exactly even at rates like 29.97 fps, where whole seconds
/// fall between frames. `audio-gap` actions are kept here for the microphone, which the
/// camera's `apply(_:at:)` cannot reach directly.
// @unchecked Sendable: every stored property is read and written only inside `lock`.
package final class Clapper: @unchecked Sendable {
    /// A span the microphone loses, as a device that missed periods: `start` scene seconds, `length` seconds.
    package struct Gap: Sendable, Equatable {
        package var start: Double
        package var length: Double
    }

    package let frameRate: Rational
    private let lock = ConditionLock()
    private var actionFrames: Set<Int> = []
    private var gaps: [Gap] = []
    private var origin: UInt64?

    package init(frameRate: Rational) {
        self.frameRate = frameRate
    }

    /// Time of frame `index`, exactly as the synthetic camera stamps it.
    package func time(ofFrame index: Int) -> Double {
        Double(index) * Double(frameRate.denominator) / Double(frameRate.numerator)
    }

    /// The frame nearest scene time `time` (a tie goes to the later frame).
    package func frame(nearest time: Double) -> Int {
        Int((time * Double(frameRate.numerator) / Double(frameRate.denominator)).rounded(.toNearestOrAwayFromZero))
    }

    /// Adds a clap on the frame nearest scene time `time` (a `clap` action).
    package func clap(at time: Double) {
        let frame = frame(nearest: time)
        lock.withLock { _ = actionFrames.insert(frame) }
    }

    /// Adds a gap of `length` seconds from scene time `time` (an `audio-gap` action).
    package func gap(at time: Double, length: Double) {
        lock.withLock { gaps.append(Gap(start: time, length: length)) }
    }

    /// CLOCK_MONOTONIC nanoseconds of scene time 0 while the camera runs paced to the wall clock
    /// (nil before it starts, or in batch): a live microphone started later begins at the scene
    /// time of its start, as a real one would, instead of lagging the picture by the difference.
    package var sceneOrigin: UInt64? {
        get { lock.withLock { origin } }
        set { lock.withLock { origin = newValue } }
    }

    /// The gaps added so far, in the order they were added (which is time order: actions arrive so).
    package var allGaps: [Gap] { lock.withLock { gaps } }

    /// The clap frames whose times lie in `start..<end`, ascending.
    package func clapFrames(from start: Double, to end: Double) -> [Int] {
        guard end > start, end > 0 else { return [] }
        let first = Swift.max(0, Int(start.rounded(.down)) - 1)
        let last = Int(end.rounded(.up)) + 1
        var frames = Set((first...last).map { frame(nearest: Double($0)) })
        frames.formUnion(lock.withLock { actionFrames })
        return frames.filter { time(ofFrame: $0) >= start && time(ofFrame: $0) < end }.sorted()
    }

    /// Every clap instant (its frame's time) in `start..<end`, ascending.
    package func claps(from start: Double, to end: Double) -> [Double] {
        clapFrames(from: start, to: end).map { time(ofFrame: $0) }
    }

    /// True when frame `index` shows a clap.
    package func flashes(frame index: Int) -> Bool {
        if lock.withLock({ actionFrames.contains(index) }) { return true }
        let second = time(ofFrame: index).rounded()
        return frame(nearest: second) == index
    }

    /// Paints the clapper's patch: a square in the top-left corner, its side a sixth of the
    /// picture's height rounded down to even (so the 4:2:0 chroma covers it exactly), at least 2
    /// pixels; white on a flash frame, black on every other. Black rather than the scene, because
    /// a bright sky or the torch would otherwise leave too little between flash and no flash for
    /// a measuring tool that reads the patch's luma after lossy encoding.
    static func drawPatch(into image: YUVImage, flash: Bool) {
        let side = Swift.min(Swift.max(2, image.height / 6 & ~1), image.width & ~1)
        let luma: UInt8 = flash ? 235 : 16
        for y in 0..<side {
            image.luma.row(y).update(repeating: luma, count: side)
        }
        for y in 0..<(side / 2) {
            image.cb.row(y).update(repeating: 128, count: side / 2)
            image.cr.row(y).update(repeating: 128, count: side / 2)
        }
    }
}
