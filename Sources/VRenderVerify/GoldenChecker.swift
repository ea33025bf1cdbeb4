import VRenderCore
import VRenderImaging
import VRenderMedia

/// What `vrender golden check` is asked.
public struct GoldenCheckOptions: Sendable {
    public var video: String
    public var golden: String
    /// A stricter tolerance than the golden's own (never a looser one), or nil.
    public var tolerance: GoldenTolerance?
    /// Decoder threads: any count must give the frames the golden recorded.
    public var threads: Int

    public init(video: String, golden: String, tolerance: GoldenTolerance? = nil, threads: Int = 1) {
        self.video = video
        self.golden = golden
        self.tolerance = tolerance
        self.threads = threads
    }
}

/// Compares a video with a golden: the frame count, time base, and every frame's size, pixel
/// format and timestamps always; every frame's hash when the golden is exact; each reference
/// frame's PSNR/SSIM against its PNG when it is lossy. Failing reference frames get a heat map
/// beside the golden (`diff-NNNNNN.png`); heat maps of earlier checks that no longer apply are
/// removed. A mismatch is a report, not an error: errors are for what cannot be checked.
public struct GoldenChecker: Sendable {
    public let options: GoldenCheckOptions

    public init(options: GoldenCheckOptions) {
        self.options = options
    }

    /// Throws the option error `check` would for `tolerance` on the golden in `golden`, before
    /// any decoding (so a command line can report it as a usage error). A golden that cannot
    /// be read passes here: `check` reports it.
    public static func validate(tolerance: GoldenTolerance?, golden: String) throws {
        guard tolerance != nil, let manifest = try? GoldenFolder(path: golden).readManifest() else { return }
        _ = try GoldenTolerance.effective(stored: manifest.tolerance, requested: tolerance, golden: GoldenFolder(path: golden).path)
    }

    public func check() throws -> GoldenCheckReport {
        let folder = GoldenFolder(path: options.golden)
        let manifest = try folder.readManifest()
        let tolerance = try GoldenTolerance.effective(stored: manifest.tolerance, requested: options.tolerance,
                                                      golden: folder.path)
        let decoded = try DecodedFrames(path: options.video, threads: options.threads)
        var comparison = FrameComparison(manifest: manifest, folder: folder, tolerance: tolerance, videoTimeBase: decoded.timeBase)
        while let frame = try decoded.next() {
            try comparison.compare(frame, index: decoded.count - 1, decoded: decoded)
        }
        comparison.compareCount(decoded.count)
        let note = comparison.compareTimeBase()
        folder.removeStale("diff", keeping: comparison.diffFrames)
        return GoldenCheckReport(golden: folder.path, video: options.video, mode: manifest.mode, tolerance: tolerance,
                                 expectedFrames: manifest.frames.count, frames: decoded.count,
                                 differences: comparison.differences, scores: comparison.scores,
                                 diffImages: comparison.diffFrames.sorted().map(folder.diffPath), note: note)
    }
}

/// The running comparison of one check: what differs so far, the reference scores, and the
/// heat maps written.
struct FrameComparison {
    let manifest: GoldenManifest
    let folder: GoldenFolder
    let tolerance: GoldenTolerance?
    let videoTimeBase: Rational
    private let references: Set<Int>
    private(set) var differences: [GoldenDifference] = []
    private(set) var scores: [ReferenceScore] = []
    private(set) var diffFrames: Set<Int> = []
    private var picture = RGBImage(width: 0, height: 0)
    private let metrics = PictureMetrics()

    init(manifest: GoldenManifest, folder: GoldenFolder, tolerance: GoldenTolerance?, videoTimeBase: Rational) {
        self.manifest = manifest
        self.folder = folder
        self.tolerance = tolerance
        self.videoTimeBase = videoTimeBase
        references = Set(manifest.references)
    }

    /// Frame `index` of the video against the golden's line and, for a reference frame, its PNG.
    mutating func compare(_ frame: Frame, index: Int, decoded: DecodedFrames) throws {
        guard index < manifest.frames.count else { return }   // extra frames: counted at the end
        let expected = manifest.frames[index]
        let got = try decoded.describe(frame, index: index)
        compareLine(expected, got)
        let hashDiffers = manifest.tolerance == nil && got.md5 != expected.md5
        if hashDiffers { add(index, "md5", expected.md5, got.md5) }
        // An exact golden's pictures are looked at only to show where a hash mismatch is.
        guard references.contains(index), manifest.tolerance != nil || hashDiffers else { return }
        try decoded.picture(of: frame, into: &picture)
        try comparePicture(index)
    }

