import Foundation
import VRenderCapture
import VRenderCore
import VRenderImaging
import VRenderMedia
import VRenderTakes

/// Encodes one take into `segment_<NNNN>_<UUID>.mov` (see `TakesFolder+Numbering.swift` for
/// why the number), written fragmented: a fragment every quarter second, handed to the kernel
/// at once, from an encoder that holds no frames back when live (`lowLatency`), so a take whose
/// process is killed keeps all but its last half second (README "What vrender guarantees").
/// Plus a PNG thumbnail of the frame at 0.05 s. With a microphone, the take's sound goes in
/// beside the video (`TakeSoundTrack`), written up to each frame's end before the frame, so
/// every fragment holds both streams to the same instant. Confined to the writer thread.
final class SegmentWriter {
    let fileName: String
    let thumbnailName: String?
    private let thumbnailPath: String
    private let muxer: Muxer
    private let encoder: Encoder
    private let stream: Int
    /// The take's sound (nil: a silent take, `--audio none`).
    private let sound: TakeSoundTrack?
    private let frameRate: Rational
    private let path: String
    /// The take file, created exclusively in its folder (no link followed); the muxer writes a
    /// duplicate of it, and `salvage()` cuts it back through it.
    private let descriptor: Int32
    /// Packets per fragment: a quarter of a second's worth.
    private let packetsPerFragment: Int
    private var packetsInFragment = 0
    /// The file's size after its last complete fragment: what `salvage()` cuts it back to.
    private var durableBytes: Int64 = 0
    private var packetsDurable = 0
    private var packetsWritten = 0
    private var firstTime: Double?
    private var lastPts: Int64 = -1
    private(set) var frames = 0
    private var thumbnailFinal = false
    private let thumbnailer = Thumbnailer()
    /// Per frame: time in the encoder, and writing (packets, thumbnails); nil when not timed.
    private let timers: (encode: StageTimer?, write: StageTimer?)

    /// `number`: the take's number in its folder, from `TakesFolder.nextTakeNumber(in:)`.
    init(directory: String, number: Int, format: NegotiatedFormat, codec: VideoCodecChoice, live: Bool,
         sound timeline: AudioTimeline? = nil,
         tags: (_ encoder: String) -> [String: String] = { _ in [:] }, timers: (encode: StageTimer?, write: StageTimer?) = (nil, nil)) throws {
        self.timers = timers
        let stem = TakesFolder.takeFileStem(number: number)
        fileName = stem + ".mov"
        thumbnailName = stem + ".png"
        thumbnailPath = directory + "/" + stem + ".png"
        frameRate = format.frameRate
        path = directory + "/" + fileName
        packetsPerFragment = Swift.max(1, Int((format.frameRate.doubleValue * Self.fragmentSeconds).rounded(.down)))
        descriptor = try FolderHandle.open(directory, as: .output).createExclusive(fileName)
        do {
            muxer = try Muxer(descriptor: descriptor, path: path, formatPath: fileName)   // its write failures name the take's file
        } catch {
            close(descriptor)
            throw error
        }
        encoder = try Encoder.video(Self.encoderSettings(format: format, codec: codec, live: live),
                                    globalHeader: muxer.needsGlobalHeader)
        stream = try muxer.addStream(from: encoder)
        let muxer = muxer
        sound = try timeline.map { try TakeSoundTrack(timeline: $0, muxer: muxer) }
        for (key, value) in tags(encoder.name) { muxer.setMetadata(key, value) }
        try muxer.writeHeader(options: TakeFileLayout.recordingHeaderOptions)
        durableBytes = try muxer.flushFragment()
    }

    deinit { close(descriptor) }

    /// Seconds of video per fragment: with a low-latency encoder, the most a kill can lose is
    /// about this plus the frames in the ring.
    static let fragmentSeconds = 0.25

