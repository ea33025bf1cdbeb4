import VRenderCore
import VRenderMedia

/// The export's stage timers (README "Measuring"), made from the run's `StageTimings` before
/// any stage starts, one per stage thread that owns it. Every member is nil when timings are
/// off: a stage then pays one nil check per call and reads no clock.
///
/// Samples are per video frame: demux per video packet read, decode per decoded frame,
/// normalize and filter per canvas picture, prompter per output frame, encode per frame
/// encoded, mux per video packet written. Work on other packets (audio through demux and
/// mux) and at the ends (opening files, an encoder's flush, the container's trailer) is each
/// stage's `other` time. Audio has one stage per output track, sampled per audio packet
/// (decode, resample, align, encode).
struct ExportTimers: Sendable {
    /// The stage names, in pipeline order.
    enum Stage {
        static let demux = "demux"
        static let decode = "decode"
        static let motion = "motion"
        static let normalize = "normalize"
        static let filter = "filter"
        static let prompter = "prompter"
        static let encode = "encode"
        static let mux = "mux"
        static func audio(track: Int) -> String { track == 0 ? "audio" : "audio \(track + 1)" }
    }

    var demux: StageTimer?
    var decode: StageTimer?
    /// Per frame measured (`--stabilize` only).
    var motion: StageTimer?
    var normalize: StageTimer?
    var filter: StageTimer?
    /// Per output frame the prompter is drawn into (`--prompter-overlay` only).
    var prompter: StageTimer?
    var encode: StageTimer?
    var mux: StageTimer?
    /// One per output audio track (all nil when timings are off).
    var audio: [StageTimer?]

    /// The timers for the stages `mode` runs: demux and mux always; decode, normalize, filter
    /// and encode for a transcode; audio for every re-encoded track.
    init(_ timings: StageTimings?, mode: ExportPlan.Mode, audioTracks: Int, prompter: Bool = false, stabilize: Bool = false) {
        audio = Array(repeating: nil, count: audioTracks)
        guard let timings else { return }
        demux = timings.timer(Stage.demux)
        if mode == .transcode {
            decode = timings.timer(Stage.decode)
            if stabilize { motion = timings.timer(Stage.motion) }
            normalize = timings.timer(Stage.normalize)
            filter = timings.timer(Stage.filter)
            if prompter { self.prompter = timings.timer(Stage.prompter) }
            encode = timings.timer(Stage.encode)
        }
        mux = timings.timer(Stage.mux)
        if mode != .streamCopy {
            audio = (0..<audioTracks).map { timings.timer(Stage.audio(track: $0)) }
        }
    }
}

extension Optional where Wrapped == StageTimer {
    /// `demuxer.read(into:)`, timed as a frame for a video packet (stream `video`) and as other
    /// work otherwise.
    func timedRead(_ demuxer: Demuxer, into packet: Packet, video: Int) -> Bool {
        guard let timer = self else { return demuxer.read(into: packet) }
        timer.begin()
        let read = demuxer.read(into: packet)
        if read && packet.streamIndex == video { timer.frameDone() } else { timer.otherDone() }
        return read
    }
}
