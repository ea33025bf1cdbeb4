import Foundation
import VRenderCore
import VRenderFilters
import VRenderMedia

/// Chooses what an export does: stream copy, copy of the video with audio re-encoded, or a
/// transcode; the container (when none was named), canvas, frame rate, rotation handling,
/// colours and audio tracks. It plans only what the output container can hold. Every step of
/// planning is here: an `Exporter` runs the plan it returns, and a chunk worker plans from a
/// chunk plan's recipe and takes through it.
public enum ExportPlanner {
    /// Asks whether the container accepts a copy of a take's stream: nil, or why not.
    package typealias CopyCheck = @Sendable (OutputContainer, _ path: String, _ streamIndex: Int) -> String?

    package static let muxerCopyCheck: CopyCheck = { container, path, index in
        container.refusalToCopy(stream: index, of: path)
    }

    /// The plan of the export `options` ask for, as `Exporter.export(onPlan:)` makes and runs
    /// it: the output is checked first (a missing folder or an existing file is reported
    /// before any input is read), then the inputs are resolved, probed and planned, and the
    /// `--loudness` gains measured. The plan's notices begin with how takes folders were read.
    public static func plan(_ options: ExportOptions) throws -> ExportPlan {
        try plan(options, checkingOutput: true, measuringLoudness: true, probed: nil)
    }

    /// `plan(_:)` as a chunk worker asks it. `checkingOutput: false`: the output is not looked
    /// at (a chunk or the sound goes into the work folder). `measuringLoudness: false`: no
    /// `--loudness` measuring pass (a chunk, which has no sound). `probed`: the takes as an
    /// earlier plan probed, trimmed and cut them (its `takes`, which a chunk plan carries),
    /// planned from instead of probing again; whatever reads a take's packets checks its
    /// streams against them (`openTake`).
    package static func plan(_ options: ExportOptions, checkingOutput: Bool, measuringLoudness: Bool,
                             probed takes: [MediaInfo]?) throws -> ExportPlan {
        if checkingOutput {
            _ = try OutputFile(path: options.output, inputs: options.inputs, overwrite: options.overwrite, folder: options.outputFolder)
            try CaptionFiles.checkTargets(options)
        }
        try checkTimingsOutput(options)
        let probed = try takes.map { ProbedInputs(takes: $0) } ?? probeInputs(options)
        var plan = try plan(takes: probed.takes, options: options)
        plan.notices = probed.notices + plan.notices
        if let request = options.prompter {
            let prompter = PrompterPlan.make(request: request, plan: plan, names: options.inputNames)
            plan.prompter = prompter.plan
            plan.notices += prompter.notices
        }
        if let request = options.script, !request.captions.isEmpty {
            let captions = try ExportCaptions.plan(request, for: plan, names: options.inputNames, aligned: probed.alignments)
            plan.captions = captions.track
            plan.notices += captions.notices
        } else {
            plan.captions = options.plannedCaptions
        }
        if let captions = plan.captions, plan.side.carriesCaptions {
            plan.notices += plan.side.labelCaptions(language: captions.language, container: plan.container)
        }
        if let target = options.loudness, measuringLoudness {
            if plan.hasAudio {
                plan.loudness = try LoudnessMeasurement.plan(for: plan, target: target)
            } else {
                plan.notices.append("--loudness: the takes have no sound; nothing to measure or change")
            }
        }
        return plan
    }

