import CFFmpeg
import Testing
import VRenderCore
import VRenderTestSupport
@testable import VRenderMedia

/// A take opened from its header only (`Demuxer.StreamInfo.headerWhenComplete`, as a stream
/// copy opens every take after the first) reads as it does searched in full.
@Suite struct DemuxerStreamInfoTests {
    /// Every packet of the file: stream, times, size, flags.
    private func packets(_ demuxer: Demuxer) -> [[Int64]] {
        let packet = Packet()
        var all: [[Int64]] = []
        while demuxer.read(into: packet) {
            all.append([Int64(packet.streamIndex), packet.pts ?? -1, packet.dts ?? -1, packet.duration,
                        Int64(packet.pointer.pointee.size), Int64(packet.pointer.pointee.flags)])
        }
        return all
    }

    @Test("a QuickTime or MP4 take opened from its header gives the same packets, clocks and codec setups",
          arguments: ["same_1.mov", "hevc_640x480_25_aac44k_mono.mp4", "small_a.mov"])
    func headerOnlyReadsTheSame(_ name: String) throws {
        let full = try Demuxer(path: TestMedia.path(name))
        let header = try Demuxer(path: TestMedia.path(name), streamInfo: .headerWhenComplete)
        let streams = Int(full.context.pointee.nb_streams)
        #expect(Int(header.context.pointee.nb_streams) == streams)
        for index in 0..<streams {
            #expect(header.timeBase(ofStream: index) == full.timeBase(ofStream: index))
            let (a, b) = (full.stream(index).pointee.codecpar.pointee, header.stream(index).pointee.codecpar.pointee)
            #expect(a.codec_id == b.codec_id && a.width == b.width && a.height == b.height && a.sample_rate == b.sample_rate)
            #expect(Array(UnsafeBufferPointer(start: a.extradata, count: Int(a.extradata_size)))
                    == Array(UnsafeBufferPointer(start: b.extradata, count: Int(b.extradata_size))))
        }
        #expect(packets(header) == packets(full))
    }

    @Test("a container whose parameters need its packets, or a fragmented take, is still searched",
          arguments: ["mjpeg_422_full.mkv", "take_hevc_320x240.mov"])
    func otherFilesAreSearched(_ name: String) throws {
        // The pixel format is known only from a decoded picture.
        let header = try Demuxer(path: TestMedia.path(name), streamInfo: .headerWhenComplete)
        let video = try #require(header.bestStream(AVMEDIA_TYPE_VIDEO))
        #expect(header.stream(video).pointee.codecpar.pointee.format != AV_PIX_FMT_NONE.rawValue)
        #expect(packets(header) == packets(try Demuxer(path: TestMedia.path(name))))
    }

    @Test("a whole QuickTime take opened from its header is not searched")
    func wholeQuickTimeIsNotSearched() throws {
        let header = try Demuxer(path: TestMedia.path("small_a.mov"), streamInfo: .headerWhenComplete)
        let video = try #require(header.bestStream(AVMEDIA_TYPE_VIDEO))
        #expect(header.stream(video).pointee.codecpar.pointee.format == AV_PIX_FMT_NONE.rawValue)
    }
}
