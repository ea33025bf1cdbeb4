import Foundation
import VRenderCore
import VRenderExport
import VRenderFilters
import VRenderMedia
import VRenderPrompter

/// An export's options as a chunk plan keeps them: everything that shapes the output, with
/// absolute paths, so that a worker in another process, on another machine, in another
/// folder, plans exactly the same export (`ChunkPlan.exportPlan`).
public struct ExportRecipe: Codable, Sendable, Equatable {
    /// The take files, folders already read through their takes.json, in output order.
    public var inputs: [String]
    public var output: String
    public var overwrite: Bool
    public var audioTrack: Int?
    /// `--filter` as it parses back (`FilterChain.specification`).
    public var filter: String
    /// `--codec`: auto, hevc, h264, ffv1, vp9, av1 (copy is never chunked).
    public var codec: String
    public var crf: Int?
    public var preset: String?
    public var size: [Int]?
    public var frameRate: Rational?
    public var gpu: String
    public var filterThreads: Int
    public var prompter: Prompter?
    /// Each input's in and out points (trims and silence cuts already worked out: workers do
    /// not measure the sound again); nil when no take is trimmed.
    public var trims: [TakeTrim?]?
    /// The take (1-based) each input was cut from, where `--cut-pauses` or `--cut-retakes` cut
    /// a take into pieces (inputs with the same number are joined by cuts, never a
    /// transition); nil when every input is a take of its own (and plans written before).
    public var takeNumbers: [Int]? = nil
    /// `--loudness` (the join measures the whole export's sound and applies it).
    public var loudness: Double?
    /// `--stabilize`'s strength (nil: none); absent from plans written before it existed.
    public var stabilize: Double? = nil
    /// `--transition` as it parses back (`Transition.specification`); nil: cuts (and plans
    /// written before transitions existed).
    public var transition: String?
    /// `--captions`: the cues on the output's clock, aligned once when the export was planned
    /// (workers burn them in and the join writes them, aligning nothing); nil: none.
    public var captions: CaptionTrack? = nil

    /// `--prompter-overlay`: the script's path (read again by every worker), its settings and box.
    public struct Prompter: Codable, Sendable, Equatable {
        public var script: String
        public var settings: PrompterSettings
        public var box: [Int]?
    }

    /// The recipe of `options`, whose inputs are `inputs` (takes folders, lists and silence
    /// already resolved), with their `trims`.
    public init(options: ExportOptions, inputs: [String], trims: [TakeTrim?] = [], takeNumbers: [Int?] = [],
                captions: CaptionTrack? = nil) throws {
        self.captions = captions
        self.inputs = inputs.map(FileNames.absolute)
        self.trims = trims.contains { $0 != nil } ? trims : nil
        let numbers = takeNumbers.enumerated().map { $0.element ?? $0.offset + 1 }
        self.takeNumbers = numbers.enumerated().allSatisfy { $0.element == $0.offset + 1 } ? nil : numbers
        output = FileNames.absolute(options.output)
        overwrite = options.overwrite
        audioTrack = options.audioTrack
        // An empty chain (ExportOptions' default) as `--filter none` writes it: "" parses to nothing.
        filter = options.filter.filters.isEmpty ? "none" : options.filter.specification
        switch options.codec {
        case .auto: codec = "auto"
        case .encode(let choice): codec = choice.rawValue
        case .copy: throw VRenderError.option("--engine", "--codec copy copies the takes' video: there is nothing to render in chunks")
        }
        crf = options.crf
        preset = options.preset
        size = options.size.map { [$0.width, $0.height] }
        frameRate = options.frameRate
        gpu = options.gpu.rawValue
        filterThreads = options.filterThreads
        loudness = options.loudness
        prompter = options.prompter.map { request in
            Prompter(script: FileNames.absolute(request.script.name), settings: request.settings,
                     box: request.box.map { [$0.x, $0.y, $0.width, $0.height] })
        }
        stabilize = options.stabilize?.strength
        transition = options.transition == .cut ? nil : options.transition.specification
    }

    /// The options a worker plans with (the prompter script is read again): only
    /// `ChunkPlan.exportPlan` asks, the one place a recipe becomes a plan.
    func options() throws -> ExportOptions {
        guard let gpu = FilterBackendChoice(rawValue: gpu) else { throw Self.unreadable("gpu '\(gpu)'") }
        let request: ExportOptions.CodecRequest
        if codec == "auto" {
            request = .auto
        } else if let choice = VideoCodecChoice(rawValue: codec) {
            request = .encode(choice)
        } else {
            throw Self.unreadable("codec '\(codec)'")
        }
        var options = ExportOptions(inputs: inputs, output: output, audioTrack: audioTrack,
                                    filter: try FilterRegistry.chain(filter), codec: request, crf: crf, preset: preset,
                                    size: size.map { ($0[0], $0[1]) }, frameRate: frameRate, overwrite: overwrite,
                                    filterThreads: filterThreads, gpu: gpu)
        options.inputTrims = trims
        options.inputTakes = takeNumbers
        options.loudness = loudness
        if let prompter {
            let box = prompter.box.map { PixelRect(x: $0[0], y: $0[1], width: $0[2], height: $0[3]) }
            options.prompter = PrompterOverlayRequest(script: try PrompterScript(contentsOfFile: prompter.script),
                                                      settings: prompter.settings, box: box)
        }
        options.stabilize = try stabilize.map { try StabilizeRequest(strength: $0) }
        if let transition { options.transition = try Transition(parsing: transition) }
        if let captions, let refusal = captions.implausibility { throw VRenderError(.input, subject: "chunk plan", reason: "its captions \(refusal)") }
        options.plannedCaptions = captions
        return options
    }

    /// Every file the export reads: the takes, and the prompter script.
    public var files: [String] { inputs + (prompter.map { [$0.script] } ?? []) }

    private static func unreadable(_ what: String) -> VRenderError {
        VRenderError(.input, subject: "chunk plan", reason: "unknown \(what): written by another vrender version?")
    }
}