    /// How `takes` are written (copy or transcode, container, canvas, colours, tracks, side
    /// streams): reads nothing but what the container's dry run asks (`copyCheck`).
    package static func plan(takes: [MediaInfo], options: ExportOptions,
                            copyCheck: CopyCheck = muxerCopyCheck) throws -> ExportPlan {
        var plan = try choose(takes: takes, options: options, copyCheck: copyCheck)
        plan.side = try SideStreamPlan(takes: takes, container: plan.container, captions: options.captionOutputs.contains(.track))
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
        let wantsChange = wantsChange(takes, options: options)
        let mayCopy = videoMismatch == nil && audioMismatch == nil && !wantsChange
            && (options.codec == .auto || options.codec == .copy)
        // Asking the container about a copy opens the first take again (twice with sound):
        // 20 ms of every chunk worker's start-up, for a transcode the options ask for anyway.
        let asksCopy = !wantsChange || options.codec == .copy
        let noCheck: CopyCheck = { _, _, _ in nil }
        let target = try outputTarget(takes, options: options, audio: audio, check: asksCopy ? copyCheck : noCheck, mayCopy: mayCopy)
        var builder = PlanBuilder(takes: takes, request: PlanBuilder.Request(options), output: target.output,
                                  container: target.container, audio: audio)
        if options.output != target.output {
            builder.notices.append("output \(target.output): a .\((options.output as NSString).pathExtension) file cannot hold these takes as they are")
        }
        let streamBlocker = videoMismatch ?? CopyCompatibility.hiddenFramesMismatch(takes, container: target.container)
            ?? CopyCompatibility.undecodableStartMismatch(takes) ?? CopyCompatibility.untimedMismatch(takes)
            ?? target.refusal?.video
        let trimBlocker = streamBlocker == nil ? TrimCopy.refusal(takes) : nil
        let copyBlocker = streamBlocker ?? trimBlocker
        let warmUp = CopyCompatibility.audioWarmUpMismatch(takes, tracks: audio, container: target.container)
        let audioBlocker = audioMismatch ?? target.refusal?.audio
        if let copy = try copyPlan(builder, takes: takes, options: options, copyBlocker: copyBlocker,
                                   audioBlocker: audioBlocker, warmUp: warmUp, wantsChange: wantsChange) {
            return copy
        }
        var smartRefusal: String?
        if let trimBlocker, options.codec == .auto, !wantsChange, audioBlocker == nil, warmUp == nil {
            let smart = smartPlan(builder, takes: takes, options: options, trimBlocker: trimBlocker)
            if let plan = smart.plan { return plan }
            smartRefusal = smart.refusal
        }
        let reason = transcodeReason(takes, options: options, copyBlocker: copyBlocker)
        return try builder.transcode(reason: reason + (smartRefusal.map { " (no smart render: \($0))" } ?? ""))
    }

    /// Whether the options ask for other pictures or another encoding than the takes have.
    private static func wantsChange(_ takes: [MediaInfo], options: ExportOptions) -> Bool {
        !options.filter.isIdentity || options.size != nil || options.frameRate != nil
            || options.prompter != nil || options.captionOutputs.contains(.burn)
            || options.crf != nil || options.preset != nil
            || options.stabilize != nil
            || (options.transition != .cut && takes.takeCount > 1)
    }

    /// Why a container cannot hold a copy: of the video, of an audio track (nil: it can).
    private typealias CopyRefusal = (video: String?, audio: String?)

    /// The output file and its container, and why that cannot hold a copy. With no -o and
    /// takes that could be copied, a container that can hold the copy is picked, rather than
    /// re-encoding for a name.
    private static func outputTarget(_ takes: [MediaInfo], options: ExportOptions, audio: AudioTrackPlan,
                                     check: CopyCheck, mayCopy: Bool) throws
        -> (output: String, container: OutputContainer, refusal: CopyRefusal?) {
        let container = try OutputContainer(path: options.output)
        let refusal = copyRefusal(takes, audio: audio, container: container, check: check)
        guard options.outputIsDefault, mayCopy, refusal != nil else { return (options.output, container, refusal) }
        for candidate in defaultContainers(for: takes[0]) {
            let path = (options.output as NSString).deletingPathExtension + "." + candidate
            let other = try OutputContainer(path: path)
            if copyRefusal(takes, audio: audio, container: other, check: check) == nil {
                return (path, other, nil)
            }
        }
        return (options.output, container, refusal)
    }

