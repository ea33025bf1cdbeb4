import Testing
@testable import VRenderCore

@Suite struct ParsingTests {
    @Test func durations() {
        #expect(ValueSyntax.seconds("4s") == 4)
        #expect(ValueSyntax.seconds("1500ms") == 1.5)
        #expect(ValueSyntax.seconds("2.5") == 2.5)
        #expect(ValueSyntax.seconds("2m") == 120)
        #expect(ValueSyntax.seconds("-1s") == nil)
        #expect(ValueSyntax.seconds("soon") == nil)
        // Finite numbers that overflow once scaled, and infinities, are no times (the fuzzer's
        // "at 01e308m flip" was an action at +inf seconds).
        #expect(ValueSyntax.seconds("01e308m") == nil)
        #expect(ValueSyntax.seconds("inf") == nil && ValueSyntax.seconds("nan") == nil)
        #expect(ValueSyntax.seconds("1e308s") == 1e308)
    }

    @Test func sizes() {
        #expect(ValueSyntax.size("1280x720")! == (1280, 720))
        #expect(ValueSyntax.size("1280X720")! == (1280, 720))
        #expect(ValueSyntax.size("1281x720") == nil)   // odd: 4:2:0 needs even
        #expect(ValueSyntax.size("0x720") == nil)
        #expect(ValueSyntax.size("1280") == nil)
        #expect(ValueSyntax.size("axb") == nil)
    }

    @Test func frameRates() {
        #expect(ValueSyntax.frameRate("30") == Rational(30, 1))
        #expect(ValueSyntax.frameRate("30000/1001") == Rational(30000, 1001))
        #expect(ValueSyntax.frameRate("29.97") == Rational(2997, 100))
        #expect(ValueSyntax.frameRate("0") == nil)
        #expect(ValueSyntax.frameRate("5000") == nil)
    }
}

@Suite struct GeometryTests {
    @Test func portraitIsPillarboxedInLandscapeCanvas() {
        let rect = Fit.aspectFit(sourceWidth: 720, sourceHeight: 1280, canvasWidth: 1280, canvasHeight: 720)
        #expect(rect.height == 720)
        #expect(rect.width == 404)   // 405 rounded down to even
        #expect(rect.x == 438)
        #expect(rect.y == 0)
    }

    @Test func widerSourceIsLetterboxed() {
        let rect = Fit.aspectFit(sourceWidth: 854, sourceHeight: 480, canvasWidth: 640, canvasHeight: 480)
        #expect(rect.width == 640)
        #expect(rect.height == 360)
        #expect(rect.y == 60)
    }

    @Test func sameAspectFillsCanvas() {
        let rect = Fit.aspectFit(sourceWidth: 1920, sourceHeight: 1080, canvasWidth: 1280, canvasHeight: 720)
        #expect(rect == PixelRect(x: 0, y: 0, width: 1280, height: 720))
    }

    @Test func rotationNormalizesAngles() {
        #expect(Rotation(clockwiseDegrees: 90) == .clockwise90)
        #expect(Rotation(clockwiseDegrees: -90) == .clockwise270)
        #expect(Rotation(clockwiseDegrees: 450) == .clockwise90)
        #expect(Rotation(clockwiseDegrees: 180.2) == .upsideDown)
        #expect(Rotation.clockwise90.upright(width: 1280, height: 720) == (720, 1280))
        #expect(Rotation.upsideDown.upright(width: 1280, height: 720) == (1280, 720))
    }

    /// Found by fuzzing (scripts/fuzz.sh media): an all-zero display matrix makes
    /// av_display_rotation_get answer NaN, which trapped converting to Int and crashed probing.
    @Test func rotationOfNoAngleIsNone() {
        #expect(Rotation(clockwiseDegrees: .nan) == .none)
        #expect(Rotation(clockwiseDegrees: .infinity) == .none)
        #expect(Rotation(clockwiseDegrees: -.infinity) == .none)
        #expect(Rotation(clockwiseDegrees: 1e300) == .none)   // beyond Int: must not trap either
        #expect(Rotation(clockwiseDegrees: -3690) == .clockwise270)
    }
}
