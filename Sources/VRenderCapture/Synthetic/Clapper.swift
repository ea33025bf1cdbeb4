import VRenderCore

/// The film set's clapper board shared by the synthetic camera and the synthetic microphone: the
/// camera draws a flash and the microphone clicks at the same scene instants, so a tool that
/// is not vrender can measure sound against picture from the recorded file alone.
///
/// Instants are scene seconds (the synthetic camera's frame k is at k / fps): every whole second
/// implicitly, plus each `clap` action. `audio-gap` actions are kept here for the microphone,
/// which the camera's `apply(_:at:)` cannot reach directly.
// @unchecked Sendable: every stored property is read and written only inside `lock`.
public final class Clapper: @unchecked Sendable {
    /// A span the microphone loses, as a device that missed periods: `start` scene seconds, `length` seconds.
    public struct Gap: Sendable, Equatable {
        public var start: Double
        public var length: Double
    }

    private let lock = ConditionLock()
    private var actionClaps: [Double] = []
    private var gaps: [Gap] = []
    private var origin: UInt64?

    public init() {}

    /// Adds a clap at scene time `time` (a `clap` action).
    public func clap(at time: Double) {
        lock.withLock { actionClaps.append(time) }
    }

    /// Adds a gap of `length` seconds from scene time `time` (an `audio-gap` action).
    public func gap(at time: Double, length: Double) {
        lock.withLock { gaps.append(Gap(start: time, length: length)) }
    }

    /// CLOCK_MONOTONIC nanoseconds of scene time 0 while the camera runs paced to the wall clock
    /// (nil before it starts, or in batch): a live microphone started later begins at the scene
    /// time of its start, as a real one would, instead of lagging the picture by the difference.
    public var sceneOrigin: UInt64? {
        get { lock.withLock { origin } }
        set { lock.withLock { origin = newValue } }
    }

    /// The gaps added so far, in the order they were added (which is time order: actions arrive so).
    public var allGaps: [Gap] { lock.withLock { gaps } }

    /// Every clap instant in `start..<end`, ascending: the whole seconds and the actions' claps.
    public func claps(from start: Double, to end: Double) -> [Double] {
        guard end > start else { return [] }
        var instants: [Double] = []
        var second = Swift.max(0, start.rounded(.up))
        while second < end {
            instants.append(second)
            second += 1
        }
        let actions = lock.withLock { actionClaps }.filter { $0 >= start && $0 < end && $0 != $0.rounded() }
        return (instants + actions).sorted()
    }

    /// True when the frame at `time`, `frameInterval` seconds long, shows a clap: a clap instant
    /// lies within half a frame of it (half-open, so one instant never flashes two frames).
    public func flashes(frameAt time: Double, frameInterval: Double) -> Bool {
        let half = frameInterval / 2
        return !claps(from: time - half, to: time + half).isEmpty
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
