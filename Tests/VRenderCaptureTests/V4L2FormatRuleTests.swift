import Testing
import VRenderCore
@testable import VRenderCapture

/// The format rule, on format lists shaped like real devices'. Decision under test: resolution
/// beats rawness (see `FormatRule`'s comment); rawness decides only at the chosen size.
@Suite struct V4L2FormatRuleTests {
    private func format(_ pixel: CapturePixelFormat, _ width: Int, _ height: Int, _ rates: [Rational]) -> CaptureFormat {
        CaptureFormat(pixelFormat: pixel, width: width, height: height, frameRates: rates)
    }

    private func rates(_ values: Int...) -> [Rational] { values.map { Rational($0, 1) } }

    /// vivid's webcam input: 640x360 up to 40 fps, 640x480 up to 25, 1280x720 up to 12.5.
    private var vividWebcam: [CaptureFormat] {
        [
            format(.yuyv, 320, 180, rates(60, 30, 25, 5)),
            format(.yuyv, 640, 360, rates(40, 30, 25, 5)),
            format(.yuyv, 640, 480, rates(25, 15, 5)),
            format(.yuyv, 1280, 720, [Rational(25, 2), Rational(5, 1)]),
            format(.yuyv, 1920, 1080, rates(5, 1)),
        ]
    }

    private func request(_ fps: Int, size: (Int, Int)? = nil) -> CaptureRequest {
        CaptureRequest(frameRate: Rational(fps, 1), size: size.map { (width: $0.0, height: $0.1) })
    }

    @Test func picksTheHighestResolutionThatReachesTheRate() throws {
        let at25 = try FormatRule.choose(from: vividWebcam, for: request(25))
        #expect((at25.width, at25.height) == (640, 480))
        #expect(at25.pixelFormat == .yuyv)
        #expect(at25.frameRate == Rational(25, 1))
        #expect(at25.reason == "640x480 yuyv at 25 fps: the highest resolution that reaches 25 fps")

        let at30 = try FormatRule.choose(from: vividWebcam, for: request(30))
        #expect((at30.width, at30.height) == (640, 360))
        #expect(at30.frameRate == Rational(30, 1))

        let at5 = try FormatRule.choose(from: vividWebcam, for: request(5))
        #expect((at5.width, at5.height) == (1920, 1080))
    }

    @Test func rawIsPreferredOverMJPEGAtTheSameSize() throws {
        let formats = [format(.mjpeg, 1280, 720, rates(30, 15)), format(.yuyv, 1280, 720, rates(30, 15))]
        let chosen = try FormatRule.choose(from: formats, for: request(30))
        #expect(chosen.pixelFormat == .yuyv)
        #expect(!chosen.reason.contains("MJPEG"))
    }

    @Test func rawFormatsRankByConversionCost() throws {
        let formats = [format(.yuyv, 640, 480, rates(30)), format(.nv12, 640, 480, rates(30)),
                       format(.yuv420p, 640, 480, rates(30))]
        #expect(try FormatRule.choose(from: formats, for: request(30)).pixelFormat == .yuv420p)
        #expect(try FormatRule.choose(from: Array(formats.prefix(2)), for: request(30)).pixelFormat == .nv12)
    }

    /// A typical UVC webcam: raw YUYV is USB-bandwidth-bound at high resolutions, MJPEG is not.
    @Test func mjpegWinsWhenRawCannotReachTheRateAtAHigherResolution() throws {
        let webcam = [
            format(.yuyv, 640, 480, rates(30, 15)),
            format(.yuyv, 1280, 720, rates(10, 5)),
            format(.yuyv, 1920, 1080, rates(5)),
            format(.mjpeg, 640, 480, rates(30, 15)),
            format(.mjpeg, 1280, 720, rates(30, 15)),
            format(.mjpeg, 1920, 1080, rates(30, 15)),
        ]
        let chosen = try FormatRule.choose(from: webcam, for: request(30))
        #expect(chosen.pixelFormat == .mjpeg)
        #expect((chosen.width, chosen.height) == (1920, 1080))
        #expect(chosen.reason.contains("no raw format reaches it at that size"))

        // Raw reaches 10 fps at 720p, so at that rate 1080p MJPEG still wins on resolution...
        #expect(try FormatRule.choose(from: webcam, for: request(10)).pixelFormat == .mjpeg)
        // ...while --size 1280x720 at 10 fps gets raw, which reaches the rate there.
        let narrowed = try FormatRule.choose(from: webcam, for: request(10, size: (1280, 720)))
        #expect(narrowed.pixelFormat == .yuyv)
    }

    @Test func sizeNarrowsTheChoice() throws {
        let chosen = try FormatRule.choose(from: vividWebcam, for: request(25, size: (640, 360)))
        #expect((chosen.width, chosen.height) == (640, 360))
        #expect(chosen.frameRate == Rational(25, 1))
        #expect(chosen.reason.contains("--size 640x360"))
    }

    @Test func aSizeTheDeviceLacksIsAnOptionErrorListingWhatItOffers() {
        #expect {
            try FormatRule.choose(from: vividWebcam, for: request(25, size: (800, 600)), device: "/dev/video0")
        } throws: { error in
            guard let error = error as? VRenderError else { return false }
            return error.kind == .option && error.subject == "--size"
                && error.reason == "/dev/video0 has no 800x600 format; it offers: 1920x1080, 1280x720, 640x480, 640x360, 320x180"
        }
    }

    @Test func whenNothingReachesTheRateTheFastestThenLargestIsChosenAndSaidSo() throws {
        let formats = [format(.yuyv, 640, 480, rates(25, 15)), format(.yuyv, 1280, 720, [Rational(25, 2)]),
                       format(.yuyv, 320, 240, rates(25))]
        let chosen = try FormatRule.choose(from: formats, for: request(60))
        #expect((chosen.width, chosen.height) == (640, 480))
        #expect(chosen.frameRate == Rational(25, 1))
        #expect(chosen.reason == "no format reaches 60 fps; highest available is 25 fps at 640x480 yuyv")
    }

    @Test func fallbackWithinANarrowedSizeKeepsThatSize() throws {
        let chosen = try FormatRule.choose(from: vividWebcam, for: request(25, size: (1280, 720)))
        #expect((chosen.width, chosen.height) == (1280, 720))
        #expect(chosen.frameRate == Rational(25, 2))
        #expect(chosen.reason == "no format reaches 25 fps (--size 1280x720); highest available is 12.5 fps at 1280x720 yuyv")
    }

    @Test func aNTSCRateReachesItsRoundNameAndIsLockedAsTheDeviceSpellsIt() throws {
        let formats = [format(.yuyv, 1280, 720, [Rational(30000, 1001), Rational(15, 1)])]
        let chosen = try FormatRule.choose(from: formats, for: request(30))
        #expect(chosen.frameRate == Rational(30000, 1001))
        #expect(chosen.reason.hasPrefix("1280x720 yuyv at 29.97 fps"))
    }

    @Test func noFormatsIsAnInputError() {
        #expect(throws: VRenderError.input("/dev/video9", "offers no format vrender can capture (yuyv, nv12, yuv420, mjpeg)")) {
            try FormatRule.choose(from: [], for: request(30), device: "/dev/video9")
        }
    }

    @Test func aDeviceReportingNoRatesGetsTheRequestedRate() throws {
        let chosen = try FormatRule.choose(from: [format(.yuyv, 640, 480, [])], for: request(30))
        #expect(chosen.frameRate == Rational(30, 1))
        #expect(chosen.reason.contains("reports no frame rates"))
    }
}
