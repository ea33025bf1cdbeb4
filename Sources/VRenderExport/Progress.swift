import Foundation
import Synchronization
import VRenderCore
import VRenderMedia

/// A snapshot of a running export, delivered to the progress reporter.
public struct ExportProgress: Sendable {
    public var framesDone: Int
    public var framesTotal: Int
    /// Seconds of output written so far.
    public var outputSeconds: Double
    public var elapsed: Double
    public var finished: Bool
    /// When the first frame was done (`elapsed` then) and how many were: the rate is measured
    /// from there, not from the start, whose opening of files and codecs is no frame's work
    /// (counted from the start, a 0.8 s job's first report read 3 fps and 56 s left).
    public var firstFrame: (elapsed: Double, frames: Int)? = nil

    public init(framesDone: Int, framesTotal: Int, outputSeconds: Double, elapsed: Double, finished: Bool,
                firstFrame: (elapsed: Double, frames: Int)? = nil) {
        self.framesDone = framesDone
        self.framesTotal = framesTotal
        self.outputSeconds = outputSeconds
        self.elapsed = elapsed
        self.finished = finished
        self.firstFrame = firstFrame
    }

    /// Least time since the first frame over which a rate is given.
    public static let rateWindow = 0.5

    /// Frames a second since the first frame; 0 while that is under `rateWindow` (at the end:
    /// over the whole run).
    public var fps: Double {
        if let first = firstFrame, elapsed - first.elapsed >= Self.rateWindow, framesDone > first.frames {
            return Double(framesDone - first.frames) / (elapsed - first.elapsed)
        }
        return finished && elapsed > 0 ? Double(framesDone) / elapsed : 0
    }
    /// Output seconds per wall second (ffmpeg's "speed"), at the rate `fps` gives.
    public var speed: Double { framesDone > 0 ? fps * outputSeconds / Double(framesDone) : 0 }
    /// Estimated seconds left, nil before the rate is known.
    public var eta: Double? {
        guard framesDone > 0, fps > 0 else { return nil }
        return Double(framesTotal - framesDone) / fps
    }
}

/// What an export did, for the final line and `--json`.
public struct ExportSummary: Sendable, Codable {
    public var output: String
    public var mode: String
    public var reason: String
    /// One entry per timeline piece: a take, or each piece of a take cut apart (`inputTakes`).
    public var inputs: [String]
    /// The takes as the user counts them: a take cut into pieces by `--cut-pauses` or
    /// `--cut-retakes` counts once (nil only in summaries written before it existed).
    public var takes: Int? = nil
    /// The take (1-based) each `inputs` entry was cut from; nil when no take was cut into pieces.
    public var inputTakes: [Int]? = nil
    public var width: Int
    public var height: Int
    public var frameRate: String
    public var videoCodec: String
    public var audioCodec: String?
    public var filters: [String]
    /// Where the filters ran: "cpu" or "vulkan: <device>"; nil when nothing was filtered.
    public var filterBackend: String?
    public var duration: Double
    public var frames: Int
    public var bytes: Int
    public var wallSeconds: Double
    /// Seconds spent before writing: resolving, probing and planning the inputs (and any
    /// `--loudness` measuring); nil when the plan was made elsewhere (`run` alone, a chunk).
    public var planSeconds: Double? = nil
    /// Packets or frames the decoders rejected or flagged as damaged, or whose damaged
    /// timestamp was replaced (`PresentationCheck`), per input path.
    public var damagedFrames: [String: Int]
    public var warnings: [String]
    /// The plan's choices a user should know of (dropped tracks, tone mapping, order, ...).
    public var notices: [String]
    /// The output's colour description (primaries/transfer/matrix range); nil when the video is
    /// copied, which keeps the takes' own.
    public var colour: String?
    /// Rotation stored as metadata, as ffprobe shows it (0: none; pixels are upright).
    public var rotation: Int
    public var audioTracks: Int
    /// Each input's in and out points (trims, silence cuts), one per `inputs` entry; nil when
    /// every take was used whole.
    public var trims: [TakeTrim?]? = nil
    /// `--loudness`: the target, each track's measured loudness, true peak and gain, and how
    /// long measuring took; nil when not asked or the export has no sound.
    public var loudness: LoudnessPlan? = nil
    /// `--stabilize`: what was done (nil without it).
    public var stabilize: StabilizeSummary? = nil
    /// The transitions at the joins (`--transition`); nil: cuts.
    public var transition: TransitionPlan? = nil
    /// `--captions`: what was written (nil without it).
    public var captions: CaptionSummary? = nil
    /// A smart render's spans, copied and re-encoded, in timeline order (nil: none).
    public var smartSpans: [SmartSpan]? = nil
}

