import VRenderCore
import VRenderMedia

/// Reads a take back from disk, decoding every video frame, so that a take that is empty or
/// broken is found when it ends rather than when someone tries to use it. One decoder thread:
/// it runs beside a live capture and must not take the encoder's cores.
public enum TakeVerifier {
    /// Checks the take at `path`. `expectedFrames`: frames the writer gave the encoder (nil
    /// when unknown, as for a recovered take); fewer decodable frames than that is a problem.
    /// Never throws: a file that cannot be read is a check with a problem.
    public static func verify(path: String, expectedFrames: Int? = nil) -> TakeCheck {
        let counted: (frames: Int, damaged: Int, duration: Double)
        do {
            counted = try countFrames(path)
        } catch let error as VRenderError {
            return TakeCheck(decodableFrames: 0, damagedFrames: 0, duration: 0, problem: error.reason)
        } catch {
            return TakeCheck(decodableFrames: 0, damagedFrames: 0, duration: 0, problem: "\(error)")
        }
        return TakeCheck(decodableFrames: counted.frames, damagedFrames: counted.damaged, duration: counted.duration,
                         problem: problem(counted.frames, damaged: counted.damaged, expected: expectedFrames))
    }

    static func problem(_ frames: Int, damaged: Int, expected: Int?) -> String? {
        if frames == 0 { return "no decodable frames" }
        if damaged > 0 { return "\(damaged) damaged frame(s)" }
        if let expected, frames < expected { return "\(expected - frames) of \(expected) frames do not decode" }
        return nil
    }

    /// Decodes the first video stream: decodable frames, damaged ones, and seconds from the
    /// first frame's start to the last frame's end.
    static func countFrames(_ path: String) throws -> (frames: Int, damaged: Int, duration: Double) {
        _ = try Probe.probe(path)
        let demuxer = try VRenderError.attributing(to: path, as: .input) { try Demuxer(path: path) }
        guard let stream = demuxer.firstVideoStreamIndex else { throw VRenderError.input(path, "no video stream") }
        let decoder = try VRenderError.attributing(to: path, as: .input) {
            try Decoder(demuxer: demuxer, streamIndex: stream, threads: 1)
        }
        let packet = Packet()
        let shell = Frame()
        var frames = 0
        var first: Double?
        var end = 0.0
        func count(_ frame: Frame) {
            frames += 1
            guard let start = decoder.seconds(of: frame) else { return }
            first = Swift.min(first ?? start, start)
            end = Swift.max(end, start + Double(frame.duration) * decoder.timeBase.doubleValue)
            frame.unref()
        }
        try VRenderError.attributing(to: path, as: .input) {
            while demuxer.read(into: packet) {
                guard packet.streamIndex == stream else { continue }
                try decoder.decode(packet, makeFrame: { shell }, output: count)
            }
            try decoder.decode(nil, makeFrame: { shell }, output: count)
        }
        return (frames, decoder.damaged, Swift.max(0, end - (first ?? 0)))
    }
}
