import Foundation
import VRenderMedia

/// The sound at the joins (`--transition`) for one output track, worked on the samples as they
/// enter the audio stage's converter, so the encoder sees one continuous track:
///
/// - fade: the outgoing take's last samples (exactly the instants its pictures share with the
///   next take: `Timeline.overlapSamples`) are held back from the encoder, then mixed into the
///   incoming take's first samples with linear gains that add up to one (FFmpeg's
///   `acrossfade` default): no sample steps further than the two takes' own do, so a join never
///   clicks (equal-power gains, tried first, sum to up to √2 mid-join and stepped 1.2–1.3 times
///   as far as the takes themselves on sines); two unrelated voices dip by up to 3 dB mid-join.
/// - dip: the outgoing take's samples under its fading frames are scaled down linearly to
///   silence, the incoming take's scaled up from it; nothing overlaps.
/// - a join between pieces of one take (`--cut-pauses`, `--cut-retakes`; with or without
///   `--transition`): a cut in the pictures, and the sound's `pieceFade` (10 ms) each side faded
///   out and in linearly within the pieces' own samples, so the cut never clicks and sound and
///   pictures keep exactly their lengths.
///
/// Confined to the audio stage's thread, as its converter is.
final class TransitionSound {
    private let plan: TransitionPlan?
    private let timeline: Timeline
    /// The join being mixed into the incoming take: its length in samples, the outgoing take's
    /// tail (fade; nil for a dip's fade-in) and how far the mix has got.
    private var head: (length: Int, tail: [[Float]]?, done: Int)?

    /// Seconds of sound faded out before and in after a join between pieces of one take: long
    /// enough that the step a cut makes becomes a ramp (480 samples at 48 kHz, where a cut jumps
    /// in one), short enough that the 20 ms dip in a pause is not heard.
    static let pieceFade = 0.010

    init(plan: TransitionPlan?, timeline: Timeline, converter: AudioConverter) {
        self.plan = plan
        self.timeline = timeline
        // Held strongly: the converter (the stage's) must not outlive what it calls, and this
        // holds no reference back, so there is no cycle.
        if plan != nil || timeline.takes.contains(where: \.continuesTake) { converter.shaper = { [self] block in shape(block) } }
    }

    /// Samples each side of the join after piece `index` that a piece join fades: `pieceFade`,
    /// at most half of either piece.
    private func pieceFadeSamples(afterTake index: Int) -> Int {
        let (take, next) = (timeline.takes[index], timeline.takes[index + 1])
        let wanted = Int((Self.pieceFade * Double(timeline.sampleRate)).rounded())
        return Swift.max(0, Swift.min(wanted, take.sampleCount / 2, next.sampleCount / 2))
    }

    /// Samples of take `index` that must stay in the converter until it ends (the encoder takes
    /// only what lies before them): its part of the next join.
    func reserve(forTake index: Int) -> Int {
        guard index < timeline.takes.count - 1 else { return 0 }
        if timeline.takes[index + 1].continuesTake { return pieceFadeSamples(afterTake: index) }
        guard let plan else { return 0 }
        let take = timeline.takes[index]
        let end = take.firstSample + take.sampleCount
        switch plan.kind {
        case .fade: return timeline.overlapSamples(beforeTake: index + 1)
        case .dip: return end - timeline.sample(atSlot: take.firstSlot + take.slotCount - plan.frames)
        }
    }

    /// Take `index` is wholly in `converter` (its `reserve` included): its tail is taken out and
    /// faded (dip, piece join: put back), and the next take's first samples will be mixed or
    /// faded in as they come.
    func endTake(_ index: Int, converter: AudioConverter) throws {
        let count = reserve(forTake: index)
        guard count > 0 else { return }
        var tail = try converter.removeTail(count)
        let length = tail.first?.count ?? 0
        if timeline.takes[index + 1].continuesTake || plan?.kind == .dip {
            for channel in tail.indices {
                for sample in 0..<length { tail[channel][sample] *= Float(Double(length - sample) - 0.5) / Float(length) }
            }
            try converter.appendUnshaped(tail)
            let next = timeline.takes[index + 1]
            let fadeIn = next.continuesTake ? count : timeline.sample(atSlot: next.firstSlot + (plan?.frames ?? 0)) - next.firstSample
            head = (fadeIn, nil, 0)
        } else {
            head = (length, tail, 0)
        }
    }

    /// Mixes or fades the incoming take's first samples (the converter's `shaper`).
    private func shape(_ block: SampleBlock) {
        guard let (length, tail, done) = head else { return }
        let count = Swift.min(block.count, length - done)
        for index in 0..<count {
            let position = (Double(done + index) + 0.5) / Double(length)
            for channel in 0..<block.channels {
                if let tail {
                    block[channel, index] = Float(Double(block[channel, index]) * position + Double(tail[channel][done + index]) * (1 - position))
                } else {
                    block[channel, index] *= Float(position)
                }
            }
        }
        head = done + count < length ? (length, tail, done + count) : nil
    }
}
