import CFFmpeg
import Testing
import VRenderCore
@testable import VRenderMedia

/// `SwscaleContext`: rebuilt and given its colours once per conversion, not per frame; and its
/// users (normalizer, thumbnailer) convert range and matrix as they say.
@Suite struct SwscaleContextTests {
    private static func conversion(fullRange: Bool, size: Int = 16) -> SwscaleContext.Conversion {
        .init(source: .init(width: size, height: size, format: AV_PIX_FMT_YUV420P, fullRange: fullRange),
              destination: .init(width: size, height: size, format: AV_PIX_FMT_YUV420P, fullRange: false),
              filter: .bilinear)
    }

    @Test func coloursAreSetOncePerConversionNotPerFrame() throws {
        let source = try Frame.picture(width: 16, height: 16), destination = try Frame.picture(width: 16, height: 16)
        paint(source, luma: 255)
        let scaler = SwscaleContext()
        for _ in 0..<3 {
            try scaler.scale(Self.conversion(fullRange: true), from: Planes(source), rows: 16, into: Planes(destination))
        }
        #expect(scaler.configurations == 1)
        #expect(luma(destination, 5, 5) == 235)  // full-range white squeezed to TV white
        try scaler.scale(Self.conversion(fullRange: false), from: Planes(source), rows: 16, into: Planes(destination))
        try scaler.scale(Self.conversion(fullRange: false), from: Planes(source), rows: 16, into: Planes(destination))
        #expect(scaler.configurations == 2)
        #expect(luma(destination, 5, 5) == 255)  // already TV range: passed through
    }

    @Test func aFailedRebuildThrowsAndLeavesTheScalerUsable() throws {
        FFmpegLog.applyDefault()
        let source = try Frame.picture(width: 16, height: 16), destination = try Frame.picture(width: 16, height: 16)
        paint(source, luma: 100)
        let scaler = SwscaleContext()
        try scaler.scale(Self.conversion(fullRange: false), from: Planes(source), rows: 16, into: Planes(destination))
        var impossible = Self.conversion(fullRange: false)
        impossible.destination.width = 0
        #expect(throws: VRenderError.self) {
            try scaler.scale(impossible, from: Planes(source), rows: 16, into: Planes(destination))
        }
        paint(destination, luma: 0)
        try scaler.scale(Self.conversion(fullRange: false), from: Planes(source), rows: 16, into: Planes(destination))
        #expect(luma(destination, 3, 3) == 100)
    }

    @Test func planesAreReadAndWrittenByIndex() throws {
        let frame = try Frame.picture(width: 8, height: 8)
        var planes = Planes(frame)
        let chroma = frame.plane(1)
        #expect(planes[1].base == chroma.base.assumingMemoryBound(to: UInt8.self) && planes[1].stride == chroma.stride)
        planes[3] = (planes[0].base, 42)
        #expect(planes[3].base == planes[0].base && planes[3].stride == 42)
        #expect(Planes()[2].base == nil)
    }
}

@Suite struct ThumbnailerTests {
    @Test func keepsTheAspectRatioAndShowsTVRangeAsFullRGB() throws {
        let frame = try Frame.picture(width: 64, height: 32)
        let thumbnailer = Thumbnailer()
        paint(frame, luma: 235)
        let white = try thumbnailer.thumbnail(of: frame, width: 16)
        #expect(white.width == 16 && white.height == 8)
        #expect(white.pixels.allSatisfy { $0 >= 250 })  // swscale's fast YUV → RGB rounds to 253
        paint(frame, luma: 16)
        #expect(try thumbnailer.thumbnail(of: frame, width: 16).pixels.allSatisfy { $0 <= 5 })
    }

    /// An untagged HD frame is read as BT.709 (as players guess), an SD one as BT.601: pure red
    /// coded in each matrix shows as red. Read as BT.601, the HD red would come out at R 233.
    @Test(arguments: [(1280, 720, UInt8(63), UInt8(102)), (640, 480, UInt8(81), UInt8(90))])
    func untaggedFramesAreReadInTheMatrixTheirSizeImplies(width: Int, height: Int, luma: UInt8, cb: UInt8) throws {
        let frame = try Frame.picture(width: width, height: height)
        let image = frame.yuvImage()
        for y in 0..<image.luma.height { image.luma.row(y).update(repeating: luma, count: image.luma.width) }
        for y in 0..<image.cb.height {
            image.cb.row(y).update(repeating: cb, count: image.cb.width)
            image.cr.row(y).update(repeating: 240, count: image.cr.width)
        }
        let red = try Thumbnailer().thumbnail(of: frame, width: 32)
        let centre = (red.height / 2 * red.width + 16) * 3
        #expect(red.pixels[centre] >= 248, "R of \(width)x\(height)")
        #expect(red.pixels[centre + 1] <= 8 && red.pixels[centre + 2] <= 8, "G, B of \(width)x\(height)")
    }
}

@Suite struct NormalizerColourTests {
    /// A flat 16x16 picture through a 16x16 canvas normalizer targeting BT.709.
    private static func normalized(luma value: UInt8, chroma: UInt8, colour: ColourDescription) throws -> Frame {
        let source = try Frame.picture(width: 16, height: 16), canvas = try Frame.picture(width: 16, height: 16)
        paint(source, luma: value, chroma: chroma)
        try FrameNormalizer(canvasWidth: 16, canvasHeight: 16, target: .bt709)
            .normalize(source, rotation: .none, colour: colour, into: canvas)
        return canvas
    }

    @Test func fullRangeSourcesAreSqueezedToTVRange() throws {
        var fullRange = ColourDescription.bt709
        fullRange.fullRange = true
        #expect(luma(try Self.normalized(luma: 255, chroma: 128, colour: fullRange), 8, 8) == 235)
        #expect(luma(try Self.normalized(luma: 0, chroma: 128, colour: fullRange), 8, 8) == 16)
    }

    @Test func anotherMatrixIsConvertedThroughRGB() throws {
        // Grey has no chroma in any matrix; a colour's chroma changes between BT.601 and BT.709.
        let grey = try Self.normalized(luma: 120, chroma: 128, colour: .bt601)
        #expect(abs(Int(luma(grey, 8, 8)) - 120) <= 1)
        let kept = try Self.normalized(luma: 120, chroma: 200, colour: .bt709)
        let converted = try Self.normalized(luma: 120, chroma: 200, colour: .bt601)
        #expect(kept.yuvImage().cb.row(4)[4] == 200)
        #expect(converted.yuvImage().cb.row(4)[4] != 200)
    }
}
