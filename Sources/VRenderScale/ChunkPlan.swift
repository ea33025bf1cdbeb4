import Foundation
import VRenderCore
import VRenderExport
import VRenderMedia

/// A chunked export, as a file (`plan.json` in the work folder): the export's recipe, every
/// input as it was when planned (size, modification time), and the chunks: runs of output
/// frames that each start a GOP, so that chunks encoded apart join by stream copy.
///
/// Every chunk worker and the join plan the export again from the recipe and check that they
/// see the same timeline (`check(_:)`), so a worker never renders frames of another export.
/// Workers plan from the takes as the plan carries them (`takes`: probed, trimmed and cut
/// once, when the plan was made), so their start-up reads no take; the join probes every take
/// again and refuses to write the output when they differ (`checkTakes`).
public struct ChunkPlan: Codable, Sendable, Equatable {
    /// Bumped when the folder's files change meaning (2: done records carry a SHA-256; 3: the
    /// sound is a job of its own, `sound`; 4: the plan carries the probed takes, `takes`); a
    /// plan of another version is refused.
    public static let currentVersion = 4

    public struct Chunk: Codable, Sendable, Equatable {
        public var index: Int
        public var firstFrame: Int
        public var frameCount: Int
    }

    public var version: Int
    public var recipe: ExportRecipe
    public var inputs: [InputStamp]
    /// The takes the export was planned from: probed, with their trims and silence cuts (one
    /// per recipe input, in order), what workers plan from (`exportPlan`).
    public var takes: [MediaInfo]
    /// The export as planned: frame count and rate, stored canvas, video codec.
    public var frameRate: Rational
    public var totalFrames: Int
    public var canvas: [Int]
    public var videoCodec: String
    /// Frames between keyframes in every chunk; every chunk boundary is a multiple of it.
    public var keyframeInterval: Int
    /// The chunk files' container: "mov", or "mkv" for VP9 and AV1.
    public var chunkContainer: String
    public var chunks: [Chunk]
    /// When the export has sound: the container of the file (`chunks/sound.mp4`, or `.mka` for
    /// Opus) that a job of its own (`vrender chunk sound`) encodes it into, beside the chunks,
    /// for the join to copy. nil: no sound.
    public var sound: String?

    /// The plan of `export` (planned from `recipe`) cut as `sizing` asks.
    public init(export: ExportPlan, recipe: ExportRecipe, sizing: ChunkSizing) throws {
        version = Self.currentVersion
        self.recipe = recipe
        inputs = try recipe.files.map(InputStamp.init(path:))
        takes = Self.stored(export.takes)
        frameRate = export.frameRate
        totalFrames = export.timeline.totalSlots
        canvas = [export.canvasWidth, export.canvasHeight]
        videoCodec = export.videoCodec.rawValue
        keyframeInterval = Self.keyframeInterval(codec: export.videoCodec, frameRate: export.frameRate)
        chunkContainer = [.vp9, .av1].contains(export.videoCodec) ? "mkv" : "mov"
        let spans = ChunkLayout.spans(totalFrames: totalFrames, keyframeInterval: keyframeInterval,
                                      frameRate: frameRate.doubleValue, sizing: sizing)
        chunks = spans.enumerated().map { Chunk(index: $0, firstFrame: $1.lowerBound, frameCount: $1.count) }
        sound = export.soundContainer
    }

    /// `takes` as a plan keeps them: with absolute paths, as the recipe's inputs, so that a
    /// worker in another folder reads the same files.
    static func stored(_ takes: [MediaInfo]) -> [MediaInfo] {
        takes.map { take in
            var stored = take
            stored.path = FileNames.absolute(take.path)
            return stored
        }
    }

    /// The sound's job number (one past the last chunk's), when the export has sound.
    public var soundJob: Int? { sound == nil ? nil : chunks.count }

    /// Every job of the export: the sound first (it takes one processor for the whole export's
    /// length of audio, so it should not be the one left running at the end), then the chunks.
    public var jobs: [Int] { (soundJob.map { [$0] } ?? []) + chunks.map(\.index) }

    /// What job `index` must produce, as a chunk: the sound's has no frames.
    func job(_ index: Int) -> Chunk {
        index == soundJob ? Chunk(index: index, firstFrame: 0, frameCount: 0) : chunks[index]
    }

    /// Two seconds between keyframes (what streaming encodes use: cheap to cut at, costs little
    /// compression); every frame for FFV1, whose frames are all keyframes.
    static func keyframeInterval(codec: VideoCodecChoice, frameRate: Rational) -> Int {
        codec == .ffv1 ? 1 : max(1, Int((2 * frameRate.doubleValue).rounded()))
    }

