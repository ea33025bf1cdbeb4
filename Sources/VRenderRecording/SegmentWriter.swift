import Foundation
import VRenderCapture
import VRenderCore
import VRenderImaging
import VRenderMedia

/// Encodes one take into `segment_<NNNN>_<UUID>.mov` (see `TakesFolder+Numbering.swift` for
/// why the number), written fragmented (a fragment per keyframe,
/// one per second) so that a take whose process is killed still plays up to its last fragment,
/// plus a PNG thumbnail of the frame at 0.05 s. Confined to the writer thread.
final class SegmentWriter {
    let fileName: String
    let thumbnailName: String?
    private let thumbnailPath: String
    private let muxer: Muxer
    private let encoder: Encoder
    private let stream: Int
    private let frameRate: Rational
    private var firstTime: Double?
    private var lastPts: Int64 = -1
    private(set) var frames = 0
    private var thumbnailFinal = false
    private let thumbnailer = Thumbnailer()
    /// Per frame: time in the encoder, and writing (packets, thumbnails); nil when not timed.
    private let timers: (encode: StageTimer?, write: StageTimer?)

    /// When a take's thumbnail is taken (the seed's choice).
    static let thumbnailTime = 0.05

    /// `number`: the take's number in its folder, from `TakesFolder.nextTakeNumber(in:)`.
    init(directory: String, number: Int, format: NegotiatedFormat, codec: VideoCodecChoice, live: Bool,
         tags: [String: String] = [:], timers: (encode: StageTimer?, write: StageTimer?) = (nil, nil)) throws {
        self.timers = timers
        let stem = TakesFolder.takeFileStem(number: number)
        fileName = stem + ".mov"
        thumbnailName = stem + ".png"
        thumbnailPath = directory + "/" + stem + ".png"
        frameRate = format.frameRate
        muxer = try Muxer(path: directory + "/" + fileName, formatPath: fileName)
        encoder = try Encoder.video(Self.encoderSettings(format: format, codec: codec, live: live),
                                    globalHeader: muxer.needsGlobalHeader)
        stream = try muxer.addStream(from: encoder)
        for (key, value) in tags { muxer.setMetadata(key, value) }
        try muxer.writeHeader(options: ["movflags": "frag_keyframe+empty_moov+default_base_moof"])
    }

    /// Pixels per second above which live capture trades HEVC for H.264 to keep up on a
    /// 2-core machine (HEVC ultrafast manages 1080p30 with little room to spare there).
    static let hevcLivePixelRate = 1920.0 * 1080 * 30

    /// A preset that keeps up: live capture must never fall behind, batch capture can afford
    /// a better one.
    static func encoderSettings(format: NegotiatedFormat, codec: VideoCodecChoice, live: Bool) -> VideoEncoderSettings {
        let pixelRate = Double(format.width * format.height) * format.frameRate.doubleValue
        var chosen = codec
        if live && codec == .auto && pixelRate > hevcLivePixelRate { chosen = .h264 }
        let keyframeInterval = Swift.max(1, Int(format.frameRate.doubleValue.rounded()))
        return VideoEncoderSettings(codec: chosen, width: format.width, height: format.height, frameRate: format.frameRate,
                                    preset: live ? "ultrafast" : "veryfast", keyframeInterval: keyframeInterval)
    }

    var codecName: String { encoder.name }

    /// Encodes one captured frame. Timestamps come from capture time, so a dropped frame leaves
    /// a gap in time rather than speeding the take up.
    func write(_ frame: Frame, info: CapturedFrameInfo) throws {
        let start = firstTime ?? info.time
        firstTime = start
        let relative = info.time - start
        var pts = Int64((relative * frameRate.doubleValue).rounded())
        if pts <= lastPts { pts = lastPts + 1 }
        lastPts = pts
        // The first frame gives a thumbnail at once (a take may be shorter than 0.05 s); the
        // frame at 0.05 s replaces it.
        if frames == 0 || (!thumbnailFinal && relative >= Self.thumbnailTime - 1e-9) {
            timers.write?.begin()
            try PNGWriter.write(try thumbnailer.thumbnail(of: frame, width: 320), to: thumbnailPath)
            timers.write?.pause()
            thumbnailFinal = relative >= Self.thumbnailTime - 1e-9
        }
        frame.prepareForEncoding(pts: pts)
        timers.encode?.begin()
        try encoder.encode(frame, makePacket: Packet.init, output: writePacket)
        timers.encode?.frameDone()
        timers.write?.frameDone()
        frames += 1
    }

    /// Flushes the encoder and finalizes the file. Returns the take's duration in seconds.
    func finish() throws -> Double {
        timers.encode?.begin()
        try encoder.encode(nil, makePacket: Packet.init, output: writePacket)
        timers.encode?.otherDone()
        timers.write?.begin()
        try muxer.finish()
        timers.write?.otherDone()
        return Double(lastPts + 1) / frameRate.doubleValue
    }

    /// Writes a packet the encoder made; its time counts as writing, not encoding.
    private func writePacket(_ packet: Packet) throws {
        timers.encode?.pause()
        timers.write?.begin()
        try muxer.write(packet, stream: stream)
        timers.write?.pause()
        timers.encode?.begin()
    }

}
