import VRenderCapture
import VRenderCore

/// Everything a studio page shows, as one snapshot: the server sends the whole of it (JSON) to
/// every page after each change, so a page that joins late or missed one is right at the next.
/// Field names are the page's API (`Sources/VRenderStudio/Page/studio.js` reads them).
public struct StudioState: Sendable, Codable, Equatable {
    /// Counts changes; a page ignores a snapshot older than the one it shows.
    public var version = 0
    /// The camera as given (`--device`) and, once open, what it delivers.
    public var device: String
    public var camera: CameraInfo?
    /// The takes folder (`--out`) and where exports go, as paths to show the user.
    public var folder: String
    public var exportsFolder: String
    /// True from a take's start until its end.
    public var recording = false
    /// Seconds the take in progress has run (0 when not recording).
    public var takeSeconds = 0.0
    /// Frames per second captured over the last half second, frames dropped from the take in
    /// progress, and seconds of frames waiting for the encoder.
    public var fps = 0.0
    public var dropped = 0
    public var behindSeconds = 0.0
    /// The microphone's meter; nil: takes are silent.
    public var sound: SoundInfo?
    /// The teleprompter; nil without `--prompter`.
    public var prompter: PrompterInfo?
    /// The filter the preview shows (a `FilterRegistry` name, "" for none), and every choice.
    public var previewFilter = ""
    public var filters: [String] = []
    /// takes.json's takes, in its order.
    public var takes: [TakeInfo] = []
    /// The last export (nil: none yet this session).
    public var export: ExportInfo?
    /// Recent messages, oldest first (at most `StudioState.noticeLimit`).
    public var notices: [Notice] = []
    /// What stops the studio from recording (the camera did not open, the folder cannot be
    /// written); nil while all is well.
    public var error: String?

    public static let noticeLimit = 20

    public init(device: String, folder: String, exportsFolder: String) {
        self.device = device
        self.folder = folder
        self.exportsFolder = exportsFolder
    }

    public struct CameraInfo: Sendable, Codable, Equatable {
        public var name: String
        public var width: Int
        public var height: Int
        public var frameRate: Double
        public var position: CameraPosition
        public var lens: Double
        public var zoom: Double
        public var torch: Double
        /// Whether the camera has lenses, zoom and a torch to drive (a V4L2 webcam may not).
        public var synthetic: Bool

        public init(name: String, width: Int, height: Int, frameRate: Double, state: CameraState, synthetic: Bool) {
            self.name = name
            self.width = width
            self.height = height
            self.frameRate = frameRate
            position = state.position
            lens = state.lens
            zoom = state.zoom
            torch = state.torch
            self.synthetic = synthetic
        }
    }

    public struct SoundInfo: Sendable, Codable, Equatable {
        /// The loudest sample of the last half second, dBFS; nil: silence.
        public var peakDBFS: Double?
        public var clipping: Bool
        public var missingMilliseconds: Double

        public init(peakDBFS: Double?, clipping: Bool, missingMilliseconds: Double) {
            self.peakDBFS = peakDBFS
            self.clipping = clipping
            self.missingMilliseconds = missingMilliseconds
        }
    }

    /// The prompter as the page draws it: the script laid out in lines for the box, scrolled by
    /// `offset` points. While `state` is "scrolling" the page moves on at `speed` points per
    /// second from `offset` as of `sentAt` (Unix milliseconds), stopping at `maxOffset`.
    public struct PrompterInfo: Sendable, Codable, Equatable {
        public var script: String
        public var lines: [String]
        /// Points between line tops, the font size in points, and points per second.
        public var lineHeight: Double
        public var fontSize: Double
        public var speed: Double
        public var offset: Double
        public var maxOffset: Double
        public var sentAt: Double
        /// "scrolling", "held", "stopped" or "at end".
        public var state: String
        public var percent: Int
        /// A point is 1/`pointsAcrossShorterSide` of the picture's shorter side.
        public var pointsAcrossShorterSide: Double
        /// The box as fractions of the picture: x, y, width, height. What an export burns in.
        public var box: [Double]

        public init(script: String, lines: [String], lineHeight: Double, fontSize: Double, speed: Double,
                    offset: Double, maxOffset: Double, sentAt: Double, state: String, percent: Int,
                    pointsAcrossShorterSide: Double, box: [Double]) {
            self.script = script
            self.lines = lines
            self.lineHeight = lineHeight
            self.fontSize = fontSize
            self.speed = speed
            self.offset = offset
            self.maxOffset = maxOffset
            self.sentAt = sentAt
            self.state = state
            self.percent = percent
            self.pointsAcrossShorterSide = pointsAcrossShorterSide
            self.box = box
        }
    }

    public struct TakeInfo: Sendable, Codable, Equatable {
        /// 1-based, in takes.json's order.
        public var number: Int
        /// The take's file name in the takes folder (what delete and reorder name it by).
        public var file: String
        public var duration: Double
        public var frames: Int
        public var dropped: Int
        public var hasSound: Bool
        /// Paths the page loads (`/media/...`), nil while there is none.
        public var thumbnailURL: String?
        public var proxyURL: String?
        /// "waiting", "making", "ready" or "failed" (the browser-playable copy).
        public var proxyState: String
        /// What the take check found wrong; nil: the take read back whole.
        public var problem: String?

        public init(number: Int, file: String, duration: Double, frames: Int, dropped: Int, hasSound: Bool,
                    thumbnailURL: String?, proxyURL: String?, proxyState: String, problem: String?) {
            self.number = number
            self.file = file
            self.duration = duration
            self.frames = frames
            self.dropped = dropped
            self.hasSound = hasSound
            self.thumbnailURL = thumbnailURL
            self.proxyURL = proxyURL
            self.proxyState = proxyState
            self.problem = problem
        }
    }

    public struct ExportInfo: Sendable, Codable, Equatable {
        /// "running", "done", "failed" or "cancelled".
        public var state: String
        public var filter: String
        /// 0...1, and the seconds left as estimated from the speed so far (nil: not known yet).
        public var fraction: Double
        public var etaSeconds: Double?
        /// The finished file's path, and the URL the page plays it from.
        public var output: String?
        public var url: String?
        /// Why it failed, or the summary of what was made.
        public var message: String?

        public init(state: String, filter: String, fraction: Double, etaSeconds: Double?, output: String?,
                    url: String?, message: String?) {
            self.state = state
            self.filter = filter
            self.fraction = fraction
            self.etaSeconds = etaSeconds
            self.output = output
            self.url = url
            self.message = message
        }
    }

    public struct Notice: Sendable, Codable, Equatable {
        /// Increasing, so a page shows each notice once.
        public var id: Int
        /// "info" or "error".
        public var level: String
        public var text: String

        public init(id: Int, level: String, text: String) {
            self.id = id
            self.level = level
            self.text = text
        }
    }
}
