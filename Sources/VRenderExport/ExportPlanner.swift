import Foundation
import VRenderCore
import VRenderFilters
import VRenderMedia

/// Chooses what an export does: stream copy, copy of the video with audio re-encoded, or a
/// transcode; the container (when none was named), canvas, frame rate, rotation handling,
/// colours and audio tracks. It plans only what the output container can hold.
public enum ExportPlanner {
    /// Asks whether the container accepts a copy of a take's stream: nil, or why not.
    public typealias CopyCheck = @Sendable (OutputContainer, _ path: String, _ streamIndex: Int) -> String?

    public static let muxerCopyCheck: CopyCheck = { container, path, index in
        container.refusalToCopy(stream: index, of: path)
    }

    public static func plan(takes: [MediaInfo], options: ExportOptions,
                            copyCheck: CopyCheck = muxerCopyCheck) throws -> ExportPlan {
        var plan = try choose(takes: takes, options: options, copyCheck: copyCheck)
        plan.side = SideStreamPlan(takes: takes, container: plan.container)
        plan.notices += plan.side.notices
        if let stabilize = options.stabilize, plan.mode == .transcode {
            // Refused before anything is read, not when the motion stage meets the take.
            if let deep = takes.first(where: { $0.video.bitDepth > 8 }) {
                throw VRenderError.input(deep.path, "--stabilize works on 8-bit video; this take has \(deep.video.bitDepth) bits per sample")
            }
            plan.stabilize = StabilizePlan(stabilize, frameRate: plan.frameRate)
        }
        // Takes a fraction of a frame long at a low --fps: an output of no frames is not one.
        // (Probing refuses a take shorter than a frame at its own rate, so only --fps gets here.)
        guard plan.timeline.totalSlots > 0 else {
            let seconds = String(format: "%g", takes.map(\.duration).reduce(0, +))
            throw VRenderError.option("--fps", "the takes last \(seconds) s in all, less than one frame at \(plan.frameRate) fps")
        }
        return plan
    }

    private static func choose(takes: [MediaInfo], options: ExportOptions, copyCheck: CopyCheck) throws -> ExportPlan {
        guard !takes.isEmpty else { throw VRenderError.option("INPUT", "no input takes given") }
        if let size = options.size, let refusal = MediaLimits.sizeRefusal(width: size.width, height: size.height) {
            throw VRenderError.option("--size", refusal)
        }
        let audio = try AudioTrackPlan.make(takes: takes, chosen: options.audioTrack)
        let videoMismatch = CopyCompatibility.videoMismatch(takes)
        let audioMismatch = CopyCompatibility.audioMismatch(takes, tracks: audio)
        let wantsChange = !options.filter.isIdentity || options.size != nil || options.frameRate != nil
            || options.prompter != nil
            || options.crf != nil || options.preset != nil
            || options.stabilize != nil
            || (options.transition != .cut && takes.count > 1)

        var output = options.output
        var container = try OutputContainer(path: output)
        var refusal = copyRefusal(takes, audio: audio, container: container, check: copyCheck)
        // No -o: pick a container that can hold the copy, rather than re-encoding for a name.
        if options.outputIsDefault, videoMismatch == nil, audioMismatch == nil, !wantsChange, options.codec == .auto || options.codec == .copy,
           refusal != nil {
            for candidate in defaultContainers(for: takes[0]) {
                let path = (output as NSString).deletingPathExtension + "." + candidate
                let other = try OutputContainer(path: path)
                if copyRefusal(takes, audio: audio, container: other, check: copyCheck) == nil {
                    output = path
                    container = other
                    refusal = nil
                    break
                }
            }
        }
        var builder = PlanBuilder(takes: takes, options: options, output: output, container: container, audio: audio)
        if options.output != output {
            builder.notices.append("output \(output): a .\((options.output as NSString).pathExtension) file cannot hold these takes as they are")
        }

        let copyBlocker = videoMismatch ?? CopyCompatibility.hiddenFramesMismatch(takes, container: container) ?? refusal?.video
            ?? TrimCopy.refusal(takes)
        switch options.codec {
        case .copy:
            if options.loudness != nil {
                throw VRenderError.option("--codec copy", "copies the sound unchanged, and --loudness changes it: drop one of them")
            }
            if let reason = copyBlocker ?? audioMismatch ?? refusal?.audio {
                throw VRenderError.option("--codec copy", "cannot stream-copy: \(reason)")
            }
            if options.stabilize != nil {
                throw VRenderError.option("--codec copy", "stream copy cannot apply --stabilize: it changes the pictures")
            }
            if wantsChange {
                throw VRenderError.option("--codec copy", "stream copy cannot apply --filter, --prompter-overlay, --transition, --size, --fps, --crf or --preset")
            }
            return builder.copy(.streamCopy, reason: "stream copy: every take is \(CopyCompatibility.describe(takes[0])) (--codec copy)")
        case .auto where copyBlocker == nil && !wantsChange:
            if let audioReason = audioMismatch ?? refusal?.audio {
                return builder.copy(.copyVideo, reason: "video copied, audio re-encoded: \(audioReason)")
            }
            if options.loudness != nil, audio.trackCount > 0 {
                return builder.copy(.copyVideo, reason: "video copied, audio re-encoded: --loudness changes the sound")
            }
            return builder.copy(.streamCopy,
                                reason: "stream copy: every take is \(CopyCompatibility.describe(takes[0])) and no filter was asked")
        default:
            break
        }

        let reason: String
        if !options.filter.isIdentity {
            reason = "transcode: filter \(options.filter.names.joined(separator: ","))"
                + (options.stabilize != nil ? " and --stabilize change" : " changes") + " the pictures"
        } else if options.stabilize != nil {
            reason = "transcode: --stabilize smooths the camera's motion in the pictures"
        } else if options.prompter != nil {
            reason = "transcode: the prompter overlay is drawn into the pictures"
        } else if options.transition != .cut && takes.count > 1 {
            reason = "transcode: --transition \(options.transition.specification) changes the pictures at the joins"
        } else if case .encode(let codec) = options.codec, copyBlocker == nil {
            reason = "transcode: --codec \(codec.rawValue) asks for re-encoding"
        } else if let copyBlocker {
            reason = "transcode: \(copyBlocker)"
        } else {
            reason = "transcode: --size, --fps, --crf or --preset asks for re-encoding"
        }
        return try builder.transcode(reason: reason)
    }

