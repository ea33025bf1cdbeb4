// The packet stages of an export, one packet per iteration: reading (demux), writing (mux), and
// both together (the stream-copy path). The take is read over and over: at its end the
// demuxer is reopened (and the output file finished and started again), outside the measured
// part of the iteration, so the figures are the steady-state cost per packet.

import Benchmark
import Foundation
import VRenderCore
import VRenderMedia

/// One take read packet by packet, and in `.copy`/`.mux` written to a .mov as a stream copy
/// (video and audio, every packet unchanged).
// @unchecked Sendable: one benchmark uses it, and its setup, iterations and teardown run in turn.
final class PacketLoopRig: @unchecked Sendable {
    enum Stage {
        /// Measures `Demuxer.read` only.
        case demux
        /// Measures `Muxer.write` only (the packet is read before the measurement starts).
        case mux
        /// Measures read + write: the stream-copy path per packet.
        case copy
    }

    let stage: Stage
    private let packet = Packet()
    private var input = ""
    private var output = ""
    private var streams: [Int] = []
    private var demuxer: Demuxer?
    private var muxer: Muxer?
    /// The file the muxer writes (created as every vrender output is); never kept.
    private var file: AtomicFile?
    /// Input stream index → output stream index.
    private var routes: [Int: Int] = [:]
    private var atEnd = true

    init(stage: Stage) {
        self.stage = stage
    }

    func setUp() throws {
        input = try ExportInputs.take(1)
        output = try ExportInputs.scratch("packet-loop-\(stage).mov")
        let info = try Probe.probe(input)
        streams = [info.video.index] + info.audioTracks.map(\.index)
        try restart()
    }

    func tearDown() throws {
        try muxer?.finish()
        muxer = nil
        file?.discard()
        demuxer = nil
    }

    /// Reopens the take from its start and, when writing, starts a new output file.
    private func restart() throws {
        try muxer?.finish()
        file?.discard()
        let demuxer = try Demuxer(path: input)
        if stage != .demux {
            let file = AtomicFile(path: output)
            self.file = file
            let muxer = try Muxer(descriptor: file.open(), path: file.temporaryPath, formatPath: output)
            routes = [:]
            for stream in streams { routes[stream] = try muxer.addStream(copying: stream, of: demuxer) }
            try muxer.writeHeader()
            self.muxer = muxer
        }
        self.demuxer = demuxer
        atEnd = false
    }

    /// One packet through the stage.
    @inline(never)
    func nextPacket(_ benchmark: Benchmark) throws {
        if atEnd { try restart() }
        guard let demuxer else { return }
        if stage != .mux { benchmark.startMeasurement() }
        guard demuxer.read(into: packet) else {
            atEnd = true
            return
        }
        guard let muxer, let route = routes[packet.streamIndex] else { return }
        if stage == .mux { benchmark.startMeasurement() }
        try muxer.write(packet, stream: route)
    }
}
