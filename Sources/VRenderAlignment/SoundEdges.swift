/// Word edges moved to where the take's sound starts and stops around a pause.
///
/// The warping path knows where a line's sound is, not where a pause around a word belongs:
/// silence matches silence, so a pause in the take longer than the synthesized one can go to
/// the word before it (a line's last word held on through the wait for the next line), and a
/// word's quiet tail (the hiss of "box") can go to the pause. The take's loudness settles both,
/// and only at a pause: a quiet stretch of at least `shortestPause` at the edge of a word's
/// span is taken off it; a word the path ends (or starts) short of a quiet frame, with nothing
/// said between, is carried up to it, by at most `reach`. Inside runs of speech the path's
/// edges stand.
enum SoundEdges {
    /// Quiet is this many dB under the loudest frame of the words' stretch (a word's sound has
    /// ended where it stays 40 dB under its phrase's peak sample: `SpokenPhrase.quiet`).
    static let quietBelowLoudest: Float = 35
    /// The stretch's noise (its 10th-percentile frame) must be this far under the quiet level,
    /// or it has no pauses to tell apart (a noisy room): nothing is moved.
    static let noiseMargin: Float = 10
    /// Shorter quiet stretches inside a word's span (a stop's closure) are the path's to place.
    static let shortestPause = 10
    /// Frames a word's edge is carried at most to reach a pause.
    static let reach = 25
    /// Loud stretches this short between quiet ones count as quiet: a click (the clapper's are
    /// 10 ms) is no speech.
    static let longestClick = 3
    /// Seconds of sound around the words that the noise level is measured on.
    static let margin = 0.5

    /// `words` (one line's, in order, the first said after `previousEnd`) with their edges
    /// fitted to the pauses around them.
    static func fitted(_ words: [ScriptAlignment.Word], in sound: TakeSound, after previousEnd: Double) throws -> [ScriptAlignment.Word] {
        guard let first = words.first, let last = words.last else { return words }
        let frames = try sound.clamped(SpeechFeatures.frame(at: first.start - margin)..<SpeechFeatures.frame(at: last.end + margin) + 1)
        guard frames.count > 2 * longestClick + 10, let quiet = quietFrames(Array(sound.loudness(frames))) else { return words }
        func isQuiet(_ frame: Int) -> Bool { !frames.contains(frame) || quiet[frame - frames.lowerBound] }
        var fitted = words
        for (index, word) in words.enumerated() {
            var (start, end) = (SpeechFeatures.frame(at: word.start), SpeechFeatures.frame(at: word.end))   // end: the first frame after
            var leading = start, trailing = end
            while leading < end, isQuiet(leading) { leading += 1 }
            while trailing > leading, isQuiet(trailing - 1) { trailing -= 1 }
            guard leading < trailing else { continue }   // no sound at all: nothing to go by
            if leading - start >= shortestPause { start = leading }
            if end - trailing >= shortestPause { end = trailing }
            // Carried to a quiet frame, not past the neighbouring word's edge.
            let earliest = Swift.max(start - reach, SpeechFeatures.frame(at: index > 0 ? words[index - 1].end : previousEnd))
            var before = start
            while before > earliest, !isQuiet(before - 1) { before -= 1 }
            if isQuiet(before - 1) { start = before }
            let latest = Swift.min(end + reach, index + 1 < words.count ? SpeechFeatures.frame(at: words[index + 1].start) : .max)
            var after = end
            while after < latest, !isQuiet(after) { after += 1 }
            if isQuiet(after) { end = after }
            fitted[index].start = SpeechFeatures.time(ofFrame: start)
            fitted[index].end = Swift.max(fitted[index].start, SpeechFeatures.time(ofFrame: end))
        }
        return fitted
    }

    /// Which of `loudness`'s frames are quiet, loud runs no longer than a click between quiet
    /// ones counted quiet; nil when the stretch is too noisy to tell.
    static func quietFrames(_ loudness: [Float]) -> [Bool]? {
        // The loudest that lasts longer than a click (a click is far louder than speech).
        let held = (0..<(loudness.count - longestClick)).map { loudness[$0...($0 + longestClick)].min()! }
        let threshold = held.max()! - quietBelowLoudest
        guard loudness.sorted()[loudness.count / 10] <= threshold - noiseMargin else { return nil }
        var quiet = loudness.map { $0 < threshold }
        var index = 0
        while index < quiet.count {
            guard !quiet[index] else { index += 1; continue }
            var end = index
            while end < quiet.count, !quiet[end] { end += 1 }
            if index > 0, end < quiet.count, end - index <= longestClick {
                for frame in index..<end { quiet[frame] = true }
            }
            index = end
        }
        return quiet
    }
}
