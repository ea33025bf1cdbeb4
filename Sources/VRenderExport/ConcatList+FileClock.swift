import VRenderCore
import VRenderMedia

/// A list's in and out points are times on the file's own clock, as FFmpeg's concat demuxer
/// reads them: the times its packets carry, so a WMV whose video starts at 0.043 s (ASF's
/// preroll) or an MPEG-TS starting at 1.4 s is cut where ffprobe shows those times, not that
/// long after its first picture. The frame on screen at `inpoint` is the first one kept (the
/// demuxer gives it a timestamp at or before the in point; the frames before it, from the
/// keyframe it seeks to, end before it and vrender leaves them out), and the frames starting
/// at or after `outpoint` are not (its `packet_after_outpoint`). A
/// `TakeTrim` (what `takes trim` sets) counts from the take's first picture instead: this
/// turns one into the other, on whole frames.
extension ConcatList.Entry {
    /// The trim from `info`'s first picture that keeps the frames FFmpeg's concat demuxer
    /// shows for this entry; nil when the list does not cut the file. Frames are placed on the
    /// take's rate from its first picture (frame k at `startTime + k / rate`), and a frame
    /// starting within a millisecond of a point counts as starting at it (millisecond time
    /// bases round: ASF, FLV, Matroska). Refused, naming the file, when no frame is left.
    package func trim(of info: MediaInfo) throws -> TakeTrim? {
        guard isTrimmed else { return nil }
        let rate = info.video.frameRate.doubleValue
        let first = info.video.startTime
        let slack = Swift.min(0.001, 0.25 / rate) * rate  // in frames
        // The frame on screen at the in point: the last one starting at or before it.
        let firstFrame = inpoint.map { Swift.max(0, Int((($0 - first) * rate + slack).rounded(.down))) } ?? 0
        // The first frame left out: the first starting at or after the out point.
        let outpoint = self.outpoint ?? duration.map { (inpoint ?? first) + $0 }
        let endFrame = outpoint.map { Swift.max(0, Int((($0 - first) * rate - slack).rounded(.up))) }
        if let endFrame, endFrame <= firstFrame {
            throw VRenderError.input(path, "its list's \(pointsText) keep no frame: its video starts at "
                                     + "\(TakeTrim.text(first)) s on the file's clock, a frame every \(TakeTrim.text(1 / rate)) s")
        }
        return TakeTrim(start: Double(firstFrame) / rate, end: endFrame.map { Double($0) / rate })
    }

    /// The entry's points as the list gives them, for notes and errors: "inpoint 0.200 s
    /// outpoint 0.800 s".
    package var pointsText: String {
        [("inpoint", inpoint), ("outpoint", outpoint), ("duration", duration)]
            .compactMap { name, value in value.map { "\(name) \(TakeTrim.text($0)) s" } }
            .joined(separator: " ")
    }
}
