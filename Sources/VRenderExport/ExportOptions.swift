import VRenderCore
import VRenderFilters
import VRenderMedia
import VRenderPrompter

/// Everything `vrender concat` can be asked, already validated.
public struct ExportOptions: Sendable {
    public enum CodecRequest: Sendable, Equatable {
        /// Stream copy when possible, else HEVC or H.264.
        case auto
        /// Encode with this codec (never stream copy).
        case encode(VideoCodecChoice)
        /// Stream copy or fail.
        case copy

        /// "h264", "copy": as `--codec` names it.
        var label: String {
            switch self {
            case .auto: "auto"
            case .encode(let codec): codec.rawValue
            case .copy: "copy"
            }
        }
    }

    /// Take files, or takes folders (read through their takes.json).
    public var inputs: [String]
    public var output: String
    /// True when no output was named: the planner may then pick another container for `output`
    /// (e.g. export.webm for VP9 takes a .mov cannot hold).
    public var outputIsDefault: Bool
    /// `--audio-track N` (1-based): keep only this track of each take.
    public var audioTrack: Int?
    public var filter: FilterChain
    public var codec: CodecRequest
    public var crf: Int?
    public var preset: String?
    public var size: (width: Int, height: Int)?
    public var frameRate: Rational?
    public var overwrite: Bool
    /// Threads for CPU filter kernels (bands per frame).
    public var filterThreads: Int
    /// Where filters run (`--gpu`).
    public var gpu: FilterBackendChoice
    /// `--verbose`: FFmpeg's own warnings go to stderr (otherwise it is silent); applied by
    /// `Exporter.export`.
    public var verbose: Bool
    /// `--timings FILE.json`: after the export, per-stage frame timings, queue occupancy and
    /// resource use are written there (README "Measuring"); nil measures nothing.
    public var timingsOutput: String?
    /// `--prompter-overlay`: the script burned into every frame (nil: none).
    public var prompter: PrompterOverlayRequest?
    /// Processors the export may use, every stage's threads worked out from them (`--threads`;
    /// a chunk worker that shares its machine gets its share: `vrender chunk render --threads`).
    public var threads: ThreadBudget = .machine
    /// `--trim-silence` / `--cut-pauses`: each take's silences cut (nil: none).
    public var silence: SilenceTrimRequest?
    /// The in and out points of `inputs`, one each, from a caller that resolved them already
    /// (a chunk plan's recipe, whose inputs are the plan's takes); nil: none beyond what takes
    /// folders and concat lists give.
    public var inputTrims: [TakeTrim?]?
    /// The take each of `inputs` was cut from (`MediaInfo.sourceTake`), from a chunk plan's
    /// recipe whose inputs are a take's pieces; nil: each input is a take of its own.
    package var inputTakes: [Int]? = nil
    /// `--loudness LUFS`: the integrated loudness the sound is brought to (one gain per track,
    /// then a true-peak limiter at -1 dBTP); nil leaves the sound as it is.
    public var loudness: Double?
    /// `--stabilize [STRENGTH]`: each take's camera shake smoothed away (nil: pictures as shot).
    public var stabilize: StabilizeRequest? = nil
    /// `--for web|archive`: the delivery preset the options were filled from (nil: none); the
    /// encoder and muxer settings it implies beyond the options are applied when planning.
    public var delivery: DeliveryTarget? = nil
    /// The options given beside `--for` that the preset left as given ("--crf"), for the plan.
    public var deliveryOverrides: [String] = []
    /// `--transition`: what happens at each join (a cut unless asked).
    public var transition: Transition = .cut
    /// The folder `output` is in, held open by the caller (the studio's exports and proxies
    /// folders): the output is made and renamed in that very folder, whatever its path leads
    /// to by then, so a folder swapped for a link after it was checked cannot redirect the
    /// write. nil: the folder is opened by path when the output is made.
    public var outputFolder: FolderHandle? = nil
    /// `--captions`, `--cut-retakes`: what is done with the script the takes read (nil: nothing).
    public var script: ScriptRequest? = nil
    /// The captions as an earlier plan worked them out (a chunk plan's): used as they are,
    /// nothing aligned again. Set by `ExportRecipe`; `script` is then nil.
    package var plannedCaptions: CaptionTrack? = nil

    /// Where the captions go, asked now or planned before (empty: no captions).
    package var captionOutputs: [CaptionOutput] { script?.captions ?? plannedCaptions?.outputs ?? [] }
    /// For inputs given as `HeldFile.readablePath`s: the take file each stands for (`inputs`
    /// path → the take's path), so that the takes.json beside it is found (the prompter each
    /// take recorded). nil: the inputs are the takes' own paths.
    public var inputNames: [String: String]? = nil

    public init(inputs: [String], output: String, outputIsDefault: Bool = false, audioTrack: Int? = nil,
                filter: FilterChain = FilterChain([]),
                codec: CodecRequest = .auto, crf: Int? = nil, preset: String? = nil,
                size: (width: Int, height: Int)? = nil, frameRate: Rational? = nil,
                overwrite: Bool = false, filterThreads: Int = 0, gpu: FilterBackendChoice = .auto,
                verbose: Bool = false, timingsOutput: String? = nil) {
        self.inputs = inputs
        self.output = output
        self.outputIsDefault = outputIsDefault
        self.audioTrack = audioTrack
        self.filter = filter
        self.codec = codec
        self.crf = crf
        self.preset = preset
        self.size = size
        self.frameRate = frameRate
        self.overwrite = overwrite
        self.filterThreads = filterThreads
        self.gpu = gpu
        self.verbose = verbose
        self.timingsOutput = timingsOutput
    }
}

/// `vrender concat --prompter-overlay SCRIPT`: the teleprompter drawn into every frame, after the
/// filter, scrolling with each take's recording time (README "Teleprompter").
public struct PrompterOverlayRequest: Sendable {
    /// The script: its path as given (named in warnings) and its cleaned text.
    public var script: PrompterScript
    /// Speed, size and ending for takes that were not recorded with `--prompter` (the others
    /// replay what takes.json recorded), already clamped.
    public var settings: PrompterSettings
    /// `--prompter-box X,Y,W,H` in output pixels (fitted to the picture); nil: across the top.
    public var box: PixelRect?
    /// What clamping the settings said, for the plan's notes.
    public var notices: [String]

    public init(script: PrompterScript, settings: PrompterSettings, box: PixelRect? = nil, notices: [String] = []) {
        self.script = script
        self.settings = settings
        self.box = box
        self.notices = notices
    }
}
