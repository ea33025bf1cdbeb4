import VRenderCore
import VRenderMedia

/// The decoded frames of a video as an export's process stage sees them: a frame that already
/// is the picture (size, 8-bit 4:2:0, upright, colours) is handed on as it is; any other is
/// normalized (scaled, turned upright, converted) into one reused picture of the bench's size.
/// Confined to one thread.
final class InputFrames {
    let size: (width: Int, height: Int)
    private let path: String
    private let info: MediaInfo
    private let demuxer: Demuxer
    private let decoder: Decoder
    private let normalizer: FrameNormalizer
    private let canvas: Frame
    private let decodeTimer: StageTimer
    private let normalizeTimer: StageTimer

    /// Opens `path` (errors name it). `size`: the pictures' size; nil takes the video's upright
    /// size, rounded down to even sides.
    init(path: String, size: (width: Int, height: Int)?, timings: StageTimings) throws {
        self.path = path
        let info = try Probe.probe(path)
        self.info = info
        let upright = info.video.uprightSize
        self.size = size ?? (upright.width & ~1, upright.height & ~1)
        (demuxer, decoder) = try VRenderError.attributing(to: path, as: .input) {
            let demuxer = try Demuxer(path: path)
            return (demuxer, try Decoder(demuxer: demuxer, streamIndex: info.video.index))
        }
        // One input: its pictures keep their own colours, as an export of it alone would.
        normalizer = FrameNormalizer(canvasWidth: self.size.width, canvasHeight: self.size.height,
                                     target: info.video.resolvedColour)
        canvas = try Frame.picture(width: self.size.width, height: self.size.height)
        try canvas.makeWritable()
        decodeTimer = timings.timer("decode")
        normalizeTimer = timings.timer("normalize")
    }

    /// Hands each of the first `limit` pictures to `body`. Returns how many it handed (fewer
    /// when the video is shorter).
    func forEach(limit: Int, _ body: (Frame) throws -> Void) throws -> Int {
        var handed = 0
        let shell = Frame()
        func accept(_ decoded: Frame) throws {
            guard handed < limit else { return }  // decoding on past the limit is other time
            decodeTimer.frameDone()
            defer { decodeTimer.begin() }
            let (orientation, aspect, colour) = (info.video.orientation, info.video.sampleAspect, info.video.resolvedColour)
            if normalizer.isCanvasReady(decoded, orientation: orientation, sampleAspect: aspect, colour: colour) {
                try body(decoded)
            } else {
                try normalizeTimer.measureFrame {
                    try normalizer.normalize(decoded, orientation: orientation, sampleAspect: aspect, colour: colour, into: canvas)
                }
                try body(canvas)
            }
            handed += 1
        }
        let makeFrame = { shell.unref(); return shell }
        let packet = Packet()
        try VRenderError.attributing(to: path, as: .input) {
            while handed < limit, demuxer.read(into: packet) {
                guard packet.streamIndex == info.video.index else { continue }
                decodeTimer.begin()
                try decoder.decode(packet, makeFrame: makeFrame, output: accept)
                decodeTimer.pause()
            }
            if handed < limit {
                decodeTimer.begin()
                try decoder.decode(nil, makeFrame: makeFrame, output: accept)
            }
            decodeTimer.otherDone()
        }
        return handed
    }
}

/// A deterministic picture with detail in every plane, for filtering without an input: luma
/// ramps across with a fine checker over it, chroma ramps down and across.
enum SyntheticPicture {
    static func make(width: Int, height: Int) throws -> Frame {
        let frame = try Frame.picture(width: width, height: height)
        try frame.makeWritable()
        let picture = frame.yuvImage()
        for y in 0..<picture.luma.height {
            let row = picture.luma.row(y)
            for x in 0..<picture.luma.width {
                row[x] = UInt8(16 + (x * 219 / Swift.max(1, width - 1) + ((x / 4 + y / 4) % 2) * 12) % 220)
            }
        }
        for y in 0..<picture.cb.height {
            let cb = picture.cb.row(y), cr = picture.cr.row(y)
            for x in 0..<picture.cb.width {
                cb[x] = UInt8(16 + y * 224 / Swift.max(1, picture.cb.height - 1) % 225)
                cr[x] = UInt8(16 + x * 224 / Swift.max(1, picture.cb.width - 1) % 225)
            }
        }
        return frame
    }
}
