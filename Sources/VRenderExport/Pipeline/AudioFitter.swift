import VRenderCore
import VRenderMedia

/// One output audio track's sound, take by take: decodes each take's audio, converts it to
/// the timeline's rate in stereo and fits it to the take's share of the timeline
/// (`AudioAligner`: silence for late audio and takes without any, early and surplus audio
/// cut), then fades or cross-fades it at the joins (`TransitionSound`). After every step
/// `drain` is called with how many of the converter's samples may be taken out (the current
/// take's part of the next join stays until the take ends).
///
/// The audio stage encodes what it drains; the loudness measurement (`LoudnessMeasurement`)
/// meters it. Both fit the sound with this one type, so what is measured is what is encoded.
final class AudioFitter {
    let converter: AudioConverter
    private let plan: ExportPlan
    private var aligner: AudioAligner
    private var decoder: Decoder?
    private var videoStart = 0.0
    private let shell = Frame()
    private let drain: (AudioConverter, _ available: Int) throws -> Void
    private let joins: TransitionSound
    /// Samples of the current take kept back from `drain`: its part of the next transition.
    private var reserve = 0

    init(plan: ExportPlan, interleaved: Bool, drain: @escaping (AudioConverter, _ available: Int) throws -> Void) {
        self.plan = plan
        converter = AudioConverter(sampleRate: plan.timeline.sampleRate, channels: 2, interleaved: interleaved)
        aligner = AudioAligner(timeline: plan.timeline)
        joins = TransitionSound(plan: plan.transition, timeline: plan.timeline, converter: converter)
        self.drain = drain
    }

    private func drainAvailable() throws {
        try drain(converter, Swift.max(0, converter.buffered - reserve))
    }

    /// Take `index` begins; `decoder` decodes its audio for this track (nil: it has none).
    func beginTake(_ index: Int, decoder: Decoder?) throws {
        aligner.beginTake(index)
        reserve = joins.reserve(forTake: index)
        self.decoder = decoder
        videoStart = plan.takes[index].video.startTime
        // A take without this track is silence throughout, known now: drained at once, so
        // that the muxer (which writes by time, `MuxOrder`) need not hold the take's video
        // until the reader reaches its end.
        if decoder == nil { try appendSilence(aligner.endTake()) }
    }

    func decode(_ packet: Packet) throws {
        try decoder?.decode(packet, makeFrame: { shell.unref(); return shell }, output: accept)
    }

    /// The take ends: the decoder is flushed, the take filled to its length. Returns the
    /// decoder's damage count.
    func endTake(_ index: Int) throws -> Int {
        try decoder?.decode(nil, makeFrame: { shell.unref(); return shell }, output: accept)
        aligner.record(dropped: 0, kept: try converter.flushResampler(limit: aligner.room))
        try appendSilence(aligner.endTake())
        try joins.endTake(index, converter: converter)
        reserve = 0
        let damaged = decoder?.damaged ?? 0
        decoder = nil
        try drainAvailable()
        return damaged
    }

    private func accept(_ frame: Frame) throws {
        let offset = decoder?.seconds(of: frame).map { $0 - videoStart }
        let cut = frame.sampleRate > 0
            ? aligner.cut(frameStartingAt: offset, lasting: Double(frame.sampleCount) / Double(frame.sampleRate))
            : aligner.cut(frameStartingAt: offset)
        try appendSilence(cut.silenceBefore)
        let appended = try converter.append(frame, dropFirst: cut.dropFirst, limit: cut.limit)
        aligner.record(dropped: appended.dropped, kept: appended.kept)
        try drainAvailable()
    }

    // Silence goes in a second at a time, each drained before the next: a take without
    // audio an hour long would otherwise sit in the converter's buffer whole (1.4 GB).
    private func appendSilence(_ count: Int) throws {
        var remaining = count
        while remaining > 0 {
            let chunk = Swift.min(remaining, plan.timeline.sampleRate)
            try converter.appendSilence(chunk)
            try drainAvailable()
            remaining -= chunk
        }
    }
}
