import VRenderCore

/// A take's in and out points: the part of it an export uses, in seconds from the take's first
/// picture (whatever time its file gives that picture). Non-destructive: the file is never
/// touched; takes.json (`vrender takes trim`) carries them to the export, and a concat list's
/// `inpoint`/`outpoint`, which are on the file's own clock as FFmpeg reads them, become one
/// once the file is probed (`ConcatList.Entry.trim(of:)`).
///
/// The first picture used is the one shown at `start` (the nearest frame), the last the one
/// before `end` (`end` itself is left out, as FFmpeg's `outpoint`), and the sound is cut at the
/// same two instants.
public struct TakeTrim: Sendable, Codable, Equatable, CustomStringConvertible {
    /// Seconds from the take's first picture to the first picture used.
    public var start: Double
    /// Seconds from the take's first picture to the end of the part used; nil: the take's end.
    public var end: Double?

    enum CodingKeys: String, CodingKey {
        case start = "in", end = "out"
    }

    public init(start: Double, end: Double?) {
        self.start = start
        self.end = end
    }

    /// Why this trim is impossible on its own (before the take's length is known), or nil.
    public var refusal: String? {
        guard start.isFinite, start >= 0 else { return "its in point \(start) is not a time" }
        if let end {
            guard end.isFinite else { return "its out point \(end) is not a time" }
            guard end > start else { return "its out point (\(Self.text(end)) s) is not after its in point (\(Self.text(start)) s)" }
        }
        return nil
    }

    /// Seconds of a take lasting `duration` that the trim uses (an out point past the end is
    /// the end).
    public func length(ofTakeLasting duration: Double) -> Double {
        Swift.max(0, Swift.min(end ?? duration, duration) - start)
    }

    /// "1.500–4.000 s", "from 1.500 s".
    public var description: String {
        end.map { "\(Self.text(start))–\(Self.text($0)) s" } ?? "from \(Self.text(start)) s"
    }

    /// Seconds as trims print them: "1.500".
    public static func text(_ seconds: Double) -> String {
        let milliseconds = (seconds * 1000).rounded()
        return String(format: "%.3f", milliseconds == 0 ? 0 : milliseconds / 1000)   // never "-0.000"
    }
}

extension MediaInfo {
    /// The take as an export sees it with `trim` applied: its video starts `trim.start` later and
    /// lasts to `trim.end`, so that everything that measures a take from `video.startTime` for
    /// `duration` (the timeline, the reader, the audio fitting, the copy's retiming) uses the
    /// trimmed part. Refused, naming the file, when the trim leaves no frame or starts past the end.
    public func trimmed(_ trim: TakeTrim) throws -> MediaInfo {
        if let refusal = trim.refusal { throw VRenderError.input(path, "cannot be trimmed: \(refusal)") }
        let frame = 1 / video.frameRate.doubleValue
        let length = trim.length(ofTakeLasting: video.duration)
        guard length >= frame / 2 else {
            throw VRenderError.input(path, "cannot be trimmed to \(trim): it lasts \(TakeTrim.text(video.duration)) s, "
                                     + "so the trim leaves no frame")
        }
        var trimmed = self
        trimmed.video.startTime += trim.start
        trimmed.video.duration = length
        trimmed.trim = TakeTrim(start: trim.start, end: trim.end.map { _ in trim.start + length })
        return trimmed
    }

    /// Where the take's video starts in its file, before any trim.
    public var fileVideoStart: Double { video.startTime - (trim?.start ?? 0) }
}