    /// The copy's plan when the takes are copied: always under --codec copy (or an error
    /// saying why they cannot be), under auto when nothing blocks it; nil for a transcode.
    /// `warmUp` (a copy would lose each such take's first sound) re-encodes the audio under
    /// auto; under --codec copy the plan says what is lost.
    private static func copyPlan(_ builder: PlanBuilder, takes: [MediaInfo], options: ExportOptions,
                                 copyBlocker: String?, audioBlocker: String?, warmUp: String?,
                                 wantsChange: Bool) throws -> ExportPlan? {
        var builder = builder
        switch options.codec {
        case .copy:
            try checkStreamCopy(options, blocker: copyBlocker ?? audioBlocker, wantsChange: wantsChange)
            if let warmUp { builder.notices.append("audio: \(warmUp): its first sound is lost (--codec copy keeps packets as they are)") }
            return builder.copy(.streamCopy, reason: "stream copy: every take is \(CopyCompatibility.describe(takes[0])) (--codec copy)")
        case .auto where copyBlocker == nil && !wantsChange:
            if let audioBlocker = audioBlocker ?? warmUp {
                return builder.copy(.copyVideo, reason: "video copied, audio re-encoded: \(audioBlocker)")
            }
            if options.loudness != nil, builder.audio.trackCount > 0 {
                return builder.copy(.copyVideo, reason: "video copied, audio re-encoded: --loudness changes the sound")
            }
            return builder.copy(.streamCopy,
                                reason: "stream copy: every take is \(CopyCompatibility.describe(takes[0])) and no filter was asked")
        default:
            return nil
        }
    }

    /// Throws the reason --codec copy cannot be done, naming the option that changes the takes.
    private static func checkStreamCopy(_ options: ExportOptions, blocker: String?, wantsChange: Bool) throws {
        if options.loudness != nil {
            throw VRenderError.option("--codec copy", "copies the sound unchanged, and --loudness changes it: drop one of them")
        }
        if let blocker {
            throw VRenderError.option("--codec copy", "cannot stream-copy: \(blocker)")
        }
        if options.stabilize != nil {
            throw VRenderError.option("--codec copy", "stream copy cannot apply --stabilize: it changes the pictures")
        }
        if wantsChange {
            throw VRenderError.option("--codec copy", "stream copy cannot apply --filter, --prompter-overlay, --transition, --captions burn, --size, --fps, --crf or --preset")
        }
    }

    /// Why the takes are transcoded, the first reason of these that holds.
    private static func transcodeReason(_ takes: [MediaInfo], options: ExportOptions, copyBlocker: String?) -> String {
        if !options.filter.isIdentity {
            return "transcode: filter \(options.filter.names.joined(separator: ","))"
                + (options.stabilize != nil ? " and --stabilize change" : " changes") + " the pictures"
        } else if options.stabilize != nil {
            return "transcode: --stabilize smooths the camera's motion in the pictures"
        } else if options.prompter != nil {
            return "transcode: the prompter overlay is drawn into the pictures"
        } else if options.captionOutputs.contains(.burn) {
            return "transcode: --captions burn draws the captions into the pictures"
        } else if options.transition != .cut && takes.takeCount > 1 {
            return "transcode: --transition \(options.transition.specification) changes the pictures at the joins"
        } else if let delivery = options.delivery, !options.deliveryOverrides.contains("--codec") {
            return "transcode: --for \(delivery.rawValue) encodes the video as \(options.codec.label)"
        } else if case .encode(let codec) = options.codec, copyBlocker == nil {
            return "transcode: --codec \(codec.rawValue) asks for re-encoding"
        } else if let copyBlocker {
            return "transcode: \(copyBlocker)"
        }
        return "transcode: --size, --fps, --crf or --preset asks for re-encoding"
    }

    /// The plan to use when a copy found `damage` in a take (`CopyInspector`): the same output,
    /// every take transcoded (decoders conceal what they can, audio holes become silence), and
    /// a notice saying why. Under `--codec copy` the damage is an error naming the take.
    static func transcoding(instead plan: ExportPlan, damage: CopyDamage) throws -> ExportPlan {
        if plan.encoding.codec == .copy { throw damage.copyRefusal }
        var builder = PlanBuilder(takes: plan.takes, request: PlanBuilder.Request(copying: plan), output: plan.output,
                                  container: plan.container, audio: plan.audio)
        builder.notices = plan.notices + [damage.fallbackNote]
        var fallback = try builder.transcode(reason: "transcode: \(damage.fallbackNote)")
        fallback.loudness = plan.loudness  // the same sound, measured already
        fallback.side = plan.side  // subtitles, chapters and timecode: a transcode carries them too
        fallback.captions = plan.captions
        return fallback
    }

    /// Why `container` cannot hold a copy of the first take's video or of an audio track.
    private static func copyRefusal(_ takes: [MediaInfo], audio: AudioTrackPlan, container: OutputContainer,
                                    check: CopyCheck) -> CopyRefusal? {
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
