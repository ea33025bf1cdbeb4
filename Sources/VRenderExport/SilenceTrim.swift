import Foundation
import VRenderCore
import VRenderMedia

/// `--trim-silence [DB[:MARGIN]]` and `--cut-pauses T`: each take's leading and trailing
/// silence cut, and with `pause` its pauses longer than that, measured on its own sound
/// (`SoundLevels`). `margin` seconds of quiet are kept next to the sound on each side of every
/// cut, and cuts fall on the take's frame boundaries, so that its pictures and its sound are
/// cut at the same instants.
public struct SilenceTrimRequest: Sendable, Equatable {
    /// Sound below this peak level (dBFS) is silence.
    public var threshold: Double
    /// Quiet kept beside the sound at every cut (seconds).
    public var margin: Double
    /// Pauses longer than this (seconds) inside a take are cut too; nil: only its ends.
    public var pause: Double?

    public init(threshold: Double = -40, margin: Double = 0.25, pause: Double? = nil) {
        self.threshold = threshold
        self.margin = margin
        self.pause = pause
    }

    /// The level of a `--trim-silence` value (`-40`, `-40dB`, `-40dBFS`; before any `:MARGIN`),
    /// in range or not; nil when it is no number.
    public static func level(_ text: String) -> Double? {
        let level = text.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
        return Double(level.lowercased().replacingOccurrences(of: "dbfs", with: "").replacingOccurrences(of: "db", with: ""))
    }

    /// Parses `--trim-silence`'s value: `DB[:MARGIN]` ("-40", "-35:0.1", "-40:250ms"); empty
    /// gives the defaults. Throws naming the option.
    public static func parse(_ text: String, pause: Double?) throws -> SilenceTrimRequest {
        var request = SilenceTrimRequest(pause: pause)
        guard !text.isEmpty else { return request }
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        guard let threshold = level(parts[0]), (-120...0).contains(threshold) else {
            throw VRenderError.option("--trim-silence", "'\(parts[0])' is not a level in dBFS from -120 to 0 (e.g. -40)")
        }
        request.threshold = threshold
        if parts.count == 2 {
            guard let margin = ValueSyntax.seconds(parts[1]), margin <= 10 else {
                throw VRenderError.option("--trim-silence", "margin '\(parts[1])' is not a time up to 10 s (e.g. 0.25 or 250ms)")
            }
            request.margin = margin
        }
        return request
    }
}

/// Where silence trimming cuts one take: pure arithmetic over its sound's levels.
enum SilenceCuts {
    /// The parts of `part` (seconds from the take's first picture) to keep, given the take's
    /// peak per `window` seconds from its first picture. A take with no sound above the
    /// threshold is kept whole. Every part starts and ends on the frame grid of `frameRate`.
    static func keep(peaks: [Float], window: Double, within part: Range<Double>, frameRate: Double,
                     request: SilenceTrimRequest) -> [Range<Double>] {
        let level = Float(pow(10, request.threshold / 20))
        let first = Swift.max(0, Int((part.lowerBound / window).rounded(.down)))
        let last = Swift.min(peaks.count, Int((part.upperBound / window).rounded(.up)))
        guard first < last, let loudFirst = (first..<last).first(where: { peaks[$0] > level }),
              let loudLast = (first..<last).last(where: { peaks[$0] > level }) else { return [part] }
        // Runs of sound separated by pauses longer than `pause`.
        var runs: [(start: Int, end: Int)] = [(loudFirst, loudLast + 1)]
        if let pause = request.pause {
            runs = []
            var runStart = loudFirst
            var quietSince: Int?
            for index in loudFirst...loudLast {
                if peaks[index] > level {
                    if let quiet = quietSince, Double(index - quiet) * window > pause {
                        runs.append((runStart, quiet))
                        runStart = index
                    }
                    quietSince = nil
                } else if quietSince == nil {
                    quietSince = index
                }
            }
            runs.append((runStart, loudLast + 1))
        }
        let grid = { (seconds: Double) in (seconds * frameRate).rounded() / frameRate }
        var kept: [Range<Double>] = []
        for run in runs {
            let start = grid(Swift.max(part.lowerBound, Double(run.start) * window - request.margin))
            let end = grid(Swift.min(part.upperBound, Double(run.end) * window + request.margin))
            guard end > start else { continue }
            if let previous = kept.last, start <= previous.upperBound {
                kept[kept.count - 1] = previous.lowerBound..<Swift.max(previous.upperBound, end)
            } else {
                kept.append(start..<end)
            }
        }
        return kept.isEmpty ? [part] : kept
    }

    /// What was cut of `part` to keep `kept`, for the plan: "0.000–0.850", ...
    static func cuts(of part: Range<Double>, keeping kept: [Range<Double>]) -> [Range<Double>] {
        var cuts: [Range<Double>] = []
        var position = part.lowerBound
        for piece in kept {
            if piece.lowerBound > position + 1e-6 { cuts.append(position..<piece.lowerBound) }
            position = piece.upperBound
        }
        if part.upperBound > position + 1e-6 { cuts.append(position..<part.upperBound) }
        return cuts
    }

    /// The parts of take `info` (as probed, untrimmed) that silence trimming keeps of `parts`
    /// (seconds from its first picture: its trim, less any retakes cut), and the plan's line
    /// about it (nil when nothing was cut). A take without sound is kept whole.
    static func apply(_ request: SilenceTrimRequest, to info: MediaInfo, parts: [Range<Double>], number: Int,
                      audioTrack: Int?) throws -> (parts: [Range<Double>], note: String?) {
        let tracks = info.audioTracks
        guard !tracks.isEmpty else { return (parts, "silence: take \(number) has no sound: kept whole") }
        let track = tracks[Swift.min(Swift.max((audioTrack ?? 1) - 1, 0), tracks.count - 1)]
        let peaks = try SoundLevels.windowPeaks(path: info.path, stream: track.index, from: info.video.startTime)
        var kept: [Range<Double>] = []
        var cuts: [Range<Double>] = []
        for part in parts {
            let keptHere = keep(peaks: peaks, window: SoundLevels.windowSeconds, within: part,
                                frameRate: info.video.frameRate.doubleValue, request: request)
            kept += keptHere
            cuts += self.cuts(of: part, keeping: keptHere)
        }
        guard !cuts.isEmpty else { return (parts, nil) }
        let text = cuts.map { "\(TakeTrim.text($0.lowerBound))–\(TakeTrim.text($0.upperBound))" }.joined(separator: ", ")
        let total = cuts.reduce(0) { $0 + $1.upperBound - $1.lowerBound }
        return (kept, "silence: take \(number) cut \(text) s (\(String(format: "%.2f", total)) s)")
    }
}
