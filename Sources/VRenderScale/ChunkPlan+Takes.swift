import Foundation
import VRenderCore
import VRenderMedia

/// The probed takes a plan carries are checked like its other fields: workers plan from them
/// without reading the takes, so every number that reaches a size, a count, a clock or a
/// conversion must be one probing could have given. What only a real probe can tell (a lie
/// within those ranges) is caught twice: a worker that opens a take checks its streams
/// against the plan (`Demuxer.difference(from:)`), and the join probes every take again and
/// compares (`ChunkPlan.checkTakes`) before the output exists.
extension ChunkPlan {
    /// The most codec setup bytes a stream may carry: H.264/HEVC parameter sets take a few
    /// hundred, Vorbis's codebooks a few thousand.
    static let maxSetupBytes = 1 << 18
    /// The earliest or latest a stream may start, in seconds: a transport stream's 33-bit
    /// clock wraps at 95,444 s; edit lists and offsets stay far within this.
    static let maxStartSeconds = 1e7

    func validateTakes(_ check: FieldCheck) throws {
        try check.require(takes.count == recipe.inputs.count, "takes", "holds \(takes.count) take(s), the recipe \(recipe.inputs.count)")
        for (index, take) in takes.enumerated() {
            let field = "takes[\(index)]"
            try check.require(take.path == recipe.inputs[index], field + ".path", "is not the recipe's input \(index + 1)")
            try check.require(take.trim == recipe.trims?[index], field + ".trim", "is not the recipe's trim of input \(index + 1)")
            try check.require(take.sourceTake.map { $0 == recipe.takeNumbers?[index] ?? index + 1 } ?? true, field + ".sourceTake",
                              "is not the recipe's take number of input \(index + 1)")
            try validate(take.video, check, field + ".video")
            try check.require(take.audioTracks.count <= 1000, field + ".audioTracks", "holds more than 1000 tracks")
            for (track, audio) in take.audioTracks.enumerated() {
                try validate(audio, check, field + ".audioTracks[\(track)]")
            }
            for (number, subtitle) in take.side.subtitles.enumerated() {
                try validate(subtitle.label, check, field + ".side.subtitles[\(number)].label")
            }
            let side = take.side
            try check.require(side.subtitles.allSatisfy { Self.isStreamIndex($0.index) }, field + ".side.subtitles", "holds a stream index out of range")
            try check.require(side.chapters.allSatisfy { Self.isTime($0.start) && Self.isTime($0.end) && $0.start < $0.end },
                              field + ".side.chapters", "holds a chapter that does not end after it starts")
        }
    }

    private func validate(_ label: TrackLabel, _ check: FieldCheck, _ field: String) throws {
        let wrong = label.implausibility
        try check.require(wrong == nil, field, wrong ?? "")
    }

    private func validate(_ video: VideoStreamInfo, _ check: FieldCheck, _ field: String) throws {
        try validate(video.label, check, field + ".label")
        try check.require(Self.isStreamIndex(video.index), field + ".index", "is \(video.index), not a stream index")
        try check.require((1...MediaLimits.maxSide).contains(video.width) && (1...MediaLimits.maxSide).contains(video.height)
                          && MediaLimits.sizeRefusal(width: video.width, height: video.height) == nil,
                          field + ".width", "and height are not a picture size within vrender's limits")
        try check.require(Self.isPositive(video.timeBase), field + ".timeBase", "is not a positive fraction")
        try check.require(Self.isPositive(video.frameRate) && MediaLimits.frameRates.contains(video.frameRate.doubleValue),
                          field + ".frameRate", "is not a frame rate vrender joins")
        if let average = video.averageFrameRate {
            try check.require(Self.isPositive(average) && MediaLimits.frameRates.contains(average.doubleValue),
                              field + ".averageFrameRate", "is not a frame rate vrender joins")
        }
        try check.require(Self.isPositive(video.sampleAspect) && (0.125...8).contains(video.sampleAspect.doubleValue),
                          field + ".sampleAspect", "is not a pixel shape from 1:8 to 8:1")
        try check.require(video.displayMatrix.map { $0.count == 9 } ?? true, field + ".displayMatrix", "does not hold 9 numbers")
        try check.require(video.extradata.count <= Self.maxSetupBytes, field + ".extradata", "is over \(Self.maxSetupBytes) bytes")
        try check.require(Self.isTime(video.startTime), field + ".startTime", "is not a time within ±\(Int(Self.maxStartSeconds)) s")
        try check.require(video.duration > 0 && video.duration <= MediaLimits.maxDuration, field + ".duration",
                          "is not a length from 0 to \(Int(MediaLimits.maxDuration)) s")
        try check.require((1...16).contains(video.bitDepth), field + ".bitDepth", "is \(video.bitDepth), not 1 to 16")
        let colour = [video.colour.primaries, video.colour.transfer, video.colour.matrix]
        try check.require(colour.allSatisfy { (0...255).contains($0) }, field + ".colour", "holds a code point outside 0 to 255")
        try check.require((0...1_000_000).contains(video.damagedTimestamps) && (0...1_000_000).contains(video.hiddenFrames),
                          field + ".damagedTimestamps", "or hiddenFrames is not a count from 0 to 1000000")
    }

    private func validate(_ audio: AudioStreamInfo, _ check: FieldCheck, _ field: String) throws {
        try validate(audio.label, check, field + ".label")
        try check.require(Self.isStreamIndex(audio.index), field + ".index", "is \(audio.index), not a stream index")
        try check.require((1...1_000_000).contains(audio.sampleRate), field + ".sampleRate", "is \(audio.sampleRate), not 1 to 1000000 Hz")
        try check.require((1...255).contains(audio.channels), field + ".channels", "is \(audio.channels), not 1 to 255")
        try check.require(Self.isPositive(audio.timeBase), field + ".timeBase", "is not a positive fraction")
        try check.require(audio.extradata.count <= Self.maxSetupBytes, field + ".extradata", "is over \(Self.maxSetupBytes) bytes")
        try check.require(Self.isTime(audio.startTime), field + ".startTime", "is not a time within ±\(Int(Self.maxStartSeconds)) s")
        try check.require(audio.duration >= 0 && audio.duration <= MediaLimits.maxDuration, field + ".duration",
                          "is not a length from 0 to \(Int(MediaLimits.maxDuration)) s")
    }

    /// A stream number FFmpeg can give (its count is an unsigned int; a take has a few).
    private static func isStreamIndex(_ index: Int) -> Bool { (0...65_535).contains(index) }

    /// Both terms positive and within 32 bits, as FFmpeg's rationals are: no arithmetic on
    /// them overflows or divides by zero.
    private static func isPositive(_ fraction: Rational) -> Bool {
        (1...Int(Int32.max)).contains(fraction.numerator) && (1...Int(Int32.max)).contains(fraction.denominator)
    }

    private static func isTime(_ seconds: Double) -> Bool { seconds.isFinite && abs(seconds) <= maxStartSeconds }
}