    /// Size, pixel format and timing: compared in every mode.
    private mutating func compareLine(_ expected: GoldenFrame, _ got: GoldenFrame) {
        let index = expected.index
        if got.size != expected.size { add(index, "size", expected.size, got.size) }
        if got.pixelFormat != expected.pixelFormat { add(index, "pix_fmt", expected.pixelFormat, got.pixelFormat) }
        // Times in seconds: the two containers may count in different time bases.
        if !sameTime(expected.pts, got.pts) {
            add(index, "pts", Self.seconds(expected.pts, manifest.timeBase), Self.seconds(got.pts, videoTimeBase))
        }
        if !sameTime(expected.duration, got.duration) {
            add(index, "duration", Self.seconds(expected.duration, manifest.timeBase), Self.seconds(got.duration, videoTimeBase))
        }
    }

    /// The reference PNG of frame `index` against `picture`: scored, and a heat map written
    /// when it fails.
    private mutating func comparePicture(_ index: Int) throws {
        let reference = try PNGReader.read(folder.referencePath(index))
        guard reference.width == picture.width, reference.height == picture.height else {
            add(index, "reference size", "\(reference.width)x\(reference.height)", "\(picture.width)x\(picture.height)")
            return
        }
        let score = ReferenceScore(frame: index, psnr: metrics.psnr(reference, picture), ssim: metrics.ssim(reference, picture))
        scores.append(score)
        switch tolerance {
        case nil:
            add(index, "picture", GoldenFolder.name("frame", index),
                "psnr \(GoldenCheckReport.decibels(score.psnr)), ssim \(GoldenCheckReport.index(score.ssim))")
        case .psnr(let decibels)? where score.psnr < decibels:
            add(index, "psnr", ">= \(GoldenCheckReport.decibels(decibels))", GoldenCheckReport.decibels(score.psnr))
        case .ssim(let threshold)? where score.ssim < threshold:
            add(index, "ssim", ">= \(GoldenCheckReport.index(threshold))", GoldenCheckReport.index(score.ssim))
        default:
            return
        }
        try PNGWriter.write(HeatMap.render(expected: reference, got: picture), to: folder.diffPath(index))
        diffFrames.insert(index)
    }

    /// The video's time base against the golden's, once every frame is compared: a difference
    /// row beside frames whose times differ, else only a note (another container counting the
    /// same times in other units is no difference in the video).
    mutating func compareTimeBase() -> String? {
        guard videoTimeBase != manifest.timeBase else { return nil }
        let bases = (expected: Self.text(manifest.timeBase), got: Self.text(videoTimeBase))
        if differences.contains(where: { $0.what == "pts" || $0.what == "duration" }) {
            differences.insert(GoldenDifference(frame: nil, what: "time base", expected: bases.expected, got: bases.got), at: 0)
            return nil
        }
        return "only the container's time base differs (\(bases.got), the golden's \(bases.expected)): "
            + "every frame's time matches, to the coarser one's tick"
    }

    /// `ticks` of `base` as seconds ("0.7 s", "0.033333 s"), or "nopts".
    static func seconds(_ ticks: Int64?, _ base: Rational) -> String {
        guard let ticks else { return "nopts" }
        var text = String(format: "%.6f", Double(ticks) * base.doubleValue)
        while text.hasSuffix("0"), !text.hasSuffix(".0") { text.removeLast() }
        return text + " s"
    }

    /// Frames missing or extra, once the video is read.
    mutating func compareCount(_ count: Int) {
        let expected = manifest.frames.count
        guard count != expected else { return }
        let range = count < expected ? "frames \(count)-\(expected - 1) missing" : "frames \(expected)-\(count - 1) extra"
        differences.append(GoldenDifference(frame: nil, what: "frames", expected: String(expected), got: "\(count) (\(range))"))
    }

    /// Timestamps in the golden's and the video's time bases, compared as times.
    private func sameTime(_ expected: Int64?, _ got: Int64?) -> Bool {
        guard let expected, let got else { return expected == got }
        let scale = manifest.timeBase, own = videoTimeBase
        if scale == own { return expected == got }
        // Another container counts in other units, and one too coarse for the other's times
        // rounds them (Matroska's milliseconds hold 1/30 s as 33 or 34): the same time is one
        // within half a tick of the coarser time base.
        let tick = Swift.max(scale.doubleValue, own.doubleValue)
        return abs(Double(expected) * scale.doubleValue - Double(got) * own.doubleValue) <= tick / 2 + 1e-12
    }

    private mutating func add(_ frame: Int, _ what: String, _ expected: String, _ got: String) {
        differences.append(GoldenDifference(frame: frame, what: what, expected: expected, got: got))
    }

    private static func text(_ base: Rational) -> String { "\(base.numerator)/\(base.denominator)" }
}
