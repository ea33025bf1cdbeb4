import VRenderCore
import VRenderMedia

/// Reads a take back from disk, decoding every video frame, so that a take that is empty or
/// broken is found when it ends rather than when someone tries to use it. One decoder thread:
/// it runs beside a live capture and must not take the encoder's cores.
package enum TakeVerifier {
    /// Checks the take at `path`. `expectedFrames`: frames the writer gave the encoder (nil
    /// when unknown, as for a recovered take); fewer decodable frames than that is a problem.
    /// Never throws: a file that cannot be read is a check with a problem.
    /// `streamsEndTogether`: a sound ending more than a frame away from the picture is a
    /// problem (a finished take); false for a take recovered after a kill, where the cut may
    /// have kept more of one stream's last fragment than of the other's.
    package static func verify(path: String, expectedFrames: Int? = nil, streamsEndTogether: Bool = true) -> TakeCheck {
        let counted: Counted
        do {
            counted = try count(path)
        } catch let error as VRenderError {
            return TakeCheck(decodableFrames: 0, damagedFrames: 0, duration: 0, problem: error.reason)
        } catch {
            return TakeCheck(decodableFrames: 0, damagedFrames: 0, duration: 0, problem: "\(error)")
        }
        let video = counted.video
        return TakeCheck(decodableFrames: video.frames, damagedFrames: video.damaged, duration: video.duration,
                         problem: problem(video.frames, damaged: video.damaged, expected: expectedFrames)
                             ?? soundProblem(counted, endsMustMatch: streamsEndTogether),
                         audioDuration: counted.audio?.duration)
    }

    /// What decoding a take found: its picture and, if it has one, its sound.
    struct Counted {
        var video: (frames: Int, damaged: Int, duration: Double, end: Double)
        var audio: (damaged: Int, duration: Double, end: Double)?
        /// How far apart the two streams' ends may be: one video frame and one coded sound
        /// frame (a take's sound ends with its last whole AAC frame: 21 ms at 48 kHz, 128 ms at 8).
        var frameSeconds: Double
    }

    /// Sound that is damaged or ends more than a frame away from the picture.
    static func soundProblem(_ counted: Counted, endsMustMatch: Bool) -> String? {
        guard let audio = counted.audio else { return nil }
        if audio.damaged > 0 { return "\(audio.damaged) damaged sound frame(s)" }
        guard endsMustMatch else { return nil }
        let difference = audio.end - counted.video.end
        guard abs(difference) > counted.frameSeconds + 1e-6 else { return nil }
        return String(format: "the sound ends %.3f s %@ the picture", abs(difference), difference < 0 ? "before" : "after")
    }

    static func problem(_ frames: Int, damaged: Int, expected: Int?) -> String? {
        if frames == 0 { return "no decodable frames" }
        if damaged > 0 { return "\(damaged) damaged frame(s)" }
        if let expected, frames < expected { return "\(expected - frames) of \(expected) frames do not decode" }
        return nil
    }

    /// Decodes the first video stream and the first audio stream: decodable frames, damaged
    /// ones, and each stream's span on the file's clock.
    static func count(_ path: String) throws -> Counted {
        _ = try Probe.probe(path)
        let demuxer = try VRenderError.attributing(to: path, as: .input) { try Demuxer(path: path) }
        guard let stream = demuxer.firstVideoStreamIndex else { throw VRenderError.input(path, "no video stream") }
        let decoders = try VRenderError.attributing(to: path, as: .input) {
            (video: try Decoder(demuxer: demuxer, streamIndex: stream, threads: 1),
             audio: try demuxer.firstAudioStreamIndex.map { try Decoder(demuxer: demuxer, streamIndex: $0, threads: 1) })
        }
        let packet = Packet()
        let shell = Frame()
        var video = StreamSpan()
        var audio = StreamSpan()
        var videoFrameSeconds = 0.0
        var soundFrameSeconds = 0.0
        func add(_ frame: Frame, of decoder: Decoder, to span: inout StreamSpan) {
            span.frames += 1
            if let start = decoder.seconds(of: frame) {
                let length = Double(frame.duration) * decoder.timeBase.doubleValue
                span.add(start: start, length: length)
                if decoder === decoders.video { videoFrameSeconds = Swift.max(videoFrameSeconds, length) }
                else { soundFrameSeconds = Swift.max(soundFrameSeconds, length) }
            }
            frame.unref()
        }
        try VRenderError.attributing(to: path, as: .input) {
            while demuxer.read(into: packet) {
                if packet.streamIndex == stream {
                    try decoders.video.decode(packet, makeFrame: { shell }, output: { add($0, of: decoders.video, to: &video) })
                } else if let sound = decoders.audio, packet.streamIndex == sound.streamIndex {
                    try sound.decode(packet, makeFrame: { shell }, output: { add($0, of: sound, to: &audio) })
                } else {
                    packet.unref()
                }
            }
            try decoders.video.decode(nil, makeFrame: { shell }, output: { add($0, of: decoders.video, to: &video) })
            if let sound = decoders.audio { try sound.decode(nil, makeFrame: { shell }, output: { add($0, of: sound, to: &audio) }) }
        }
        return Counted(video: (video.frames, decoders.video.damaged, video.duration, video.end),
                       audio: decoders.audio.map { (($0.damaged), audio.duration, audio.end) },
                       frameSeconds: videoFrameSeconds + soundFrameSeconds)
    }
}

/// The span a stream's decoded frames cover.
private struct StreamSpan {
    var frames = 0
    var first: Double?
    var end = 0.0

    mutating func add(start: Double, length: Double) {
        first = Swift.min(first ?? start, start)
        end = Swift.max(end, start + length)
    }

    var duration: Double { Swift.max(0, end - (first ?? 0)) }
}
