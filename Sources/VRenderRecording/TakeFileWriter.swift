import Foundation
import VRenderCapture
import VRenderCore
import VRenderMedia
import VRenderTakes

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
