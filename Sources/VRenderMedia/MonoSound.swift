internal import CFFmpeg

/// A take's sound mixed to mono at a chosen rate, from a chosen time of the file on (the take's
/// first picture), handed over in blocks of a fixed size as it decodes: how silence finding and
/// caption alignment read sound, in memory of one block whatever the take's length. Sound
/// before the origin is skipped; a stream that starts late is silence until it does.
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
        var started = false
        var toSkip = 0
        func drain(final: Bool) throws {
            while converter.buffered >= block || (final && converter.buffered > 0) {
                samples.removeAll(keepingCapacity: true)
                try converter.popInterleaved(count: block, into: &samples)
                try samples.withUnsafeBufferPointer(body)
            }
        }
        let handle: (Frame) throws -> Void = { frame in
            if !started {
                started = true
                let offset = ((decoder.seconds(of: frame) ?? origin) - origin) * Double(rate)
                if offset > 0 { try converter.appendSilence(Int(offset.rounded())) } else { toSkip = Int((-offset).rounded()) }
            }
            let result = try converter.append(frame, dropFirst: toSkip)
            toSkip -= result.dropped
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