/// `--captions` in the summary: how many cues, where they went.
public struct CaptionSummary: Sendable, Codable, Equatable {
    public var cues: Int
    /// ISO 639-2; empty when not known.
    public var language: String
    /// The caption files written beside the output.
    public var files: [String]
    /// True when the output has the captions as a subtitle stream, and when they are drawn in.
    public var track: Bool
    public var burned: Bool
}

/// `--stabilize` in the summary: the plan's smoothing and zoom, and what the corrections were.
public struct StabilizeSummary: Sendable, Codable, Equatable {
    public var strength: Double
    public var radiusFrames: Int
    public var zoomPercent: Double
    /// Takes stabilized in this run.
    public var takes: Int
    /// Frames warped in this run, and their mean correction (pixels of the take's picture);
    /// nil for the join of a chunked export, whose chunks did the warping.
    public var framesWarped: Int?
    public var meanCorrection: Double?
}

/// Calls a reporter at most every `interval` seconds (and always for the final snapshot), so
/// per-frame progress costs a clock read, not terminal output. Also what a chunked export's
/// progress (frames done over all its chunks) is reported through.
package final class ProgressThrottle: Sendable {
    private let report: @Sendable (ExportProgress) -> Void
    private let interval: Double
    private let startNanoseconds = MonotonicClock.now()
    /// Seconds since the start at the last report.
    private let lastReport = Mutex(-Double.infinity)
    private let total: Int
    private let frameRate: Double
    /// The frames counted at the final snapshot (0 before it): what a video copy wrote, which
    /// for a variable-frame-rate take is not its timeline's slot count.
    private let finalCount = Mutex(0)
    /// When frames were first counted, and how many (`ExportProgress.firstFrame`).
    private let firstFrame = Mutex<(elapsed: Double, frames: Int)?>(nil)
    /// Frames done before this run (a resumed chunked export's chunks): counted as done, but
    /// not towards the rate.
    private let alreadyDone: Int
    var framesFinished: Int { finalCount.withLock { $0 } }

    package init(total: Int, frameRate: Double, interval: Double = 0.25, alreadyDone: Int = 0,
                report: @escaping @Sendable (ExportProgress) -> Void) {
        self.total = total
        self.alreadyDone = alreadyDone
        self.frameRate = frameRate
        self.interval = interval
        self.report = report
    }

    private var elapsed: Double { MonotonicClock.seconds(since: startNanoseconds) }

    /// Called by the stage that counts frames (one thread; any thread would be safe).
    package func update(framesDone: Int, finished: Bool = false) {
        if finished { finalCount.withLock { $0 = framesDone } }
        let now = elapsed
        let first = firstFrame.withLock { first in
            if first == nil, framesDone > alreadyDone { first = (now, framesDone) }
            return first
        }
        let due = lastReport.withLock { last in
            guard finished || now - last >= interval else { return false }
            last = now
            return true
        }
        guard due else { return }
        report(ExportProgress(framesDone: framesDone, framesTotal: total, outputSeconds: Double(framesDone) / frameRate,
                              elapsed: now, finished: finished, firstFrame: first))
    }
}
