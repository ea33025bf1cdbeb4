// The frame stages of a transcode, one frame per iteration, each on one thread so the figures
// are CPU cost per frame (the pipeline's parallelism is measured by the whole exports):
// decode (1080p H.264), normalize (1080p → the 720p canvas, `FrameNormalizer`), encode (720p
// H.264 ultrafast). Filters are `FilterBenchmarks`' `cpu <filter> 720p`.

import Benchmark
import BenchmarkSupport
import Foundation
import VRenderCore
import VRenderMedia

#if canImport(Glibc)
import Glibc
#endif

/// The take's video packets held in memory, decoded one per iteration (cycling back to the
/// first, a keyframe, after the last).
// @unchecked Sendable: one benchmark uses it, and its setup, iterations and teardown run in turn.
final class DecodeRig: @unchecked Sendable {
    private var decoder: Decoder?
    private var packets: [Packet] = []
    private var next = 0
    /// The one frame shell the decoder fills; emptied after every frame.
    private let shell = Frame()

    func setUp() throws {
        let take = try ExportInputs.take(1)
        let (decoder, packets) = try openVideo(take)
        self.decoder = decoder
        self.packets = packets
    }

    func tearDown() {
        decoder = nil
        packets = []
    }

    @inline(never)
    func decodeNextPacket() throws {
        guard let decoder else { return }
        try decoder.decode(packets[next], makeFrame: { shell }, output: { frame in
            Benchmark.blackHole(frame.width)
            frame.unref()
        })
        next = (next + 1) % packets.count
    }
}

/// One decoded picture normalized onto a smaller canvas per iteration: the take's first frame
/// (1080p) onto the 720p canvas, or, for the CI gate's cost (`CPUCost`), the same frame made
/// 288x162 first and then normalized onto 192x108 (the same 2/3 scale; small enough that
/// source, canvas and the memcpy's two pictures stay in a core's L2 cache).
// @unchecked Sendable: one benchmark uses it, and its setup, iterations and teardown run in turn.
final class NormalizeRig: @unchecked Sendable {
    let sourceSize: (width: Int, height: Int)?
    let canvasSize: (width: Int, height: Int)
    private var source: Frame?
    private var canvas: Frame?
    private var normalizer: FrameNormalizer?
    /// Two pictures of the source's size: the memcpy the cost is compared with.
    private var copyPictures: (source: Picture420, destination: Picture420)?

    /// `sourceSize` nil: the decoded frame itself.
    init(sourceSize: (width: Int, height: Int)? = nil, canvasSize: (width: Int, height: Int)) {
        self.sourceSize = sourceSize
        self.canvasSize = canvasSize
    }

    func setUp() throws {
        let (decoder, packets) = try openVideo(try ExportInputs.take(1))
        guard var source = try decodeAll(decoder, packets, limit: 1).first else {
            throw ExportInputsError(description: "the take decoded to no frame")
        }
        if let sourceSize {
            let smaller = try Frame.picture(width: sourceSize.width, height: sourceSize.height)
            try FrameNormalizer(canvasWidth: sourceSize.width, canvasHeight: sourceSize.height)
                .normalize(source, rotation: .none, into: smaller)
            source = smaller
        }
        self.source = source
        canvas = try Frame.picture(width: canvasSize.width, height: canvasSize.height)
        normalizer = FrameNormalizer(canvasWidth: canvasSize.width, canvasHeight: canvasSize.height)
        copyPictures = (Picture420(width: source.width, height: source.height),
                        Picture420(width: source.width, height: source.height))
    }

    func tearDown() {
        source = nil
        canvas = nil
        normalizer = nil
        copyPictures = nil
    }

    @inline(never)
    func normalize() throws {
        guard let source, let canvas, let normalizer else { return }
        try normalizer.normalize(source, rotation: .none, into: canvas)
    }

    /// Memcpys of the source-sized picture, then `normalize()`, both in this thread's CPU time
    /// (`GateMetric.costVersusMemcpy`).
    @inline(never)
    func normalizeVersusMemcpy(_ benchmark: Benchmark) throws {
        guard let (from, to) = copyPictures else { return }
        var failure: (any Error)?
        CPUCost.recordVersusMemcpy(benchmark,
                                   memcpy: { memcpy(to.bytes, from.bytes, from.byteCount) },
                                   work: {
                                       do { try normalize() } catch { failure = error }
                                   })
        if let failure { throw failure }
    }
}

/// The take's frames normalized to 720p once in setup, then encoded one per iteration
/// (cycling), by libx264 ultrafast on one thread: no look-ahead, no B-frames, so each frame
/// comes out as one packet at once.
// @unchecked Sendable: one benchmark uses it, and its setup, iterations and teardown run in turn.
final class EncodeRig: @unchecked Sendable {
    private var encoder: Encoder?
    private var canvases: [Frame] = []
    private var frameNumber: Int64 = 0
    private let packet = Packet()

    func setUp() throws {
        let (decoder, packets) = try openVideo(try ExportInputs.take(1))
        let normalizer = FrameNormalizer(canvasWidth: 1280, canvasHeight: 720)
        canvases = try decodeAll(decoder, packets, limit: packets.count).map { frame in
            let canvas = try Frame.picture(width: 1280, height: 720)
            try normalizer.normalize(frame, rotation: .none, into: canvas)
            return canvas
        }
        let settings = VideoEncoderSettings(codec: .h264, width: 1280, height: 720, frameRate: Rational(30, 1),
                                            preset: "ultrafast", threads: 1)
        encoder = try Encoder.video(settings, globalHeader: true)
        frameNumber = 0
    }

    func tearDown() {
        encoder = nil
        canvases = []
    }

    @inline(never)
    func encodeNextFrame() throws {
        guard let encoder else { return }
        let canvas = canvases[Int(frameNumber % Int64(canvases.count))]
        canvas.prepareForEncoding(pts: frameNumber)
        frameNumber += 1
        try encoder.encode(canvas, makePacket: { packet }, output: { packet in
            Benchmark.blackHole(packet.size)
            packet.unref()
        })
    }
}

/// A single-threaded decoder for `path`'s video stream and all of that stream's packets.
private func openVideo(_ path: String) throws -> (Decoder, [Packet]) {
    let video = try Probe.probe(path).video.index
    let demuxer = try Demuxer(path: path)
    var packets: [Packet] = []
    while true {
        let packet = Packet()
        guard demuxer.read(into: packet) else { break }
        if packet.streamIndex == video { packets.append(packet) }
    }
    return (try Decoder(demuxer: demuxer, streamIndex: video, threads: 1), packets)
}

/// The first `limit` frames of `packets`, each in a frame of its own (flushing at the end).
private func decodeAll(_ decoder: Decoder, _ packets: [Packet], limit: Int) throws -> [Frame] {
    var frames: [Frame] = []
    for packet in packets + [nil] where frames.count < limit {
        try decoder.decode(packet, makeFrame: { Frame() }, output: { frame in
            if frames.count < limit { frames.append(frame) }
        })
    }
    return frames
}
