import Foundation
import VRenderCapture
import VRenderCore
import VRenderMedia

/// Where the writer thread puts one take's frames: a `SegmentWriter` (an encoded .mov and its
/// thumbnail) in production. Tests inject their own, e.g. one slower than capture, to show
/// what a live capture does when its encoder cannot keep up. Confined to the writer thread.
protocol TakeFileWriter: AnyObject {
    /// The take's file name in its folder, for `takes.json`.
    var fileName: String { get }
    /// The thumbnail's file name, if the writer makes one.
    var thumbnailName: String? { get }
    /// Frames written so far.
    var frames: Int { get }
    /// The encoder's name, for `takes.json`.
    var codecName: String { get }

    func write(_ frame: Frame, info: CapturedFrameInfo) throws
    /// Completes the file. Returns the take's duration in seconds.
    func finish() throws -> Double
    /// After a failed write: leaves the file holding what was written whole, so it plays.
    /// False when nothing can be kept.
    func salvage() -> Bool
    /// The take's sound so far (nil: a silent take).
    var soundSummary: (rate: Int, channels: Int, peakDBFS: Double, missingMilliseconds: Double)? { get }
}

extension TakeFileWriter {
    /// Writers that keep nothing on failure (tests' fakes).
    func salvage() -> Bool { false }
    /// Writers without sound (tests' fakes).
    var soundSummary: (rate: Int, channels: Int, peakDBFS: Double, missingMilliseconds: Double)? { nil }
}

/// What a take's writer is opened for.
struct TakeFileRequest: Sendable {
    var directory: String
    /// The take's number in its folder (`TakesFolder.nextTakeNumber(in:)` and on).
    var number: Int
    var format: NegotiatedFormat
    var codec: VideoCodecChoice
    /// The camera's name, kept in the file's tags (`TakeFileTags`) for `takes recover`.
    var device: String = ""
    /// A live source: the encoder must keep up in real time.
    var live: Bool
    /// Per frame: time in the encoder, and writing its packets and thumbnail (nil: not timed).
    var encodeTimer: StageTimer? = nil
    var writeTimer: StageTimer? = nil
    /// The microphone's sound on the capture clock (nil: silent takes).
    var sound: AudioTimeline? = nil
}

/// Opens the writer for each take, on the writer thread.
typealias TakeWriterFactory = @Sendable (TakeFileRequest) throws -> any TakeFileWriter

extension SegmentWriter: TakeFileWriter {
    /// The production factory: an encoded, fragmented .mov per take.
    static let factory: TakeWriterFactory = { request in
        try SegmentWriter(directory: request.directory, number: request.number, format: request.format,
                          codec: request.codec, live: request.live, sound: request.sound,
                          tags: { encoder in TakeFileTags.tags(device: request.device, frameRate: request.format.frameRate,
                                                               encoder: encoder, created: Date()) },
                          timers: (encode: request.encodeTimer, write: request.writeTimer))
    }
}

/// What a take's file says about itself, in container tags written with its header, so that
/// `takes recover` can rebuild a take's entry when `takes.json` is lost: when it started
/// (`creation_time`), and in `comment` ("vrender take; fps=30; encoder=libx264; device=NAME",
/// the device last as it may hold anything) the nominal rate (a take with dropped frames
/// averages less), the encoder and the camera.
public enum TakeFileTags {
    static let commentPrefix = "vrender take; "

    static func tags(device: String, frameRate: Rational, encoder: String, created: Date) -> [String: String] {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let comment = commentPrefix + "fps=\(frameRate); encoder=\(encoder); device=\(device)"
        return ["creation_time": formatter.string(from: created), "comment": comment]
    }

    /// A field of a take's `comment` tag ("fps", "encoder", "device"); nil when the tag is not
    /// vrender's or lacks the field.
    public static func field(_ name: String, inComment comment: String?) -> String? {
        guard let comment, comment.hasPrefix(commentPrefix) else { return nil }
        var rest = Substring(comment.dropFirst(commentPrefix.count))
        while !rest.isEmpty {
            guard let equals = rest.firstIndex(of: "=") else { return nil }
            let key = rest[..<equals]
            let value = rest[rest.index(after: equals)...]
            // The device is last and may contain "; ": it runs to the end.
            if key == "device" { return name == "device" ? String(value) : nil }
            let end = value.range(of: "; ")
            if key == name { return String(value[..<(end?.lowerBound ?? value.endIndex)]) }
            guard let end else { return nil }
            rest = value[end.upperBound...]
        }
        return nil
    }
}

/// How a take's file is laid out: fragmented QuickTime, an empty `moov` first and fragments
/// after, so a file cut short still plays up to its last whole fragment. One home for what
/// `SegmentWriter` writes and `takes recover` writes in place of an unfinished take.
enum TakeFileLayout {
    /// While recording: a fragment wherever the writer ends one (`Muxer.flushFragment`), every
    /// quarter second, rather than at keyframes only.
    static let recordingHeaderOptions = ["movflags": "frag_custom+empty_moov+default_base_moof"]
    /// A finished copy (recovery): a fragment per keyframe, which needs no flushing by hand.
    static let copyHeaderOptions = ["movflags": "frag_keyframe+empty_moov+default_base_moof"]
    /// Thumbnail width in pixels (the height follows the picture's shape).
    static let thumbnailWidth = 320
}
