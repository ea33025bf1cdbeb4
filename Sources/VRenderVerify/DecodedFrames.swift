import VRenderCore
import VRenderImaging
import VRenderMedia

/// The decoded pictures of a video's first video stream, one at a time, in presentation
/// order, with a fixed number of decoder threads. Pulled (`next()`), so two videos can be read
/// side by side. Frame shells are reused: the frame `next()` returns is valid until the
/// following call. Confined to one thread.
final class DecodedFrames {
    let path: String
    /// Time base of the frames' `pts` and `duration`.
    let timeBase: Rational
    /// Frames handed out so far.
    private(set) var count = 0

    private let demuxer: Demuxer
    private let decoder: Decoder
    private let packet = Packet()
    /// Decoded, not yet handed out (the codec may return several for one packet).
    private var ready: [Frame] = []
    /// Emptied shells to decode into.
    private var spare: [Frame] = []
    private var current: Frame?
    private var flushed = false
    private let digest = MD5Digest()
    private let converter = Thumbnailer()

    /// Opens `path`. Every problem (missing, not a video, no video stream) is an input error
    /// naming it, as `vrender concat` reports it.
    init(path: String, threads: Int) throws {
        _ = try Probe.probe(path)
        self.path = path
        let opened = try VRenderError.attributing(to: path, as: .input) { try Demuxer(path: path) }
        guard let stream = opened.firstVideoStreamIndex else { throw VRenderError.input(path, "no video stream") }
        demuxer = opened
        decoder = try VRenderError.attributing(to: path, as: .input) {
            try Decoder(demuxer: opened, streamIndex: stream, threads: threads)
        }
        timeBase = decoder.timeBase
    }

    /// The next picture, or nil after the last.
    func next() throws -> Frame? {
        if let current {
            current.unref()
            spare.append(current)
            self.current = nil
        }
        while ready.isEmpty && !flushed {
            try VRenderError.attributing(to: path, as: .input) {
                if demuxer.read(into: packet) {
                    guard packet.streamIndex == decoder.streamIndex else { return }
                    try decoder.decode(packet, makeFrame: makeShell) { ready.append($0) }
                } else {
                    try decoder.decode(nil, makeFrame: makeShell) { ready.append($0) }
                    flushed = true
                }
            }
        }
        guard !ready.isEmpty else { return nil }
        let frame = ready.removeFirst()
        current = frame
        count += 1
        return frame
    }

    private func makeShell() -> Frame { spare.popLast() ?? Frame() }

    /// `frame` as a frames.txt line: timing, size, pixel format and the framemd5 hash.
    func describe(_ frame: Frame, index: Int) throws -> GoldenFrame {
        GoldenFrame(index: index, pts: frame.presentationTimestamp, duration: frame.duration, width: frame.width,
                    height: frame.height, pixelFormat: frame.formatName, md5: try frame.packedPlanesMD5(using: digest))
    }

    /// `frame` in RGB as golden references are made, into `image` (reused when its size fits).
    func picture(of frame: Frame, into image: inout RGBImage) throws {
        try VRenderError.attributing(to: path, as: .runtime) { try converter.fullSizePicture(of: frame, into: &image) }
    }
}
