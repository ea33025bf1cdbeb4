import Testing
import VRenderCore
@testable import VRenderExport

/// `--for web|archive` as the library applies it: the options it fills, the ones it leaves as
/// given, and the platforms' bit rates by size and rate.
@Suite struct DeliveryTests {
    @Test func webBitRatesFollowThePlatformsTable() {
        #expect(DeliveryTarget.webBitRate(width: 1920, height: 1080, frameRate: 30) == 8_000_000)
        #expect(DeliveryTarget.webBitRate(width: 1920, height: 1080, frameRate: 60) == 12_000_000)
        #expect(DeliveryTarget.webBitRate(width: 1080, height: 1920, frameRate: 29.97) == 8_000_000, "portrait: the shorter side")
        #expect(DeliveryTarget.webBitRate(width: 1280, height: 720, frameRate: 30) == 5_000_000)
        #expect(DeliveryTarget.webBitRate(width: 3840, height: 2160, frameRate: 24) == 40_000_000)
        #expect(DeliveryTarget.webBitRate(width: 320, height: 240, frameRate: 30) == 1_000_000)
        let tuning = DeliveryTarget.web.tuning(width: 1920, height: 1080, frameRate: Rational(30000, 1001))
        #expect(tuning?.keyframeInterval == 15 && tuning?.bFrames == 2 && tuning?.profile == "high")
        #expect(DeliveryTarget.archive.tuning(width: 1920, height: 1080, frameRate: Rational(30, 1)) == nil)
    }

    @Test func thePresetFillsOnlyWhatWasNotGiven() {
        var options = ExportOptions(inputs: ["a.mov"], output: "export.mov", crf: 30)
        DeliveryTarget.web.apply(to: &options, given: .init(crf: true))
        #expect(options.codec == .encode(.h264) && options.crf == 30 && options.loudness == -14 && options.output == "export.mp4")
        #expect(options.deliveryOverrides == ["--crf"])
        var archive = ExportOptions(inputs: ["a.mov"], output: "keep.mov")
        archive.loudness = -23
        DeliveryTarget.archive.apply(to: &archive, given: .init(loudness: true, output: true))
        #expect(archive.codec == .encode(.ffv1) && archive.loudness == -23 && archive.output == "keep.mov")
        #expect(!DeliveryTarget.web.editLists && DeliveryTarget.archive.audioCodec == .pcm)
    }
}
