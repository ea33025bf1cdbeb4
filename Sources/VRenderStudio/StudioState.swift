import VRenderCapture
import VRenderCore

/// Everything a studio page shows, as one snapshot: the server sends the whole of it (JSON) to
/// every page after each change, so a page that joins late or missed one is right at the next.
/// Field names are the page's API (`Sources/VRenderStudio/Page/studio.js` reads them).
package struct StudioState: Sendable, Codable, Equatable {
    /// Counts changes; a page ignores a snapshot older than the one it shows.
    package var version = 0
    /// The camera as given (`--device`) and, once open, what it delivers.
    package var device: String
    package var camera: CameraInfo?
    /// The takes folder (`--out`) and where exports go, as paths to show the user.
    package var folder: String
    package var exportsFolder: String
    /// True while the recorder records a take: from its start until its end, as the recorder
    /// did them (a stop it ignored leaves it true).
    package var recording = false
    /// The same, with a start or stop on its way: "idle", "starting", "recording", "stopping".
    package var recordingState = RecordingPhase.idle
    /// Seconds the take in progress has run (0 when not recording).
    package var takeSeconds = 0.0
    /// Frames per second captured over the last half second, frames dropped from the take in
    /// progress, and seconds of frames waiting for the encoder.
    package var fps = 0.0
    package var dropped = 0
    package var behindSeconds = 0.0
    /// The microphone's meter; nil: takes are silent.
    package var sound: SoundInfo?
    /// The teleprompter; nil without `--prompter`.
    package var prompter: PrompterInfo?
    /// The filter the preview shows (a `FilterRegistry` name, "" for none), and every choice.
    package var previewFilter = ""
    package var filters: [String] = []
    /// takes.json's takes, in its order.
    package var takes: [TakeInfo] = []
    /// The last export (nil: none yet this session).
    package var export: ExportInfo?
    /// Recent messages, oldest first (at most `StudioState.noticeLimit`).
    package var notices: [Notice] = []
    /// What stops the studio from recording (the camera did not open, the folder cannot be
    /// written); nil while all is well.
    package var error: String?

    package static let noticeLimit = 20

    /// `RecordingState` as the page reads it.
    package enum RecordingPhase: String, Sendable, Codable, Equatable {
        case idle, starting, recording, stopping
    }

    /// Where an export stands (the page reads the names).
    package enum ExportPhase: String, Sendable, Codable, Equatable {
        case running, done, failed, cancelled
    }

    package init(device: String, folder: String, exportsFolder: String) {
        self.device = device
        self.folder = folder
        self.exportsFolder = exportsFolder
    }

    package struct CameraInfo: Sendable, Codable, Equatable {
        package var name: String
        package var width: Int
        package var height: Int
        package var frameRate: Double
        package var position: CameraPosition
        package var lens: Double
        package var zoom: Double
        package var torch: Double
        /// Whether the camera has lenses, zoom and a torch to drive (a V4L2 webcam may not).
        package var synthetic: Bool

        package init(name: String, width: Int, height: Int, frameRate: Double, state: CameraState, synthetic: Bool) {
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

    package struct SoundInfo: Sendable, Codable, Equatable {
        /// The loudest sample of the last half second, dBFS; nil: silence.
        package var peakDBFS: Double?
        package var clipping: Bool
        package var missingMilliseconds: Double

        package init(peakDBFS: Double?, clipping: Bool, missingMilliseconds: Double) {
            self.peakDBFS = peakDBFS
            self.clipping = clipping
            self.missingMilliseconds = missingMilliseconds
        }
    }

    /// The prompter as the page draws it: the script laid out in lines for the box, scrolled by
    /// `offset` points. While `state` is "scrolling" the page moves on at `speed` points per
    /// second from `offset` as of `sentAt` (Unix milliseconds), stopping at `maxOffset`.
    package struct PrompterInfo: Sendable, Codable, Equatable {
        package var script: String
        package var lines: [String]
        /// Points between line tops, the font size in points, and points per second.
        package var lineHeight: Double
        package var fontSize: Double
        package var speed: Double
        package var offset: Double
        package var maxOffset: Double
        package var sentAt: Double
        /// "scrolling", "held", "stopped" or "at end".
        package var state: String
        package var percent: Int
        /// A point is 1/`pointsAcrossShorterSide` of the picture's shorter side.
        package var pointsAcrossShorterSide: Double
        /// The box as fractions of the picture: x, y, width, height. What an export burns in.
        package var box: [Double]

        package init(script: String, lines: [String], lineHeight: Double, fontSize: Double, speed: Double,
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

    package struct TakeInfo: Sendable, Codable, Equatable {
        /// 1-based, in takes.json's order.
        package var number: Int
        /// The take's file name in the takes folder (what delete and reorder name it by).
        package var file: String
        package var duration: Double
        package var frames: Int
        package var dropped: Int
        package var hasSound: Bool
        /// Paths the page loads (`/media/...`), nil while there is none.
        package var thumbnailURL: String?
        package var proxyURL: String?
        /// The browser-playable copy: "waiting", "making", "ready" or "failed".
        package var proxyState: ProxyMaker.State
        /// What the take check found wrong; nil: the take read back whole.
        package var problem: String?

        package init(number: Int, file: String, duration: Double, frames: Int, dropped: Int, hasSound: Bool,
                    thumbnailURL: String?, proxyURL: String?, proxyState: ProxyMaker.State, problem: String?) {
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

    package struct ExportInfo: Sendable, Codable, Equatable {
        package var state: ExportPhase
        package var filter: String
        /// 0...1, and the seconds left as estimated from the speed so far (nil: not known yet).
        package var fraction: Double
        package var etaSeconds: Double?
        /// The finished file's path, and the URL the page plays it from.
        package var output: String?
        package var url: String?
        /// Why it failed, or the summary of what was made.
        package var message: String?

        package init(state: ExportPhase, filter: String, fraction: Double, etaSeconds: Double?, output: String?,
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

    package struct Notice: Sendable, Codable, Equatable {
        /// Increasing, so a page shows each notice once.
        package var id: Int
        package var level: Level
        package var text: String

        package enum Level: String, Sendable, Codable, Equatable {
            case info, error
        }

        package init(id: Int, level: Level, text: String) {
            self.id = id
            self.level = level
            self.text = text
        }
    }
}

/// A take's playable copy as the page reads it ("waiting", "making", "ready", "failed").
extension ProxyMaker.State: Codable {}
