import VRenderCore

/// Finds video packets whose presentation time (pts) a damaged header moved far from where the
/// stream runs, and gives them a plausible one.
///
/// A QuickTime file states each frame's pts as its decoding time (the running sum of `stts`
/// durations) plus its own composition offset (`ctts`): one number per frame, so one flipped
/// bit moves one frame by up to hours while every length field stays right. Kept, that pts
/// stretches the take: a 2 s take with one offset grown by 2^20 ticks copied into a 69 s
/// container, or transcoded into 2,062 frames of one frozen picture. An encoder reorders frames
/// by a few frame durations (B-frames), never by more than `window`: a pts further than that
/// from its packet's dts is damage, and the frame is placed at its dts instead (shown once, in
/// decoding order's place). Without a dts, a pts more than `window` beyond the latest plausible
/// pts before it is one, and follows that pts by a frame. A container that stores no decoding
/// times at all (Matroska) is not checked: see `decodingTimesStored`.
package struct PresentationCheck: Sendable {

    /// The check for a take's video stream.
    package init(for video: VideoStreamInfo) {
        self.init(timeBase: video.timeBase, frameRate: video.frameRate, decodingTimesStored: video.decodingTimesStored)
    }

    /// How far a pts may lie from its reference, in the stream's ticks: 24 frame durations
    /// (far beyond any encoder's reordering), at least half a second.
    package let window: Int64
    private let frameTicks: Int64
    /// The highest plausible pts so far.
    private var latest: Int64?
    /// Packets given another pts so far.
    package private(set) var outliers = 0

    /// False where the container stores no decoding times (Matroska, WebM): FFmpeg then makes
    /// dts up at a constant pace, and a variable-frame-rate take's pts runs ahead of them by
    /// every frame it held (a screen recording still for a second): nothing can be told from them.
    private let decodingTimesStored: Bool

    package init(timeBase: Rational, frameRate: Rational, decodingTimesStored: Bool = true) {
        self.decodingTimesStored = decodingTimesStored
        let rate = frameRate.doubleValue > 0 ? frameRate.doubleValue : 30
        let ticksPerSecond = timeBase.doubleValue > 0 ? 1 / timeBase.doubleValue : 90_000
        window = Int64((Swift.max(24 / rate, 0.5) * ticksPerSecond).rounded(.up))
        frameTicks = Swift.max(1, Int64((ticksPerSecond / rate).rounded()))
    }

    /// The pts a packet keeps: its own, or for an outlier its dts (else a frame after the
    /// latest plausible pts), counted in `outliers`.
    package mutating func plausible(pts: Int64, dts: Int64?) -> Int64 {
        // Without stored decoding times a pts far ahead may be a held frame's successor as well
        // as damage: only a stored dts tells them apart.
        guard decodingTimesStored else { return pts }
        // In Double: a damaged pts may be near Int64's ends, where a difference overflows.
        let reference = dts ?? latest
        if let reference, abs(Double(pts) - Double(reference)) > Double(window), dts != nil || pts > reference {
            outliers += 1
            let placed = dts ?? reference &+ frameTicks
            latest = Swift.max(latest ?? placed, placed)
            return placed
        }
        latest = Swift.max(latest ?? pts, pts)
        return pts
    }

    /// How plans and summaries name the damage: `count` frames of `path` found with such a pts.
    package static func damageNote(_ path: String, count: Int) -> String {
        "\(path): \(count) frame(s) with a damaged timestamp (a pts far from its neighbours', a damaged header?): "
            + "placed by decoding order, the take keeps its length"
    }

    /// Checks a packet of the stream and gives an outlier its plausible pts. Returns true when
    /// the packet was one.
    @discardableResult
    package mutating func repair(_ packet: Packet) -> Bool {
        guard let pts = packet.pts else { return false }
        let placed = plausible(pts: pts, dts: packet.dts)
        packet.pts = placed
        return placed != pts
    }
}
