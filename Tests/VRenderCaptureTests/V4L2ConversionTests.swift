import Foundation
import Testing
import VRenderCore
import VRenderMedia
import VRenderTestSupport

/// Capture-buffer conversion (VRenderMedia's `RawPictureConverter` and `MJPEGDecoder`) on
/// pictures whose every sample is known.
@Suite struct V4L2ConversionTests {
    /// Test pattern: luma rises with x and y; chroma is constant down each column pair, so 4:2:2
    /// → 4:2:0 must keep it exactly whichever rows the converter takes chroma from.
    static func luma(_ x: Int, _ y: Int) -> UInt8 { UInt8(16 + 6 * x + 2 * y) }
    static func cb(_ pair: Int) -> UInt8 { UInt8(40 + 20 * pair) }
    static func cr(_ pair: Int) -> UInt8 { UInt8(220 - 20 * pair) }

    /// Packed YUYV (Y0 U Y1 V), rows `bytesPerLine` apart, padding filled with junk.
    static func yuyv(width: Int, height: Int, bytesPerLine: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0xEE, count: bytesPerLine * height)
        for y in 0..<height {
            for pair in 0..<(width / 2) {
                let at = y * bytesPerLine + pair * 4
                bytes[at] = luma(2 * pair, y)
                bytes[at + 1] = cb(pair)
                bytes[at + 2] = luma(2 * pair + 1, y)
                bytes[at + 3] = cr(pair)
            }
        }
        return bytes
    }

    private func expectPattern(_ frame: Frame, width: Int, height: Int) {
        let image = frame.yuvImage()
        #expect(image.width == width && image.height == height)
        var lumaMismatches = 0, chromaMismatches = 0
        for y in 0..<height {
            for x in 0..<width where image.luma.row(y)[x] != Self.luma(x, y) { lumaMismatches += 1 }
        }
        for y in 0..<(height / 2) {
            for pair in 0..<(width / 2) where image.cb.row(y)[pair] != Self.cb(pair) || image.cr.row(y)[pair] != Self.cr(pair) {
                chromaMismatches += 1
            }
        }
        #expect(lumaMismatches == 0)
        #expect(chromaMismatches == 0)
    }

    @Test func yuyvBecomes420WithEverySampleKept() throws {
        let width = 16, height = 8, bytesPerLine = 40  // 8 bytes of row padding, as drivers may add
        let buffer = Self.yuyv(width: width, height: height, bytesPerLine: bytesPerLine)
        let frame = try Frame.picture(width: width, height: height)
        try buffer.withUnsafeBytes {
            try RawPictureConverter().convert($0, layout: .yuyv, width: width, height: height,
                                              bytesPerLine: bytesPerLine, into: frame)
        }
        expectPattern(frame, width: width, height: height)
        #expect(frame.isPlanar420LimitedRange)
    }

    @Test func nv12AndPlanar420ConvertExactly() throws {
        let width = 16, height = 8
        var nv12: [UInt8] = [], i420: [UInt8] = []
        for y in 0..<height { for x in 0..<width { nv12.append(Self.luma(x, y)) } }
        i420 = nv12
        for _ in 0..<(height / 2) { for pair in 0..<(width / 2) { nv12 += [Self.cb(pair), Self.cr(pair)] } }
        for _ in 0..<(height / 2) { for pair in 0..<(width / 2) { i420.append(Self.cb(pair)) } }
        for _ in 0..<(height / 2) { for pair in 0..<(width / 2) { i420.append(Self.cr(pair)) } }

        let converter = RawPictureConverter()
        let fromNV12 = Frame()  // no buffers yet: the converter allocates the picture
        try nv12.withUnsafeBytes {
            try converter.convert($0, layout: .nv12, width: width, height: height, bytesPerLine: width, into: fromNV12)
        }
        expectPattern(fromNV12, width: width, height: height)
        let fromI420 = try Frame.picture(width: width, height: height)
        try i420.withUnsafeBytes {
            try converter.convert($0, layout: .yuv420p, width: width, height: height, bytesPerLine: width, into: fromI420)
        }
        expectPattern(fromI420, width: width, height: height)
    }

    /// Digital zoom 2x: the centre quarter of the picture, scaled back to full size.
    @Test func aCropIsScaledBackToTheFullPicture() throws {
        let width = 64, height = 32
        // A bright centre (the crop) in a dark surround that must not bleed in.
        var buffer = [UInt8](repeating: 0, count: width * 2 * height)
        for y in 0..<height {
            for x in 0..<width {
                let inside = (16..<48).contains(x) && (8..<24).contains(y)
                buffer[y * width * 2 + x * 2] = inside ? 200 : 30
                buffer[y * width * 2 + x * 2 + 1] = (x % 2 == 0) ? (inside ? 90 : 128) : (inside ? 160 : 128)
            }
        }
        let frame = try Frame.picture(width: width, height: height)
        try buffer.withUnsafeBytes {
            try RawPictureConverter().convert($0, layout: .yuyv, width: width, height: height, bytesPerLine: width * 2,
                                              crop: PixelRect(x: 16, y: 8, width: 32, height: 16), into: frame)
        }
        let image = frame.yuvImage()
        #expect(image.width == width && image.height == height)
        var lumaValues = Set<UInt8>(), cbValues = Set<UInt8>(), crValues = Set<UInt8>()
        for y in 0..<height { for x in 0..<width { lumaValues.insert(image.luma.row(y)[x]) } }
        for y in 0..<(height / 2) {
            for x in 0..<(width / 2) {
                cbValues.insert(image.cb.row(y)[x])
                crValues.insert(image.cr.row(y)[x])
            }
        }
        #expect(lumaValues == [200])
        #expect(cbValues == [90])
        #expect(crValues == [160])
    }

    @Test func aTruncatedBufferIsRejected() throws {
        let frame = try Frame.picture(width: 16, height: 8)
        let short = [UInt8](repeating: 0, count: 100)
        #expect(throws: VRenderError.self) {
            try short.withUnsafeBytes {
                try RawPictureConverter().convert($0, layout: .yuyv, width: 16, height: 8, bytesPerLine: 32, into: frame)
            }
        }
        #expect(RawPictureConverter.requiredBytes(layout: .nv12, width: 640, height: 480, bytesPerLine: 640) == 460_800)
        #expect(RawPictureConverter.requiredBytes(layout: .yuv420p, width: 640, height: 480, bytesPerLine: 640) == 460_800)
    }

    /// An MJPEG webcam's picture: full-range 4:2:2 JPEG, white left half, black right half,
    /// made by the ffmpeg CLI (an independent encoder).
    @Test func mjpegDecodesToLimitedRange420() throws {
        let directory = TestMedia.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/halves.jpg"
        let made = ProgramRun.run("/usr/bin/ffmpeg", [
            "-v", "error", "-y", "-f", "lavfi",
            "-i", "color=c=white:s=32x48,format=yuvj422p[a];color=c=black:s=32x48,format=yuvj422p[b];[a][b]hstack",
            "-frames:v", "1", "-c:v", "mjpeg", "-q:v", "2", "-pix_fmt", "yuvj422p", path,
        ])
        #expect(made.status == 0, "\(made.standardError)")
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: path))

        let decoder = try MJPEGDecoder()
        let frame = try Frame.picture(width: 64, height: 48)
        let decoded = try jpeg.withUnsafeBytes { try decoder.decode($0, into: frame) }
        #expect(decoded)
        #expect(frame.isPlanar420LimitedRange)
        let image = frame.yuvImage()
        let white = Int(image.luma.row(24)[8]), black = Int(image.luma.row(24)[56])
        #expect(abs(white - 235) <= 2, "white luma \(white)")
        #expect(abs(black - 16) <= 2, "black luma \(black)")
        #expect(abs(Int(image.cb.row(12)[4]) - 128) <= 2)

        // Zoomed 2x on the left half's centre: all white.
        let zoomed = try Frame.picture(width: 64, height: 48)
        #expect(try jpeg.withUnsafeBytes { try decoder.decode($0, crop: PixelRect(x: 0, y: 12, width: 30, height: 24), into: zoomed) })
        let zoomedImage = zoomed.yuvImage()
        #expect(abs(Int(zoomedImage.luma.row(10)[60]) - 235) <= 2)
        #expect(decoder.damaged == 0)
    }

    @Test func damagedMJPEGIsSkippedAndCounted() throws {
        let decoder = try MJPEGDecoder()
        let frame = try Frame.picture(width: 64, height: 48)
        let garbage = [UInt8](repeating: 0x5A, count: 512)
        #expect(try garbage.withUnsafeBytes { try decoder.decode($0, into: frame) } == false)
        #expect(try [UInt8]().withUnsafeBytes { try decoder.decode($0, into: frame) } == false)
        #expect(decoder.damaged == 2)
    }

    /// The pattern as a 4:2:0 frame (chroma constant down each column pair, as above).
    static func patternFrame(width: Int, height: Int) throws -> Frame {
        let frame = try Frame.picture(width: width, height: height)
        let image = frame.yuvImage()
        for y in 0..<height { for x in 0..<width { image.luma.row(y)[x] = luma(x, y) } }
        for y in 0..<(height / 2) {
            for pair in 0..<(width / 2) {
                image.cb.row(y)[pair] = cb(pair)
                image.cr.row(y)[pair] = cr(pair)
            }
        }
        return frame
    }

    /// What an output device is given (`write`), read back as capture reads it: the same
    /// picture in every layout, rows padded as a driver may ask.
    @Test(arguments: RawPictureConverter.Layout.allCases)
    func writtenPicturesReadBackTheSame(layout: RawPictureConverter.Layout) throws {
        let width = 16, height = 8, bytesPerLine = layout == .yuyv ? 40 : 24
        let frame = try Self.patternFrame(width: width, height: height)
        var buffer = [UInt8](repeating: 0xEE, count: RawPictureConverter.requiredBytes(layout: layout, width: width, height: height,
                                                                                        bytesPerLine: bytesPerLine))
        let converter = RawPictureConverter()
        try buffer.withUnsafeMutableBytes { try converter.write(frame, into: $0, layout: layout, bytesPerLine: bytesPerLine) }
        let back = try Frame.picture(width: width, height: height)
        try buffer.withUnsafeBytes {
            try converter.convert($0, layout: layout, width: width, height: height, bytesPerLine: bytesPerLine, into: back)
        }
        expectPattern(back, width: width, height: height)
    }

    @Test func aTooSmallOutputBufferIsRefused() throws {
        let frame = try Self.patternFrame(width: 16, height: 8)
        var buffer = [UInt8](repeating: 0, count: 100)
        #expect(throws: VRenderError.self) {
            try buffer.withUnsafeMutableBytes { try RawPictureConverter().write(frame, into: $0, layout: .yuyv, bytesPerLine: 32) }
        }
    }
}
