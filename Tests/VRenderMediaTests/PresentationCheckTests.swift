import Testing
import VRenderCore
import VRenderTestSupport
@testable import VRenderMedia

/// A pts that a damaged header moved far from its neighbours (`PresentationCheck`) is found and
/// placed by decoding time; an encoder's ordinary reordering is left alone.
@Suite struct PresentationCheckTests {
    /// 30 fps in QuickTime's 1/15360: 512 ticks a frame.
    static func check() -> PresentationCheck { PresentationCheck(timeBase: Rational(1, 15_360), frameRate: Rational(30, 1)) }

    @Test func leavesBFrameReorderingAlone() {
        var check = Self.check()
        // Decoding order of an I P B B group: pts up to 3 frames from dts.
        let packets: [(pts: Int64, dts: Int64)] = [(0, -1024), (1536, -512), (512, 0), (1024, 512), (3584, 1024)]
        #expect(packets.map { check.plausible(pts: $0.pts, dts: $0.dts) } == packets.map(\.pts))
        #expect(check.outliers == 0)
    }

    @Test func placesAPtsOneFlippedBitAwayAtItsDts() {
        var check = Self.check()
        #expect(check.plausible(pts: 1536, dts: 1024) == 1536)
        #expect(check.plausible(pts: 6656 + (1 << 20), dts: 4096) == 4096)   // bit 20 of its ctts entry
        #expect(check.plausible(pts: -(1 << 30), dts: 4608) == 4608)          // a negative offset's high bit
        #expect(check.plausible(pts: Int64.max, dts: 5120) == 5120)           // no overflow
        #expect(check.outliers == 3)
    }

    @Test func withoutDtsAPtsFarBeyondTheLatestFollowsIt() {
        var check = Self.check()
        #expect(check.plausible(pts: 0, dts: nil) == 0)
        #expect(check.plausible(pts: 1536, dts: nil) == 1536)
        #expect(check.plausible(pts: 512 + (1 << 20), dts: nil) == 1536 + 512)
        #expect(check.plausible(pts: 1024, dts: nil) == 1024)   // reordered back: ordinary
        #expect(check.outliers == 1)
    }

    /// The take of the issue: 2 s of HEVC whose `ctts` entry 10 has bit 20 flipped
    /// (`scripts/make-hostile-media.sh`). ffprobe says 2 s; probing measured 68.7 s from the
    /// moved frame's pts.
    /// Matroska stores no dts: FFmpeg's, made up at a constant pace, fall behind a variable-
    /// frame-rate take's pts by every frame it held. A frame after a 1 s hold is no damage.
    @Test func withoutStoredDecodingTimesAHeldFrameIsNoOutlier() {
        var check = PresentationCheck(timeBase: Rational(1, 1000), frameRate: Rational(30, 1), decodingTimesStored: false)
        #expect(check.plausible(pts: 0, dts: 0) == 0)
        #expect(check.plausible(pts: 33, dts: 33) == 33)
        #expect(check.plausible(pts: 1_067, dts: 67) == 1_067)
        #expect(check.plausible(pts: 1_100, dts: 100) == 1_100)
        #expect(check.outliers == 0)
        var stored = PresentationCheck(timeBase: Rational(1, 1000), frameRate: Rational(30, 1))
        #expect(stored.plausible(pts: 1_067, dts: 67) == 67, "where dts are stored, the same pts is one")
    }

    @Test func probingKeepsTheLengthAndCountsTheDamagedTimestamp() throws {
        let info = try Probe.probe(TestMedia.path("hostile/ctts_bit20_hevc.mov"))
        #expect(abs(info.duration - 2.0) < 0.001, "\(info.duration) s")
        #expect(info.video.damagedTimestamps == 1)
        let ordinary = try Probe.probe(TestMedia.path("hostile/ctts_base_hevc.mov"))
        #expect(ordinary.video.damagedTimestamps == 0)
    }
}
