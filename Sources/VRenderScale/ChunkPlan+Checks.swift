import Foundation
import VRenderCore
import VRenderExport
import VRenderFilters
import VRenderMedia
import VRenderPrompter

/// A plan read back from a work folder is checked field by field before anything uses it: the
/// folder may be on a shared file system anyone writes, and a canvas of one number, a frame rate
/// of 1/0 or a chunk of -50 frames would otherwise stop a worker on an index out of range or a
/// bad conversion, or render something else than the plan that was made.
extension ChunkPlan {
    /// The most plan.json may weigh: a plan of 10000 chunks and many takes is ~2 MB.
    static let maxFileBytes = 16 << 20
    /// The most chunks a plan may have: far more than a cluster runs at once, and few enough
    /// that the done-list stays a folder anyone can list.
    public static let maxChunks = 10_000
    /// The longest export in frames: 2^31 (25 days at 1000 fps), so no frame arithmetic overflows.
    static let maxFrames = Int(Int32.max)

    /// The plan decoded from `data` (the contents of `file`), every field checked.
    static func load(_ data: Data, file: String) throws -> ChunkPlan {
        let check = FieldCheck(file: file)
        let plan = try check.decode(ChunkPlan.self, from: data, what: "a chunk plan")
        guard plan.version == currentVersion else {
            throw VRenderError.input(file, "is a version \(plan.version) plan; this vrender reads version \(currentVersion): make a new plan")
        }
        try plan.validate(check)
        return plan
    }

    private func validate(_ check: FieldCheck) throws {
        try check.require(frameRate.numerator > 0 && frameRate.denominator > 0
                          && MediaLimits.frameRates.contains(frameRate.doubleValue), "frameRate", "is not a frame rate vrender exports at")
        try check.require((1...Self.maxFrames).contains(totalFrames), "totalFrames", "is \(totalFrames), not 1 to \(Self.maxFrames)")
        try check.require(canvas.count == 2 && canvas.allSatisfy { $0 > 0 }
                          && MediaLimits.sizeRefusal(width: canvas[0], height: canvas[1]) == nil,
                          "canvas", "is not a width and a height within vrender's limits")
        let codec = VideoCodecChoice(rawValue: videoCodec)
        try check.require(codec != nil, "videoCodec", "'\(videoCodec)' is not a codec vrender encodes")
        let interval = Self.keyframeInterval(codec: codec!, frameRate: frameRate)
        try check.require(keyframeInterval == interval, "keyframeInterval", "is \(keyframeInterval), not \(interval) (the codec's and rate's)")
        let container = [.vp9, .av1].contains(codec!) ? "mkv" : "mov"
        try check.require(chunkContainer == container, "chunkContainer", "is '\(chunkContainer)', not '\(container)'")
        try validateChunks(check)
        if let sound { try check.require(["mp4", "mka"].contains(sound), "sound", "is '\(sound)', not mp4 or mka") }
        try recipe.validate(check)
        try check.require(inputs.map(\.path) == recipe.files, "inputs", "does not list the recipe's files in order")
        try validateTakes(check)
        try check.require(inputs.allSatisfy { $0.bytes >= 0 }, "inputs", "holds a negative size")
    }

    /// Chunks numbered from 0, each starting where the one before ends, at a keyframe, with
    /// frames, together covering the export: at most `maxChunks`, and at most one per GOP.
    private func validateChunks(_ check: FieldCheck) throws {
        let gops = (totalFrames + keyframeInterval - 1) / keyframeInterval
        try check.require((1...min(Self.maxChunks, gops)).contains(chunks.count), "chunks",
                          "has \(chunks.count) chunk(s), not 1 to \(min(Self.maxChunks, gops)) (one per GOP at most)")
        var next = 0
        for (position, chunk) in chunks.enumerated() {
            let field = "chunks[\(position)]"
            try check.require(chunk.index == position, field + ".index", "is \(chunk.index), not \(position)")
            try check.require(chunk.firstFrame == next, field + ".firstFrame", "is \(chunk.firstFrame), not \(next) (where the chunk before ends)")
            try check.require(chunk.firstFrame % keyframeInterval == 0, field + ".firstFrame",
                              "is not a multiple of the keyframe interval \(keyframeInterval)")
            try check.require(chunk.frameCount > 0 && chunk.frameCount <= totalFrames - next, field + ".frameCount",
                              "is \(chunk.frameCount), not 1 to the \(totalFrames - next) frames left")
            next += chunk.frameCount
        }
        try check.require(next == totalFrames, "chunks", "cover \(next) frames, not the \(totalFrames) planned")
    }
}

