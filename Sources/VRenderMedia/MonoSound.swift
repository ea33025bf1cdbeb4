internal import CFFmpeg

/// A take's sound mixed to mono at a chosen rate, from a chosen time of the file on (the take's
/// first picture), handed over in blocks of a fixed size as it decodes: how silence finding and
/// caption alignment read sound, in memory of one block whatever the take's length. Samples go
/// where their timestamps put them: sound before the origin is skipped, a stream that starts
/// late or leaves a gap between packets is silence there.
package enum MonoSound {
    /// Calls `body` with each block of `block` samples (the last one shorter) of audio stream
    /// `stream` of `path` at `rate` Hz, from `origin` seconds on the file's clock to the end.
    package static func read(path: String, stream: Int, from origin: Double, rate: Int, block: Int,
                             _ body: (UnsafeBufferPointer<Float>) throws -> Void) throws {
        let demuxer = try Demuxer(path: path)
        let decoder = try Decoder(demuxer: demuxer, streamIndex: stream, threads: 1)
        let converter = AudioConverter(sampleRate: rate, channels: 1, interleaved: true)
        var samples: [Float] = []
        samples.reserveCapacity(block)
        // Samples placed so far, from the origin on.
        var position = 0
        let tolerance = rate / 500   // 2 ms: the resampler's own delay is less
        func drain(final: Bool) throws {
            while converter.buffered >= block || (final && converter.buffered > 0) {
                samples.removeAll(keepingCapacity: true)
                try converter.popInterleaved(count: block, into: &samples)
                try samples.withUnsafeBufferPointer(body)
            }
        }
        // Each frame goes where its timestamp says, as a player places it: a gap before it (a
        // late start; a take's first AAC packet stands apart from the next) is silence, what
        // lies before the origin or over sound already placed is dropped. A frame without a
        // time follows the one before.
        let handle: (Frame) throws -> Void = { frame in
            let start = decoder.seconds(of: frame).map { Int((($0 - origin) * Double(rate)).rounded()) } ?? position
            if start - position > tolerance {
                try converter.appendSilence(start - position)
                position = start
            }
            let early = position - start
            position += try converter.append(frame, dropFirst: early > tolerance ? early : 0).kept
            try drain(final: false)
        }
        let packet = Packet()
        while demuxer.read(into: packet) {
            defer { packet.unref() }
            guard packet.streamIndex == stream else { continue }
            try decoder.decode(packet, makeFrame: { Frame() }, output: handle)
        }
        try decoder.decode(nil, makeFrame: { Frame() }, output: handle)
        _ = try converter.flushResampler()
        try drain(final: true)
    }
}