    /// The plan to use when a copy found `damage` in a take (`CopyInspector`): the same output,
    /// every take transcoded (decoders conceal what they can, audio holes become silence), and
    /// a notice saying why. Under `--codec copy` the damage is an error naming the take.
    static func transcoding(instead plan: ExportPlan, options: ExportOptions, damage: CopyDamage) throws -> ExportPlan {
        if options.codec == .copy { throw damage.copyRefusal }
        var builder = PlanBuilder(takes: plan.takes, options: options, output: plan.output, container: plan.container,
                                  audio: plan.audio)
        builder.notices = plan.notices + [damage.fallbackNote]
        var fallback = try builder.transcode(reason: "transcode: \(damage.fallbackNote)")
        fallback.loudness = plan.loudness  // the same sound, measured already
        return fallback
    }

    /// Why `container` cannot hold a copy of the first take's video or of an audio track.
    private static func copyRefusal(_ takes: [MediaInfo], audio: AudioTrackPlan, container: OutputContainer,
                                    check: CopyCheck) -> (video: String?, audio: String?)? {
        let first = takes[0]
        var video = check(container, first.path, first.video.index)
        if video == nil, !container.carriesRotation, let rotated = takes.first(where: { !$0.video.orientation.isUpright }) {
            video = "a .\(container.path.fileExtension) file (\(container.name)) holds no rotation, and \(rotated.path) has "
                + "\(rotated.video.orientation): its pictures are turned upright"
        }
        // Each track asked once, of the first take that has it: a copy needs the takes' audio
        // formats to match anyway (otherwise the audio is re-encoded and nothing is asked).
        var audioRefusal: String?
        for track in 0..<audio.trackCount where audioRefusal == nil {
            let holder = takes.indices.lazy.compactMap { index in
                audio.source(take: takes[index], takeIndex: index, track: track).map { (takes[index].path, $0.index) }
            }.first
            if let (path, stream) = holder { audioRefusal = check(container, path, stream) }
        }
        return video == nil && audioRefusal == nil ? nil : (video, audioRefusal)
    }

    /// Containers to try, in order, when no output was named and .mov cannot hold the copy:
    /// the first take's own kind of file, then Matroska, which holds nearly everything.
    private static func defaultContainers(for take: MediaInfo) -> [String] {
        let own = take.path.fileExtension
        let ownKind = ["webm", "mkv", "m4v"].contains(own) ? [own] : []
        return ownKind + ["mp4", "mkv"].filter { $0 != own }
    }
}

extension String {
    /// The lowercased extension of a path ("mov"), empty when none.
    var fileExtension: String { (self as NSString).pathExtension.lowercased() }
}
