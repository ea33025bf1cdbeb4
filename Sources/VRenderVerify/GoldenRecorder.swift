import Foundation
import VRenderCore
import VRenderImaging

/// What `vrender golden record` is asked.
public struct GoldenRecordOptions: Sendable {
    public var video: String
    public var golden: String
    /// Frames that get a reference PNG.
    public var frames: FrameSelection
    /// nil: an exact golden (hashes must match); else a lossy one with this tolerance.
    public var tolerance: GoldenTolerance?
    /// Decoder threads (a fixed count, so the record is reproducible; any count must match).
    public var threads: Int

    public init(video: String, golden: String, frames: FrameSelection = .standard, tolerance: GoldenTolerance? = nil,
                threads: Int = 1) {
        self.video = video
        self.golden = golden
        self.frames = frames
        self.tolerance = tolerance
        self.threads = threads
    }
}

/// What a record wrote.
public struct GoldenRecordSummary: Sendable, Equatable {
    public var golden: String
    public var frames: Int
    public var mode: String
    public var tolerance: GoldenTolerance?
    /// Frames given a reference PNG.
    public var references: [Int]
    /// Files of an earlier golden in the folder that no longer belong to it, now removed.
    public var removed: [String]
}

/// Records a golden of a video: frames.txt (one line per decoded frame) and reference PNGs of
/// the chosen frames. Rewriting a golden replaces it: the PNGs are written first, each
/// atomically, then frames.txt (atomically: the golden in force is the one it describes), and
/// only then are the files of the old golden that the new one does not use removed.
public struct GoldenRecorder: Sendable {
    public let options: GoldenRecordOptions

    public init(options: GoldenRecordOptions) {
        self.options = options
    }

    public func record() throws -> GoldenRecordSummary {
        let folder = GoldenFolder(path: options.golden)
        // Everything is decoded and hashed before the folder is touched: a bad video or a
        // frame list beyond its end leaves an existing golden as it was.
        let (lines, timeBase) = try describeFrames()
        let references = try options.frames.resolve(frameCount: lines.count, video: options.video)
        try folder.create()
        try writeReferences(references, to: folder)
        let manifest = GoldenManifest(tolerance: options.tolerance, decoderThreads: options.threads, references: references,
                                      timeBase: timeBase, source: (options.video as NSString).lastPathComponent, frames: lines)
        try folder.write(manifest)
        let removed = folder.removeStale("frame", keeping: Set(references)) + folder.removeStale("diff", keeping: [])
        return GoldenRecordSummary(golden: folder.path, frames: lines.count, mode: manifest.mode, tolerance: options.tolerance,
                                   references: references, removed: removed)
    }

    /// Every decoded frame's line, and the time base of their timestamps.
    private func describeFrames() throws -> ([GoldenFrame], Rational) {
        let decoded = try DecodedFrames(path: options.video, threads: options.threads)
        var lines: [GoldenFrame] = []
        while let frame = try decoded.next() {
            lines.append(try decoded.describe(frame, index: lines.count))
        }
        return (lines, decoded.timeBase)
    }

    /// Decodes again up to the last chosen frame and writes each chosen one as a PNG.
    private func writeReferences(_ references: [Int], to folder: GoldenFolder) throws {
        let decoded = try DecodedFrames(path: options.video, threads: options.threads)
        var picture = RGBImage(width: 0, height: 0)
        var pending = references[...]
        var index = 0
        while let wanted = pending.first, let frame = try decoded.next() {
            defer { index += 1 }
            guard index == wanted else { continue }
            try decoded.picture(of: frame, into: &picture)
            try PNGWriter.write(picture, to: folder.referencePath(index))
            pending = pending.dropFirst()
        }
        if let missing = pending.first {
            throw VRenderError.input(options.video, "frame \(missing) decoded the first time but not the second: the file changed while it was read")
        }
    }
}