    /// The export this plan cut, planned again from the takes the plan carries: the one place
    /// a recipe becomes a plan, probing nothing. `output`: the join's, which writes it
    /// (checked); its caller probes the takes again, before or while it runs (`probedHere`,
    /// compared here, or `TakeRecheck`): the chunks were rendered from what the plan carries.
    /// Without, a chunk or the sound. Thrown when the export is not this plan's (`check`,
    /// `checkTakes`).
    func exportPlan(output: (path: String, overwrite: Bool)?, threads: ThreadBudget, probedHere: [MediaInfo]?,
                    measuringLoudness: Bool, planPath: String) throws -> ExportPlan {
        if let probedHere { try checkTakes(probedHere, planPath: planPath) }
        let export = try ExportPlanner.plan(try exportOptions(output: output, threads: threads), checkingOutput: output != nil,
                                            measuringLoudness: measuringLoudness, probed: takes)
        try check(export, planPath: planPath)
        return export
    }

    /// The recipe's options, writing `output` (the join's) when given.
    func exportOptions(output: (path: String, overwrite: Bool)?, threads: ThreadBudget) throws -> ExportOptions {
        var options = try recipe.options()
        if let output {
            options.output = output.path
            options.overwrite = output.overwrite
        }
        options.threads = threads
        return options
    }

    /// Throws when `export` (planned again from the recipe) is not the export this plan cut:
    /// another frame count, rate, canvas or codec means the inputs or vrender changed.
    public func check(_ export: ExportPlan, planPath: String) throws {
        let now = "\(export.timeline.totalSlots) frames at \(export.frameRate) fps, \(export.canvasWidth)x\(export.canvasHeight) \(export.videoCodec.rawValue)\(export.soundContainer.map { " with sound (\($0))" } ?? "")"
        let planned = "\(totalFrames) frames at \(frameRate) fps, \(canvas[0])x\(canvas[1]) \(videoCodec)\(sound.map { " with sound (\($0))" } ?? "")"
        guard now == planned else {
            throw VRenderError.input(planPath, "the export planned from it now has \(now), the plan \(planned): its inputs or vrender changed; make a new plan")
        }
    }

    /// Throws naming `planPath` and the first take whose probe now (`probed`: every take
    /// probed again, trimmed and cut) differs from the one the plan carries, which every worker
    /// planned from: the take changed in a way its size and time did not show, or the plan
    /// was edited; either way the chunks may not be the export's.
    public func checkTakes(_ probed: [MediaInfo], planPath: String) throws {
        let probed = Self.stored(probed)
        guard probed != takes else { return }
        guard probed.count == takes.count else {
            throw VRenderError.input(planPath, "carries \(takes.count) probed take(s), the export now has \(probed.count): make a new plan")
        }
        guard let index = takes.indices.first(where: { probed[$0] != takes[$0] }) else { return }
        let (now, planned) = (probed[index], takes[index])
        var parts: [String] = []
        if now.path != planned.path || now.container != planned.container { parts.append("file") }
        if now.video != planned.video { parts.append("video") }
        if now.audioTracks != planned.audioTracks { parts.append("audio") }
        if now.side != planned.side { parts.append("other streams") }
        if now.trim != planned.trim { parts.append("trim") }
        let number = index + 1, differing = parts.joined(separator: ", ")
        throw VRenderError.input(planPath, "its probe of take \(number) (\(now.path)) is not what the take holds now "
                                 + "(\(differing) differ): the take changed, or the plan was edited; make a new plan")
    }

    /// Throws naming the first input that changed since the plan was made.
    public func checkInputs(planPath: String) throws {
        for stamp in inputs { try stamp.checkUnchanged(planPath: planPath) }
    }
}

/// How big chunks are: `--chunks N` or `--chunk-seconds S`.
public enum ChunkSizing: Sendable, Equatable {
    case count(Int)
    case seconds(Double)
}

/// Where chunks start: always at a keyframe of the output (a multiple of the keyframe interval).
enum ChunkLayout {
    /// `count(N)`: N chunks as equal as whole GOPs allow (fewer when the export has fewer
    /// GOPs); `seconds(S)`: chunks of S seconds rounded to whole GOPs, the last one shorter.
    static func spans(totalFrames: Int, keyframeInterval gop: Int, frameRate: Double, sizing: ChunkSizing) -> [Range<Int>] {
        guard totalFrames > 0 else { return [] }
        let gops = (totalFrames + gop - 1) / gop
        var starts: [Int]
        switch sizing {
        case .count(let requested):
            let count = max(1, min(requested, gops))
            starts = (0..<count).map { Int((Double($0 * gops) / Double(count)).rounded(.down)) * gop }
        case .seconds(let seconds):
            let gopsPerChunk = max(1, Int((seconds * frameRate / Double(gop)).rounded()))
            starts = stride(from: 0, to: gops, by: gopsPerChunk).map { $0 * gop }
        }
        let ends = starts.dropFirst() + [totalFrames]
        return zip(starts, ends).map { $0..<$1 }
    }
}