    /// A preset that keeps up: live capture must never fall behind (and holds no frames back),
    /// batch capture can afford a better one. Live `--codec auto` was resolved before the
    /// first take (`LiveCodecCalibration`).
    static func encoderSettings(format: NegotiatedFormat, codec: VideoCodecChoice, live: Bool) -> VideoEncoderSettings {
        let keyframeInterval = Swift.max(1, Int(format.frameRate.doubleValue.rounded()))
        var settings = VideoEncoderSettings(codec: codec, width: format.width, height: format.height, frameRate: format.frameRate,
                                            preset: live ? "ultrafast" : "veryfast", keyframeInterval: keyframeInterval)
        settings.lowLatency = live
        return settings
    }

    var codecName: String { encoder.name }

    /// Encodes one captured frame. Timestamps come from capture time, so a dropped frame leaves
    /// a gap in time rather than speeding the take up.
    func write(_ frame: Frame, info: CapturedFrameInfo) throws {
        let start = firstTime ?? info.time
        if firstTime == nil { sound?.begin(at: start) }
        firstTime = start
        let relative = info.time - start
        var pts = Int64((relative * frameRate.doubleValue).rounded())
        if pts <= lastPts { pts = lastPts + 1 }
        lastPts = pts
        // The first frame gives a thumbnail at once (a take may be shorter than 0.05 s); the
        // frame at 0.05 s replaces it.
        if frames == 0 || (!thumbnailFinal && relative >= TakeFileLayout.thumbnailTime - 1e-9) {
            timers.write?.begin()
            try PNGWriter.write(try thumbnailer.thumbnail(of: frame, width: TakeFileLayout.thumbnailWidth), to: thumbnailPath)
            timers.write?.pause()
            thumbnailFinal = relative >= TakeFileLayout.thumbnailTime - 1e-9
        }
        if let sound {
            timers.write?.begin()
            try sound.write(through: info.time + 1 / frameRate.doubleValue) { try writePacket($0, stream: sound.stream) }
            timers.write?.pause()
        }
        frame.prepareForEncoding(pts: pts)
        timers.encode?.begin()
        try encoder.encode(frame, makePacket: Packet.init, output: writeVideoPacket)
        timers.encode?.frameDone()
        timers.write?.frameDone()
        frames += 1
    }

    /// Flushes the encoder and finalizes the file. Returns the take's duration in seconds.
    func finish() throws -> Double {
        timers.encode?.begin()
        try encoder.encode(nil, makePacket: Packet.init, output: writeVideoPacket)
        timers.encode?.otherDone()
        timers.write?.begin()
        if let sound, let firstTime {
            try sound.finish(through: firstTime + Double(lastPts + 1) / frameRate.doubleValue) {
                try writePacket($0, stream: sound.stream)
            }
        }
        try muxer.finish()
        timers.write?.otherDone()
        return Double(lastPts + 1) / frameRate.doubleValue
    }

    /// Writes a packet the video encoder made; its time counts as writing, not encoding. Every
    /// `packetsPerFragment` video packets the fragment is ended and handed to the kernel (with
    /// the sound written up to the same frame).
    private func writeVideoPacket(_ packet: Packet) throws {
        timers.encode?.pause()
        timers.write?.begin()
        try writePacket(packet, stream: stream)
        packetsInFragment += 1
        if packetsInFragment >= packetsPerFragment { try endFragment() }
        timers.write?.pause()
        timers.encode?.begin()
    }

    private func writePacket(_ packet: Packet, stream: Int) throws {
        try muxer.write(packet, stream: stream)
        packetsWritten += 1
    }

    /// The take's sound as takes.json gives it (nil: a silent take).
    var soundSummary: (rate: Int, channels: Int, peakDBFS: Double, missingMilliseconds: Double)? { sound?.summary }

    private func endFragment() throws {
        // Writing on into a file whose folder was removed would lose the take silently.
        guard access(path, F_OK) == 0 else {
            throw VRenderError.output(path, "was removed while recording (was its folder deleted?)")
        }
        durableBytes = try muxer.flushFragment()
        packetsDurable = packetsWritten
        packetsInFragment = 0
    }

    /// After a failed write: cuts the file back to its last complete fragment, which plays.
    /// Returns false when there is nothing to keep (no complete fragment, or the file is gone).
    func salvage() -> Bool {
        guard packetsDurable > 0, access(path, F_OK) == 0 else { return false }
        return ftruncate(descriptor, off_t(durableBytes)) == 0
    }
}
