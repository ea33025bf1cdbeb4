import Foundation
import VRenderCore
import VRenderExport

/// One line of the done-list: a chunk rendered, by whom, how fast, and the SHA-256 of the file
/// it wrote (a chunk file that no longer matches is not done: rendered again, never joined).
public struct ChunkRecord: Codable, Sendable, Equatable {
    public var index: Int
    public var frames: Int
    public var bytes: Int64
    public var sha256: String
    public var seconds: Double
    public var host: String
    /// The encoder that wrote it ("libx264"), for the join's summary.
    public var encoder: String
    /// Damage met while rendering it (packets or frames skipped per take, warnings), for the
    /// export's summary: a chunk's log is not where anyone looks when it succeeded.
    public var damagedFrames: [String: Int]
    public var warnings: [String]
    /// Seconds from the worker process's start to its first frame encoded: what a chunk costs
    /// before it renders anything (README "Scale-out"); nil for the sound.
    public var startSeconds: Double? = nil
    /// The sound's record: `--loudness`'s measurement and gains, for the export's summary.
    public var loudness: LoudnessPlan? = nil
    /// Takes the job probed (`Probe.probesMade`): 0, since the plan carries their probes; nil
    /// in records written before it was counted.
    public var probes: Int? = nil

    /// The most a done record may weigh: a few hundred bytes, more with many warnings.
    static let maxFileBytes = 1 << 20

    /// Throws naming `file` and the field out of range: a record is read back from a folder
    /// anyone may have written, and its numbers end up in sizes and counts.
    func validate(file: String, chunk: ChunkPlan.Chunk) throws {
        let check = FieldCheck(file: file)
        try check.require(index == chunk.index, "index", "is \(index), in the record of chunk \(chunk.index)")
        try check.require(frames == chunk.frameCount, "frames", "is \(frames), the plan's chunk has \(chunk.frameCount)")
        try check.require(bytes > 0, "bytes", "is \(bytes), not a positive size")
        try check.require(ChunkHash.isWellFormed(sha256), "sha256", "is not 64 lowercase hex digits")
        try check.require(seconds.isFinite && seconds >= 0, "seconds", "is \(seconds), not a time")
        try check.require(host.utf8.count <= 1024, "host", "is longer than 1024 bytes")
        try check.require(encoder.utf8.count <= 256, "encoder", "is longer than 256 bytes")
        try check.require(damagedFrames.count <= 100_000 && damagedFrames.values.allSatisfy { $0 >= 0 },
                          "damagedFrames", "holds a negative count or too many takes")
        try check.require(warnings.count <= 10_000, "warnings", "holds more than 10000 warnings")
        if let startSeconds {
            try check.require(startSeconds.isFinite && startSeconds >= 0, "startSeconds", "is \(startSeconds), not a time")
        }
        if let probes { try check.require(probes >= 0, "probes", "is \(probes), not a count") }
        if let loudness {
            let values = loudness.tracks.flatMap { [$0.measured, $0.truePeak, $0.gain].compactMap { $0 } } + [loudness.target]
            try check.require(loudness.tracks.count <= 1000 && values.allSatisfy(\.isFinite), "loudness", "holds more than 1000 tracks or a value that is not a number")
        }
    }
}
