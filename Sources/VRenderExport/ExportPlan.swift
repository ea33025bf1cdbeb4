import VRenderCore
import VRenderFilters
import VRenderMedia

/// What an export will do, decided from the probed takes before anything is written.
public struct ExportPlan: Sendable {
    public enum Mode: Sendable, Equatable {
        /// Packets are copied unchanged, only their timestamps shift.
        case streamCopy
        /// Video packets are copied; audio is decoded and encoded again (the container cannot
        /// hold the takes' audio, or the takes' audio formats differ).
        case copyVideo
        /// Every take is decoded, normalized, filtered and encoded again.
        case transcode
    }

    /// How rotated takes are handled.
    public enum RotationHandling: Sendable, Equatable {
        /// Every take has the same rotation and flip: it stays a display matrix on the output.
        case keepMetadata(Rotation, matrix: [Int32]?)
        /// Takes disagree, or the container holds no rotation: each take is turned upright in
        /// pixels by its own rotation.
        case uprightPixels
    }

    public var takes: [MediaInfo]
    /// The file to write: the requested one, or the default name with the extension of a
    /// container that fits the takes.
    public var output: String
    public var container: OutputContainer
    public var mode: Mode
    /// One sentence saying why this mode, for the plan line users see.
    public var reason: String
    /// Stored (encoded) canvas size; with `.keepMetadata` rotation a player turns it upright.
    public var canvasWidth: Int
    public var canvasHeight: Int
    public var frameRate: Rational
    public var rotation: RotationHandling
    package var timeline: Timeline
    package var colour: ColourPlan
    package var audio: AudioTrackPlan
    /// The output's video track's language, title and dispositions (`TrackLabelMerge` of the takes').
    package var videoLabel = TrackLabel()
    /// Encoders for a transcode (ignored when copying).
    public var videoCodec: VideoCodecChoice
    public var audioCodec: AudioCodecChoice
    /// Choices a user should know of: dropped tracks, tone mapping, colour conversion, order.
    public var notices: [String] = []
    /// The prompter drawn into the pictures (`--prompter-overlay`, transcodes only).
    package var prompter: PrompterPlan?
    /// Subtitles, chapters and timecode carried beside picture and sound (`SideStreamPlan`).
    package var side = SideStreamPlan()
    /// `--captions`: the cues on the output's clock and where they go; nil when not asked.
    public var captions: CaptionTrack?
    /// `--loudness`: the measured sound and the gain per track; nil when not asked, when the
    /// export has no sound, or planned without the measuring pass (a chunk worker's).
    public var loudness: LoudnessPlan?
    /// `--stabilize`: the smoothing and zoom every take's pictures get (transcodes only).
    package var stabilize: StabilizePlan?
    /// Dissolves or dips at the joins (`--transition`, transcodes only); nil: cuts.
    public var transition: TransitionPlan?
    /// The processors a transcode's stages share (`ExportOptions.threads`).
    package var threads: ThreadBudget = .machine
    /// How a transcode encodes and filters (`Encoding`), as the options asked.
    package var encoding = Encoding()
    /// Where a run writes the output (`Writing`), as the options asked.
    package var writing = Writing()
    /// A stream copy that re-encodes only the frames around its cuts (`SmartRender`); nil:
    /// every packet copied, or a transcode.
    package var smartRender: SmartRender?

    /// True when a transcode draws into the pictures: the prompter, or `--captions burn`.
    package var drawsOverlay: Bool { prompter != nil || captions?.outputs.contains(.burn) == true }

    /// False when the output has no edit lists (`--for web`'s .mp4): the sound then gives way to
    /// the encoder's priming (`AudioTrackEncoder`). Other containers keep their own codec delay
    /// (Matroska's CodecDelay), so only the QuickTime family is written without them.
    package var writesEditLists: Bool { encoding.delivery?.editLists ?? true || !container.isQuickTimeFamily }

    /// The takes as the user counts them: consecutive pieces cut from one take
    /// (`MediaInfo.sourceTake`) count once.
    public var takeCount: Int { takes.takeCount }

    /// The take (1-based, as the user counts them) each timeline piece of `takes` belongs to.
    public var takeNumbers: [Int] { takes.takeNumbers }

    /// True when the output has audio (any take has an audio track).
    public var hasAudio: Bool { audio.trackCount > 0 }

    /// The rotation to apply in pixels to take `index`.
    package func pixelRotation(ofTake index: Int) -> Rotation {
        pixelOrientation(ofTake: index).rotation
    }

    /// The turn and flip to apply in pixels to take `index` (none where a display matrix keeps them).
    package func pixelOrientation(ofTake index: Int) -> Orientation {
        rotation == .uprightPixels ? takes[index].video.orientation : .upright
    }

    /// The rotation kept as metadata, as ffprobe shows it (0 when none or turned in pixels).
    public var uprightRotationDegrees: Int {
        if case .keepMetadata(let rotation, _) = rotation { return rotation.ffprobeDegrees }
        return 0
    }

    /// The output frame rate as people write it ("30", "29.97").
    public var frameRateText: String { CopyCompatibility.fps(frameRate) }

    /// The size a viewer sees: the stored canvas turned by the rotation kept as metadata.
    public var uprightCanvas: (width: Int, height: Int) {
        if case .keepMetadata(let rotation, _) = rotation {
            return rotation.upright(width: canvasWidth, height: canvasHeight)
        }
        return (canvasWidth, canvasHeight)
    }
}

/// The audio codec of a transcode: AAC, or Opus where the container is WebM.
public enum AudioCodecChoice: String, Sendable {
    /// PCM: 32-bit float, `concat --for archive`'s lossless sound.
    case aac, opus, pcm
}

extension [MediaInfo] {
    /// The take (1-based, as the user counts them) each piece belongs to: consecutive pieces cut
    /// from one take (the same `sourceTake`) share a number.
    var takeNumbers: [Int] {
        var numbers: [Int] = []
        for (index, take) in enumerated() {
            let same = index > 0 && take.sourceTake != nil && take.sourceTake == self[index - 1].sourceTake
            numbers.append((numbers.last ?? 0) + (same ? 0 : 1))
        }
        return numbers
    }

    /// The takes as the user counts them.
    var takeCount: Int { takeNumbers.last ?? 0 }
}
