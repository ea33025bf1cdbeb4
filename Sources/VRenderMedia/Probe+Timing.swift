internal import CFFmpeg
import VRenderCore

/// Two ways a file's timing differs from its packets' plain sequence, which an export must
/// follow to show what a player shows.
///
/// Edit lists: a phone's or `ffmpeg -ss … -c copy`'s trim keeps the whole group of pictures
/// the cut starts in, and an edit list hides the frames before the cut. FFmpeg's mov demuxer
/// marks those packets `AV_PKT_FLAG_DISCARD` (negative pts; audio gets `skip_samples`), and the
/// decoder decodes them as references without returning them. A stream copy would carry them.
///
/// Variable frame rate: a screen recording that drops repeated frames averages 15 fps while
/// every frame it keeps lasts 1/30 s. Its rate is the most common frame interval, not the
/// average, or an export at 15 fps would halve the motion of every other take.
extension Demuxer {
    /// Frames of the video an edit list hides before the take's start (index entries FFmpeg
    /// marked to discard): a trimmed start. Frames it hides later (a damaged composition offset
    /// pushing one past the edit's end, an edit list of several cuts) are left to the decoder,
    /// which drops them in a transcode, as before.
    func hiddenFrames(in stream: UnsafeMutablePointer<AVStream>) -> Int {
        let start = stream.pointee.start_time == vr_nopts_value() ? 0 : stream.pointee.start_time
        return (0..<avformat_index_get_entries_count(stream)).count { index in
            guard let entry = avformat_index_get_entry(stream, index) else { return false }
            return Int32(entry.pointee.flags) & AVINDEX_DISCARD_FRAME != 0 && entry.pointee.timestamp < start
        }
    }

    /// The take's frame rate: the average (`avg_frame_rate`) unless the most common interval
    /// between the presentation times `pts` (in `timeBase`) is shorter than the average one by
    /// more than 5% and more than a tick (a millisecond time base rounds 300 fps's 3.33 ms to
    /// 3), as frames dropped from a constant-rate stream make it. Then the nominal rate: the
    /// stream's `r_frame_rate`, or the nearest common rate, when within a tick of that
    /// interval, else the interval's own rate. Needs 4 intervals of which the most common is
    /// at least a third, and a rate within `MediaLimits.frameRates`.
    static func nominalRate(average: Rational, guessed: Rational?, pts: [Int64], timeBase: Rational) -> Rational {
        let sorted = pts.sorted()
        let intervals = zip(sorted, sorted.dropFirst()).map { $1 - $0 }.filter { $0 > 0 }
        guard intervals.count >= 4, average.doubleValue > 0, timeBase.doubleValue > 0 else { return average }
        var counts: [Int64: Int] = [:]
        for interval in intervals { counts[interval, default: 0] += 1 }
        guard let (common, times) = counts.max(by: { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }),
              times * 3 >= intervals.count else { return average }
        let ticks = { (rate: Rational) in 1 / (rate.doubleValue * timeBase.doubleValue) }
        let averageTicks = ticks(average), commonTicks = Double(common)
        guard averageTicks - commonTicks > Swift.max(1, 0.05 * commonTicks) else { return average }
        // A rate outside the limits is a damaged time scale's (a microsecond per frame), not a nominal one.
        guard MediaLimits.frameRates.contains(1 / (commonTicks * timeBase.doubleValue)) else { return average }
        let measured = Rational(timeBase.denominator, Int(common) * timeBase.numerator).reduced()  // ≤ 3600 s: no overflow
        let distance = { (rate: Rational) in abs(ticks(rate) - commonTicks) }
        let tolerance = Swift.max(1, 0.01 * commonTicks)
        if let guessed, guessed.doubleValue > 0, distance(guessed) <= tolerance { return guessed }
        if let near = commonRates.min(by: { distance($0) < distance($1) }), distance(near) <= tolerance { return near }
        return measured
    }

    /// Rates cameras and screen recorders use, for a measured interval that a millisecond
    /// time base rounds (33 ms is 30.3 fps).
    private static let commonRates = [Rational(24000, 1001), Rational(24, 1), Rational(25, 1), Rational(30000, 1001),
                                      Rational(30, 1), Rational(50, 1), Rational(60000, 1001), Rational(60, 1),
                                      Rational(120, 1), Rational(240, 1)]
}
