import Testing
import VRenderCore
import VRenderMedia
@testable import VRenderExport

@Suite struct PacketRetimerTests {
    /// One 1 s take of AAC at 48 kHz as the mov demuxer hands it over: a priming packet before
    /// zero, 46 whole frames, and a last one the container shortened to 896 samples (though it
    /// decodes to 1024).
    private func aacTake() -> [(pts: Int64, duration: Int64)] {
        [(-1024, 1024)] + (0..<46).map { (Int64($0) * 1024, 1024) } + [(47_104, 896)]
    }

    private func join(takes: Int, trimsStart: Bool) throws -> [Int64] {
        var retimer = PacketRetimer(containerTrimsStart: trimsStart)
        var kept: [Int64] = []
        for take in 0..<takes {
            let placement = PacketRetimer.Placement(takeOffset: Double(take), videoStart: 0, takeDuration: 1)
            for (pts, duration) in aacTake() {
                let packet = Packet()
                packet.pts = pts
                packet.dts = pts
                packet.duration = duration
                if retimer.retime(packet, stream: 1, isAudio: true, timeBase: Rational(1, 48_000), placement,
                                  audioFrameDuration: 1024) {
                    kept.append(try #require(packet.pts, "a kept audio packet has a timestamp"))
                    #expect(packet.duration == 1024)
                }
            }
        }
        return kept
    }

    @Test func joinedAudioNeverDriftsMoreThanHalfAFrame() throws {
        let starts = try join(takes: 20, trimsStart: true)
        // Packets lie end to end: what a player decodes.
        for (previous, next) in zip(starts, starts.dropFirst()) { #expect(next - previous == 1024) }
        let end = try #require(starts.last, "some audio is kept") + 1024
        let videoEnd: Int64 = 20 * 48_000
        #expect(abs(end - videoEnd) <= 512, "audio ends at \(end), video at \(videoEnd)")
        // Without the drops, 20 takes of 47 frames would end 20 x 128 samples late.
        #expect(starts.count < 20 * 47)
    }

    @Test func audioBeforeTheFirstPictureIsDroppedWhereTheContainerCannotTrimIt() throws {
        #expect(try join(takes: 1, trimsStart: true).first == -1024)   // .mov: its edit list trims priming
        #expect(try join(takes: 1, trimsStart: false).first == 0)      // .mkv: would shift the whole file
    }

    @Test func videoTimestampsStayStrictlyIncreasingAcrossJoins() throws {
        var retimer = PacketRetimer(containerTrimsStart: true)
        var last: Int64 = .min
        for take in 0..<3 {
            let placement = PacketRetimer.Placement(takeOffset: Double(take) * 0.5, videoStart: 0, takeDuration: 0.5)
            for frame in 0..<16 {   // one frame more than the take's length: overlaps the next
                let packet = Packet()
                packet.pts = Int64(frame) * 512
                packet.dts = Int64(frame) * 512
                packet.duration = 512
                let kept = retimer.retime(packet, stream: 0, isAudio: false, timeBase: Rational(1, 15_360), placement)
                #expect(kept)
                let dts = try #require(packet.dts, "a video packet keeps its decoding timestamp")
                #expect(dts > last)
                last = dts
            }
        }
    }

    /// A trimmed take whose timestamps wander: its first picture 2 ms before the in point (on
    /// the nominal frame grid). It starts the output at zero, where a .mp4's edit list keeps
    /// it, and decodes no later than before; the pictures after it keep their times.
    @Test func aTrimmedTakesFirstPictureJustBeforeItsInPointStartsTheTake() throws {
        var retimer = PacketRetimer(containerTrimsStart: true)
        var placement = PacketRetimer.Placement(takeOffset: 0, videoStart: 1.002, takeDuration: 1)
        placement.videoWindow = -0.5 / 30..<(1 - 0.5 / 30)
        let timeBase = Rational(1, 15_360)
        var shown: [Int64] = []
        for (pts, dts) in [(15_360, 15_360 - 512), (15_360 + 1_024, 15_360 - 512 + 512), (15_360 + 512, 15_360 + 512)] {
            let packet = Packet()
            packet.pts = Int64(pts)
            packet.dts = Int64(dts)
            packet.duration = 512
            let kept = retimer.retime(packet, stream: 0, isAudio: false, timeBase: timeBase, placement)
            #expect(kept)
            let outPts = try #require(packet.pts), outDts = try #require(packet.dts)
            #expect(outDts <= outPts)
            shown.append(outPts)
        }
        // 1.002 s is 15,390.7 ticks: the first picture, at 15,360, shows at 0; the others 30 ticks earlier than their own.
        #expect(shown == [0, 1_024 - 31, 512 - 31])
    }
}
