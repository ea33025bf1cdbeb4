import Testing
import VRenderCore
@testable import VRenderCapture

@Suite struct CaptureFormatTests {
    @Test func rawFormatsAreRaw() {
        #expect(CapturePixelFormat.yuyv.isRaw)
        #expect(!CapturePixelFormat.mjpeg.isRaw)
        let format = CaptureFormat(pixelFormat: .yuyv, width: 640, height: 480, frameRates: [Rational(25, 1), Rational(5, 1)])
        #expect(format.maxFrameRate == 25)
    }
}
