import Foundation
import Testing
import VRenderCore
import VRenderTestSupport
@testable import VRenderExport
@testable import VRenderMedia

/// The muxer gets packets in an order that depends on the packets alone, never on which
/// stage's thread was faster (`MuxOrder`, `MuxStage`).
@Suite struct MuxOrderTests {
    /// Video at 30 fps, audio every 1024/48000 s, delivered in two different interleavings.
    @Test func theOrderDoesNotDependOnArrival() {
        let video = (0..<40).map { (stream: 0, seconds: Double($0) / 30) }
        let audio = (0..<60).map { (stream: 1, seconds: Double($0 - 1) * 1024 / 48_000) }
        func written(_ arrivals: [(stream: Int, seconds: Double)]) -> [String] {
            var order = MuxOrder<String>(streams: 2)
            var out: [String] = []
            for arrival in arrivals {
                order.add("\(arrival.stream)@\(arrival.seconds)", stream: arrival.stream, seconds: arrival.seconds)
                while let item = order.next() { out.append(item) }
            }
            order.end(stream: 0)
            order.end(stream: 1)
            while let item = order.next() { out.append(item) }
            #expect(order.isDone)
            return out
        }
        let videoFirst = written(video + audio)
        #expect(videoFirst == written(audio + video))
        #expect(videoFirst == written(zip(video, audio).flatMap { [$0, $1] } + audio.dropFirst(video.count)))
        #expect(videoFirst.count == 100)
        #expect(videoFirst.first == "1@\(-1024.0 / 48_000)", "the AAC priming packet comes first")
    }

    @Test func waitsForAStreamThatHasNothingYetButNotForOneThatEnded() {
        var order = MuxOrder<Int>(streams: 2)
        order.add(1, stream: 0, seconds: 0)
        #expect(order.next() == nil)
        #expect(order.starved == [1])
        order.end(stream: 1)
        #expect(order.next() == 1)
        #expect(order.next() == nil)
        #expect(!order.isDone)
        order.add(2, stream: 0, seconds: nil)  // no timestamp: after the last
        order.end(stream: 0)
        #expect(order.next() == 2)
        #expect(order.isDone)
    }

    /// What `MuxStage` wrote into a Matroska file from 12 s of video and AAC audio shifted to a
    /// join's timestamps (audio from -1024 samples, video from 0), fed in the order `first`
    /// names: all of it, then the other stream. The old muxing order was arrival order, and
    /// FFmpeg's interleaver lets 10 s of one stream go before the other's first packet: the
    /// start shift (`avoid_negative_ts`) then came from whichever stream was first.
    private func mux(first: MuxItem.Stream, source: String, into output: String) throws -> String {
        let demuxer = try Demuxer(path: source)
        let file = AtomicFile(path: output)
        let muxer = try Muxer(descriptor: file.open(), path: file.temporaryPath, formatPath: output)
        let videoStream = try muxer.addStream(copying: 0, of: demuxer)
        let audioStream = try muxer.addStream(copying: 1, of: demuxer)
        try muxer.writeHeader()
        var video: [MuxItem] = [], audio: [MuxItem] = []
        while true {
            let packet = Packet()
            guard demuxer.read(into: packet) else { break }
            // Matroska's 1 ms ticks: the AAC priming (21 ms) moved before zero, as in a join.
            packet.pts = packet.pts.map { $0 - 21 }
            packet.dts = packet.dts.map { $0 - 21 }
            if packet.streamIndex == 0 { video.append(MuxItem(stream: .video, packet: packet)) }
            else { audio.append(MuxItem(stream: .audio(track: 0), packet: packet)) }
        }
        let items: [MuxItem]
        if case .video = first { items = video + audio } else { items = audio + video }
        let queue = BoundedQueue<MuxItem>(capacity: items.count)
        items.forEach { queue.push($0) }
        queue.finish()
        try MuxStage(muxer: OwnershipTransfer(muxer), videoStream: videoStream, audioStreams: [audioStream],
                     input: queue, timer: nil).run()
        try file.commit()
        return ProgramRun.run("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "packet=stream_index,pts,dts,size,pos",
                                                  "-of", "csv", output]).standardOutput
    }

    @Test func theMuxedFileDoesNotDependOnWhichStreamArrivedFirst() throws {
        let folder = TestMedia.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let source = folder + "/source.mkv"
        let made = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=64x48:rate=30:duration=12",
                                                     "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=12",
                                                     "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", "-shortest", source])
        try #require(made.status == 0, "\(made.standardError)")
        let videoFirst = try mux(first: .video, source: source, into: folder + "/video-first.mkv")
        let audioFirst = try mux(first: .audio(track: 0), source: source, into: folder + "/audio-first.mkv")
        #expect(!videoFirst.isEmpty)
        #expect(videoFirst == audioFirst, "the same packets at the same places")
        let starts = ProgramRun.run("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream=codec_type,start_time",
                                                        "-of", "csv=p=0", folder + "/video-first.mkv"]).standardOutput
        #expect(starts == "video,0.021000\naudio,0.000000\n", "the one-pass .mkv's start: audio priming at 0")
    }
}
