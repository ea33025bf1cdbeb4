import CFFmpeg
import Foundation
import Testing
import VRenderCore
@testable import VRenderMedia

@Suite struct JPEGEncoderTests {
    /// A picture with detail in every plane: diagonal luma ramps and chroma gradients.
    private func pattern(width: Int, height: Int) throws -> Frame {
        let frame = try Frame.picture(width: width, height: height)
        let image = frame.yuvImage()
        for y in 0..<image.luma.height {
            let row = image.luma.row(y)
            for x in 0..<image.luma.width { row[x] = UInt8(16 + (x * 3 + y * 2) % 220) }
        }
        for y in 0..<image.cb.height {
            for x in 0..<image.cb.width {
                image.cb.row(y)[x] = UInt8(64 + (x * 4) % 128)
                image.cr.row(y)[x] = UInt8(64 + (y * 4) % 128)
            }
        }
        return frame
    }

    /// PSNR of one plane of `decoded` against the same plane of `original`.
    private func psnr(_ original: PlaneView, _ decoded: PlaneView) -> Double {
        var squares = 0.0
        for y in 0..<original.height {
            for x in 0..<original.width {
                let difference = Double(original.row(y)[x]) - Double(decoded.row(y)[x])
                squares += difference * difference
            }
        }
        let mean = squares / Double(original.width * original.height)
        return mean == 0 ? 99 : 10 * log10(255 * 255 / mean)
    }

    @Test(arguments: [(320, 240), (161, 97), (2, 2), (33, 2)])
    func encodedPictureDecodesBackClose(size: (Int, Int)) throws {
        let original = try pattern(width: size.0, height: size.1)
        let encoder = try JPEGEncoder(quality: 2)
        let jpeg = try encoder.jpeg(of: original)
        #expect(jpeg.starts(with: [0xFF, 0xD8]), "starts with a JPEG SOI marker")
        #expect(jpeg.suffix(2).elementsEqual([0xFF, 0xD9]), "ends with an EOI marker")

        let decoded = Frame()
        let ok = try jpeg.withUnsafeBytes { try MJPEGDecoder().decode($0, into: decoded) }
        #expect(ok)
        #expect(decoded.width == size.0 && decoded.height == size.1)
        let before = original.yuvImage(), after = decoded.yuvImage()
        #expect(psnr(before.luma, after.luma) > 30)
        #expect(psnr(before.cb, after.cb) > 30)
        #expect(psnr(before.cr, after.cr) > 30)
    }

    @Test func yuvImageViewAndFrameGiveTheSameJPEG() throws {
        let original = try pattern(width: 64, height: 48)
        let encoder = try JPEGEncoder()
        let fromFrame = try encoder.jpeg(of: original)
        let fromImage = try encoder.encode(original.yuvImage()) { Array($0) }
        #expect(fromFrame == fromImage)
    }

    @Test func reusesOneContextWhileTheSizeStays() throws {
        let encoder = try JPEGEncoder()
        let small = try pattern(width: 64, height: 48), large = try pattern(width: 128, height: 96)
        let first = try encoder.jpeg(of: small)
        #expect(try encoder.jpeg(of: small) == first, "the same picture encodes to the same bytes")
        #expect(try encoder.jpeg(of: large) != first)
        #expect(try encoder.jpeg(of: small) == first, "a size change reopens the codec cleanly")
        #expect(encoder.contextsOpened == 3)
    }

    @Test func lowerQualityMakesSmallerFiles() throws {
        let picture = try pattern(width: 320, height: 240)
        let best = try JPEGEncoder(quality: 2).jpeg(of: picture)
        let worst = try JPEGEncoder(quality: 31).jpeg(of: picture)
        #expect(worst.count < best.count)
    }

    @Test func refusesTinyPicturesAndBadQualityClearly() throws {
        let encoder = try JPEGEncoder()
        for (width, height) in [(1, 1), (1, 8), (8, 1)] {
            let tiny = try pattern(width: width, height: height)
            let error = #expect(throws: VRenderError.self) { try encoder.jpeg(of: tiny) }
            #expect(error?.kind == .input)
            #expect(error?.description.contains("\(width)x\(height)") == true)
        }
        let error = #expect(throws: VRenderError.self) { try JPEGEncoder(quality: 1) }
        #expect(error?.subject == "quality")
        #expect(throws: VRenderError.self) { try JPEGEncoder(quality: 32) }
    }

    @Test func refusesFullRangeFrames() throws {
        let frame = try pattern(width: 16, height: 16)
        frame.pointer.pointee.color_range = AVCOL_RANGE_JPEG
        #expect(throws: VRenderError.self) { try JPEGEncoder().jpeg(of: frame) }
    }
}
