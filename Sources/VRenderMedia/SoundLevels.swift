internal import CFFmpeg

/// The loudness of a take's sound over time, for finding its silences: the loudest sample of
/// each 1 ms window, mixed to mono at 48 kHz, window 0 starting at a given time of the file
/// (the take's first picture), so that silence and pictures are cut at the same instants.
/// Peaks, not averages: a consonant's first millisecond counts, as auto-editor counts it.
package enum SoundLevels {
    package static let windowSeconds = 0.001
    static let rate = 48_000

    /// Peak levels (linear, 0…1+) of audio stream `stream` of `path`, one per 1 ms window
    /// from `origin` (seconds on the file's clock) to the end of the sound; sound before
    /// `origin` is skipped, a late start is silence.
    package static func windowPeaks(path: String, stream: Int, from origin: Double) throws -> [Float] {
        let demuxer = try Demuxer(path: path)
        let decoder = try Decoder(demuxer: demuxer, streamIndex: stream, threads: 1)
        let converter = AudioConverter(sampleRate: rate, channels: 1, interleaved: true)
        let window = Int(Double(rate) * windowSeconds)
        var peaks: [Float] = []
        var started = false
        var toSkip = 0
        func drain(final: Bool) throws {
            while converter.buffered >= window || (final && converter.buffered > 0) {
                guard let frame = try converter.pop(count: window, pts: 0) else { break }
                let count = Int(frame.pointer.pointee.nb_samples)
                // `pop` returns a frame with its buffer allocated (interleaved floats: plane 0).
                let samples = UnsafeRawPointer(frame.pointer.pointee.data.0!).assumingMemoryBound(to: Float.self)
                var peak: Float = 0
                for index in 0..<count { peak = Swift.max(peak, abs(samples[index])) }
                peaks.append(peak)
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
        return peaks
    }
}
