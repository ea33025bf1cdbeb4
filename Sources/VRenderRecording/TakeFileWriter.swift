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
}

/// What a take's writer is opened for.
struct TakeFileRequest: Sendable {
    var directory: String
    /// The take's number in its folder (`TakesFolder.nextTakeNumber(in:)` and on).
    var number: Int
    var format: NegotiatedFormat
    var codec: VideoCodecChoice
    /// A live source: the encoder must keep up in real time.
    var live: Bool
    /// Per frame: time in the encoder, and writing its packets and thumbnail (nil: not timed).
    var encodeTimer: StageTimer? = nil
    var writeTimer: StageTimer? = nil
}

/// Opens the writer for each take, on the writer thread.
typealias TakeWriterFactory = @Sendable (TakeFileRequest) throws -> any TakeFileWriter

extension SegmentWriter: TakeFileWriter {
    /// The production factory: an encoded, fragmented .mov per take.
    static let factory: TakeWriterFactory = { request in
        try SegmentWriter(directory: request.directory, number: request.number, format: request.format,
                          codec: request.codec, live: request.live,
                          timers: (encode: request.encodeTimer, write: request.writeTimer))
    }
}
