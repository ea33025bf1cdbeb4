import VRenderCore

/// What probing found in a video stream: everything the planner compares between takes.
public struct VideoStreamInfo: Sendable, Equatable, Codable {
    public var index: Int
    public var codecName: String
    public var width: Int
    public var height: Int
    public var pixelFormat: String
    public var timeBase: Rational
    /// Nominal frame rate: the average (`avg_frame_rate`, else `r_frame_rate`), unless the most
    /// common frame interval shows frames dropped from a higher constant rate (`Demuxer.nominalRate`).
    public var frameRate: Rational
    /// Clockwise quarter turn a player applies to show the picture upright (before the flip
    /// `mirrored` adds: see `Orientation`).
    public var rotation: Rotation
    /// The raw 3×3 display matrix (side data), copied as-is when rotation is kept as metadata.
    public var displayMatrix: [Int32]?
    /// Codec-private setup bytes (SPS/PPS, ...): takes can only be stream-copied together when
    /// these are identical.
    public var extradata: [UInt8]
    /// Start of the first frame, in seconds.
    public var startTime: Double
    /// Length of the stream in seconds.
    public var duration: Double
    /// The colour description as the file states it (fields may be "unspecified").
    public var colour: ColourDescription = .bt709
    /// Bits per sample of the decoded pictures (8, 10, 12).
    public var bitDepth: Int = 8
    /// The container's codec tag as text ("avc1", "ap4h"), empty when none.
    public var codecTag: String = ""
    /// The codec's profile number (FFmpeg's `FF_PROFILE_*`), -99 when unknown.
    public var profile: Int32 = -99
    /// Frames among those probing read (the last group of pictures) whose pts a damaged header
    /// put far from their neighbours (`PresentationCheck`): the length ignores them, and an
    /// export places them by decoding time.
    public var damagedTimestamps = 0
    /// The container stores each packet's decoding time (QuickTime, MPEG-TS); Matroska stores
    /// presentation times only, and FFmpeg's made-up dts say nothing (`PresentationCheck`).
    public var decodingTimesStored = true
    /// Frames counted in a stream whose packets carry no times at all (a raw .h264/.hevc
    /// elementary stream): its length is that count at its rate, and its packets cannot be
    /// copied (a muxer would stack them at one time). Nil for a timed stream.
    public var untimedFrames: Int?
    /// The display matrix flips the turned picture left-right (a mirrored selfie).
    public var mirrored = false
    /// Width:height of one stored pixel (DV 16:9 is 64:45, HDV 4:3); square when the file
    /// states none. Players widen the picture by it.
    public var sampleAspect: Rational = .square

    /// Rotation and flip, as a player applies them.
    public var orientation: Orientation { Orientation(rotation: rotation, mirrored: mirrored) }

    /// The stored width in square pixels (width × sample aspect ratio), before any rotation.
    public var displayWidth: Int { sampleAspect.displayWidth(width) }
    /// Frames an edit list hides before the take's start (a trimmed clip's: decoded as
    /// references, never shown; `Demuxer.hiddenFrames`).
    public var hiddenFrames = 0
    /// The average frame rate, set only where it is not `frameRate` (a variable-frame-rate take
    /// counted at its nominal rate), for the plan to say so.
    public var averageFrameRate: Rational?
    /// Pictures at the start that cannot be decoded (a cut inside a group of pictures, an open
    /// GOP cut): `startTime` and `duration` already leave them out, this says what was left.
    public var undecodableStart: UndecodableStart?
    /// Language, title and dispositions, kept on the output's video track.
    public var label = TrackLabel()

    /// The colours the pictures mean: the stated description, with what the file leaves
    /// unspecified filled in as players assume it (see `ColourDescription.resolved`).
    public var resolvedColour: ColourDescription {
        colour.resolved(width: width, height: height, pixelFormatIsFullRange: pixelFormat.hasPrefix("yuvj"))
    }

    /// Size after rotation, in square pixels, as a viewer sees it.
    public var uprightSize: (width: Int, height: Int) { rotation.upright(width: displayWidth, height: height) }

    /// How long a video packet lasting `duration` (in `timeBase`) is shown: that, or one frame
    /// at the stream's rate where the container stores no durations (ASF, FLV's Sorenson
    /// video, MPEG-PS's last frame): a take ends where its last frame does, not where it starts.
    public func shownTicks(ofPacketDuration duration: Int64) -> Int64 {
        duration > 0 ? duration : Int64((1 / (frameRate.doubleValue * timeBase.doubleValue)).rounded())
    }
}

/// What probing found in an audio stream.
public struct AudioStreamInfo: Sendable, Equatable, Codable {
    public var index: Int
    public var codecName: String
    public var sampleRate: Int
    public var channels: Int
    public var sampleFormat: String
    public var timeBase: Rational
    public var extradata: [UInt8]
    public var startTime: Double
    public var duration: Double
    /// Language, title and dispositions, kept on the output track it feeds.
    public var label = TrackLabel()
}

/// One probed input file.
public struct MediaInfo: Sendable, Equatable, Codable {
    public var path: String
    /// Demuxer name, e.g. "mov,mp4,m4a,3gp,3g2,mj2" or "matroska,webm".
    public var container: String
    public var video: VideoStreamInfo
    /// Every audio stream vrender can decode, in file order.
    public var audioTracks: [AudioStreamInfo]
    /// Subtitles, chapters, timecode and other streams beside the video and audio.
    public var side = SideStreamInfo()
    /// The in and out points an export applies (`trimmed(_:)`); nil: the whole take.
    public var trim: TakeTrim?
    /// The take (1-based, as the user counts them) an export cut this part from: consecutive
    /// parts with the same number are pieces of one take (`--cut-pauses`, `--cut-retakes`),
    /// joined by a cut, never a transition. Nil outside an export: a take of its own.
    package var sourceTake: Int? = nil

    public init(path: String, container: String, video: VideoStreamInfo, audioTracks: [AudioStreamInfo]) {
        self.path = path
        self.container = container
        self.video = video
        self.audioTracks = audioTracks
    }

    public init(path: String, container: String, video: VideoStreamInfo, audio: AudioStreamInfo?) {
        self.init(path: path, container: container, video: video, audioTracks: audio.map { [$0] } ?? [])
    }

    /// The first audio track, if any.
    public var audio: AudioStreamInfo? { audioTracks.first }

    /// The take's length: its video's length (audio is padded or trimmed to it on export).
    public var duration: Double { video.duration }
}
