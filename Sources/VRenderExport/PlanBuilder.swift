import Foundation
import VRenderCore
import VRenderFilters
import VRenderMedia

/// Assembles an `ExportPlan` once the planner has chosen the mode: canvas, rate, rotation,
/// colours, codecs and the notices that go with them.
struct PlanBuilder {
    /// What the options ask of a transcode's pictures, and what every plan carries for its run.
    struct Request {
        var size: (width: Int, height: Int)?
        var frameRate: Rational?
        var transition: Transition = .cut
        /// `--prompter-overlay` or `--captions burn`: text is drawn upright, so rotated pictures
        /// are turned upright in pixels.
        var overlay = false
        var encoding: ExportPlan.Encoding
        var writing: ExportPlan.Writing
        var threads: ThreadBudget

        init(_ options: ExportOptions) {
            (size, frameRate, transition) = (options.size, options.frameRate, options.transition)
            overlay = options.prompter != nil || options.captionOutputs.contains(.burn)
            (encoding, writing, threads) = (ExportPlan.Encoding(options), ExportPlan.Writing(options), options.threads)
        }

        /// What `plan` was made with; nothing asked of the pictures, for a plan that copies
        /// the takes' video (none is planned when the options ask for other pictures).
        init(copying plan: ExportPlan) {
            (encoding, writing, threads) = (plan.encoding, plan.writing, plan.threads)
        }
    }

    let takes: [MediaInfo]
    let request: Request
    let output: String
    let container: OutputContainer
    let audio: AudioTrackPlan
    let videoLabel: TrackLabel
    var notices: [String] = []

    init(takes: [MediaInfo], request: Request, output: String, container: OutputContainer, audio: AudioTrackPlan) {
        self.takes = takes
        self.request = request
        self.output = output
        self.container = container
        notices += audio.dropped.map { "audio: \($0) (keep another with --audio-track N)" }
        let video = TrackLabelMerge.merge(takes.map { (($0.path as NSString).lastPathComponent, $0.video.label) }, track: "video", sole: true)
        let fittedVideo = TrackLabelMerge.fitted(video.label, into: container, track: "video")
        videoLabel = fittedVideo.label
        notices += video.notices + audio.labelNotices + fittedVideo.notices
        var audio = audio
        for (track, label) in audio.labels.enumerated() {
            let fitted = TrackLabelMerge.fitted(label, into: container, track: audio.trackCount > 1 ? "audio track \(track + 1)" : "audio")
            audio.labels[track] = fitted.label
            notices += fitted.notices
        }
        self.audio = audio
        notices += takes.filter { $0.video.damagedTimestamps > 0 }.map {
            PresentationCheck.damageNote($0.path, count: $0.video.damagedTimestamps)
        }
        notices += CopyCompatibility.undecodableStartNotes(takes)
        notices += takes.compactMap { take in
            take.video.averageFrameRate.map { average in
                let rate = CopyCompatibility.fps(take.video.frameRate)
                return "\(take.path): variable frame rate (\(CopyCompatibility.fps(average)) fps on average; most frames "
                    + "1/\(rate) s apart): counted at \(rate) fps, each frame placed by its time"
            }
        }
    }

    /// A plan that copies the video packets (and the audio too in `.streamCopy`).
    func copy(_ mode: ExportPlan.Mode, reason: String) -> ExportPlan {
        let first = takes[0]
        var plan = ExportPlan(
            takes: takes, output: output, container: container, mode: mode, reason: reason,
            canvasWidth: first.video.width, canvasHeight: first.video.height, frameRate: first.video.frameRate,
            rotation: .keepMetadata(first.video.rotation, matrix: first.video.displayMatrix),
            timeline: Timeline(durations: takes.map(\.duration), frameRate: first.video.frameRate, takeNumbers: takes.map(\.sourceTake)),
            colour: .copied(takes), audio: audio, videoCodec: .auto,
            audioCodec: soundCodec, notices: notices)
        carry(into: &plan)
        if mode == .copyVideo { plan.notices.append("audio re-encoded as \(plan.audioCodec.rawValue.uppercased()) 48 kHz stereo") }
        return plan
    }

