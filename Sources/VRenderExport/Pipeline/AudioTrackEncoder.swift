import VRenderCore
import VRenderMedia

/// The audio stage's encoding end: takes the sound the fitter lets go of, through the track's
/// loudness shaper when it has a gain, and encodes it in the encoder's frame size. A class
/// because the fitter's drain and the stage's end both feed it; used on the stage's thread only.
final class AudioTrackEncoder {
    private let encoder: Encoder
    private let frameSize: Int
    private let send: (Packet) throws -> Void
    /// With a gain, the fitted sound goes through the shaper into a second buffer, the
    /// encoder's; without, the encoder takes it straight from the fitter's converter.
    private var shaper: LoudnessShaper?
    private let shaped: AudioConverter?
    private var samples: [Float] = []
    private var encodedSamples: Int64 = 0
    /// Samples still to be dropped from the start: without edit lists a player plays the
    /// encoder's priming (AAC's 1024 samples) as sound, so the sound's own first samples give
    /// way to it and every later one plays at its time (the first ~21 ms are the priming's).
    private var samplesToDrop: Int

    init(encoder: Encoder, gainDecibels: Double?, sampleRate: Int, editLists: Bool = true,
         send: @escaping (Packet) throws -> Void) {
        self.encoder = encoder
        samplesToDrop = editLists ? 0 : encoder.initialPadding
        encodedSamples = Int64(samplesToDrop)
        frameSize = encoder.frameSize > 0 ? encoder.frameSize : 1024
        self.send = send
        shaper = gainDecibels.map { LoudnessShaper(gainDecibels: $0, sampleRate: sampleRate) }
        shaped = shaper.map { _ in
            AudioConverter(sampleRate: sampleRate, channels: 2, interleaved: encoder.takesInterleavedAudio)
        }
    }

    var takesInterleavedAudio: Bool { encoder.takesInterleavedAudio }

    /// Encodes whole frames of the `available` samples `fitted` lets go of (a join's samples
    /// stay until it is mixed); with `final`, the shaper's tail and a last short frame too.
    func encode(_ fitted: AudioConverter, available: Int, final: Bool) throws {
        var (source, ready) = try shape(fitted, available: available, final: final)
        if samplesToDrop > 0, ready > 0, let dropped = try source.pop(count: Swift.min(samplesToDrop, ready), pts: 0) {
            samplesToDrop -= dropped.sampleCount
            ready -= dropped.sampleCount
        }
        while ready >= frameSize || (final && ready > 0) {
            guard let frame = try source.pop(count: Swift.min(frameSize, ready), pts: encodedSamples) else { break }
            ready -= frame.sampleCount
            encodedSamples += Int64(frame.sampleCount)
            try encoder.encode(frame, makePacket: Packet.init, output: send)
        }
    }

    /// Flushes the encoder's delayed packets, after the last `encode`.
    func flush() throws {
        try encoder.encode(nil, makePacket: Packet.init, output: send)
    }

    /// Where the encoder's samples are, and how many are ready: the fitter's converter, or,
    /// with a gain, the shaped buffer once `available` samples went through the shaper.
    private func shape(_ fitted: AudioConverter, available: Int, final: Bool) throws -> (AudioConverter, Int) {
        guard let shaped, shaper != nil else { return (fitted, available) }
        samples.removeAll(keepingCapacity: true)
        try fitted.popInterleaved(count: available, into: &samples)
        var out = shaper?.process(samples) ?? []
        if final { out += shaper?.finish() ?? [] }
        try out.withUnsafeBufferPointer { try shaped.appendInterleaved($0) }
        return (shaped, shaped.buffered)
    }
}