extension ExportRecipe {
    /// Every field in the range the command line allows, so `options()` and the export planned
    /// from it see only what a user could have asked for.
    func validate(_ check: FieldCheck) throws {
        try check.require(!inputs.isEmpty && inputs.count <= 100_000, "recipe.inputs", "does not list 1 to 100000 takes")
        try check.require(inputs.allSatisfy(Self.isAbsolute), "recipe.inputs", "holds a path that is not absolute")
        if let takeNumbers {
            try check.require(takeNumbers.count == inputs.count && takeNumbers.allSatisfy { (1...inputs.count).contains($0) },
                              "recipe.takeNumbers", "does not give one take number from 1 to \(inputs.count) per input")
        }
        if let trims {
            try check.require(trims.count == inputs.count, "recipe.trims", "does not give one trim per input")
            try check.require(trims.allSatisfy { $0?.refusal == nil }, "recipe.trims", "holds a trim whose out point is not after its in point")
        }
        try check.require(Self.isAbsolute(output) && !output.hasSuffix("/"), "recipe.output", "is not an absolute file name")
        if let audioTrack { try check.require((1...1000).contains(audioTrack), "recipe.audioTrack", "is \(audioTrack), not 1 to 1000") }
        try check.require((try? FilterRegistry.chain(filter)) != nil, "recipe.filter", "'\(filter)' is not a filter chain")
        try check.require(codec == "auto" || VideoCodecChoice(rawValue: codec) != nil, "recipe.codec", "'\(codec)' is not a codec vrender encodes")
        if let crf { try check.require((0...51).contains(crf), "recipe.crf", "is \(crf), not 0 to 51") }
        if let preset {
            try check.require(!preset.isEmpty && preset.count <= 32 && preset.allSatisfy { $0.isASCII && $0.isLetter },
                              "recipe.preset", "is not an encoder preset name")
        }
        if let size {
            try check.require(size.count == 2 && size.allSatisfy { $0 > 0 && $0 % 2 == 0 }
                              && MediaLimits.sizeRefusal(width: size[0], height: size[1]) == nil,
                              "recipe.size", "is not an even width and height within vrender's limits")
        }
        if let frameRate {
            try check.require(frameRate.numerator > 0 && frameRate.denominator > 0 && frameRate.doubleValue <= 1000,
                              "recipe.frameRate", "is not a frame rate between 0 and 1000")
        }
        try check.require(FilterBackendChoice(rawValue: gpu) != nil, "recipe.gpu", "'\(gpu)' is not a filter backend")
        try check.require((0...1024).contains(filterThreads), "recipe.filterThreads", "is \(filterThreads), not 0 to 1024")
        if let prompter { try prompter.validate(check) }
        if let stabilize {
            try check.require(stabilize > 0 && stabilize <= 1, "recipe.stabilize", "is \(stabilize), not a strength from 0 to 1")
        }
        if let transition {
            try check.require((try? Transition(parsing: transition)) != nil, "recipe.transition", "'\(transition)' is not cut, fade:T or dip:T")
        }
    }

    private static func isAbsolute(_ path: String) -> Bool { path.hasPrefix("/") && !path.utf8.contains(0) }
}

extension ExportRecipe.Prompter {
    func validate(_ check: FieldCheck) throws {
        try check.require(script.hasPrefix("/") && !script.utf8.contains(0), "recipe.prompter.script", "is not an absolute file name")
        try check.require(PrompterSettings.speedRange.contains(settings.speed), "recipe.prompter.settings.speed",
                          "is \(settings.speed), not within \(PrompterSettings.speedRange)")
        try check.require(PrompterSettings.fontSizeRange.contains(settings.fontSize), "recipe.prompter.settings.fontSize",
                          "is \(settings.fontSize), not within \(PrompterSettings.fontSizeRange)")
        if let box {
            let side = MediaLimits.maxSide
            try check.require(box.count == 4 && box[2] > 0 && box[3] > 0 && box.allSatisfy { abs($0) <= side },
                              "recipe.prompter.box", "is not X,Y,W,H with a positive size, each within \(side) pixels")
        }
    }
}