    /// A plan that decodes and encodes every take.
    func transcode(reason: String) throws -> ExportPlan {
        let videoCodec = try chooseVideoCodec()
        let colour = ColourPlan.make(takes: takes, filtered: !request.encoding.filter.isIdentity, codec: videoCodec)
        let rotations = Set(takes.map(\.video.orientation))
        let first = takes[0]
        // Drawn text (the prompter, captions) is upright, so rotated pictures are turned upright in pixels.
        let overlay = request.overlay && rotations != [.upright]
        let rotation: ExportPlan.RotationHandling = rotations.count == 1 && !overlay
            && (container.carriesRotation || first.video.orientation.isUpright)
            ? .keepMetadata(first.video.rotation, matrix: first.video.displayMatrix)
            : .uprightPixels
        // Canvas: the first take's upright size in square pixels (or --size, upright), stored in
        // the orientation the output keeps as metadata.
        let upright = request.size ?? Self.evenSize(first.video.uprightSize)
        var canvas = upright
        if case .keepMetadata(let kept, _) = rotation, kept.swapsAxes {
            canvas = (upright.height, upright.width)
        }
        let frameRate = request.frameRate ?? first.video.frameRate
        var notices = self.notices
        if let notice = colour.notice { notices.append(notice) }
        if rotation == .uprightPixels, rotations.count == 1, !first.video.orientation.isUpright, overlay {
            notices.append("\(first.video.orientation) turned upright in pixels: the prompter and captions are drawn upright")
        } else if rotation == .uprightPixels, rotations.count == 1, !overlay, !reason.contains("holds no rotation") {
            notices.append("\(first.video.orientation) turned upright in pixels: a .\(output.fileExtension) file holds no rotation")
        }
        if let wide = takes.first(where: { $0.video.sampleAspect != .square }) {
            notices.append("\(wide.path): pixels of aspect \(wide.video.sampleAspect.numerator):\(wide.video.sampleAspect.denominator) "
                           + "shown \(wide.video.uprightSize.width)x\(wide.video.uprightSize.height), written as square pixels")
        }
        let cuts = Timeline(durations: takes.map(\.duration), frameRate: frameRate, takeNumbers: takes.map(\.sourceTake))
        let transition = try TransitionPlan.make(request.transition, cuts: cuts, paths: takes.map(\.path))
        var plan = ExportPlan(
            takes: takes, output: output, container: container, mode: .transcode, reason: reason,
            canvasWidth: canvas.width, canvasHeight: canvas.height, frameRate: frameRate, rotation: rotation,
            timeline: transition.map {
                Timeline(durations: takes.map(\.duration), frameRate: frameRate, overlapSlots: $0.overlapSlots,
                         takeNumbers: takes.map(\.sourceTake))
            } ?? cuts,
            colour: colour, audio: audio, videoCodec: colour.tenBit ? .hevc : videoCodec,
            audioCodec: soundCodec, notices: notices)
        plan.transition = transition
        carry(into: &plan)
        return plan
    }

    /// The sound's codec: Opus in WebM, else AAC (or the delivery preset's).
    private var soundCodec: AudioCodecChoice {
        container.isWebM ? .opus : request.encoding.delivery?.audioCodec ?? .aac
    }

    /// What every plan carries beside its mode: the video's label, and what its run is made with.
    private func carry(into plan: inout ExportPlan) {
        plan.videoLabel = videoLabel
        plan.threads = request.threads
        plan.encoding = request.encoding
        plan.writing = request.writing
    }

    /// The encoder family the container can hold: VP9 for WebM unless asked otherwise;
    /// HEVC/H.264 elsewhere. A codec the container cannot hold is refused here, by name.
    private func chooseVideoCodec() throws -> VideoCodecChoice {
        var requested: VideoCodecChoice = .auto
        if case .encode(let codec) = request.encoding.codec { requested = codec }
        let ext = output.fileExtension
        if container.isWebM {
            if requested == .auto { return .vp9 }
            guard [.vp9, .av1].contains(requested) else {
                throw VRenderError.option("--codec \(requested.rawValue)", "a .webm file holds only VP9 or AV1 video: use --codec vp9 or av1, or write .mkv")
            }
        }
        if requested == .ffv1, ["mp4", "m4v"].contains(ext) {
            throw VRenderError.option("--codec ffv1", "an .\(ext) file cannot hold FFV1: write .mkv or .mov")
        }
        if [.vp9, .av1].contains(requested), ext == "mov" {
            throw VRenderError.option("--codec \(requested.rawValue)", "a .mov file cannot hold \(requested.rawValue): write .mp4, .mkv or .webm")
        }
        return requested
    }

    private static func evenSize(_ size: (width: Int, height: Int)) -> (width: Int, height: Int) {
        (Swift.max(2, size.width & ~1), Swift.max(2, size.height & ~1))
    }
}
