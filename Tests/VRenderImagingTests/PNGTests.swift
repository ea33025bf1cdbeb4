import Foundation
import Testing
import VRenderTestSupport
import VRenderCore
import VRenderImaging

/// `PNGWriter` and `PNGReader`: what is written reads back pixel for pixel, and failures name
/// the file and leave nothing behind.
@Suite final class PNGTests {
    /// A fresh folder for each test, removed after it.
    private let scratch = ScratchFolder()
    private var folder: String { scratch.path }

    /// A picture with every channel varying, so a swapped channel or a shifted row shows.
    private static func pattern(width: Int, height: Int) -> RGBImage {
        var image = RGBImage(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let index = (y * width + x) * 3
                image.pixels[index] = UInt8(truncatingIfNeeded: x * 7 + y)
                image.pixels[index + 1] = UInt8(truncatingIfNeeded: y * 13)
                image.pixels[index + 2] = UInt8(truncatingIfNeeded: (x ^ y) * 29)
            }
        }
        image.draw(text: "PNG 42", x: 2, y: 2, scale: 1)
        return image
    }

    @Test(arguments: [(1, 1), (17, 5), (640, 360)])
    func writtenPictureReadsBackPixelForPixel(width: Int, height: Int) throws {
        let image = Self.pattern(width: width, height: height)
        try PNGWriter.write(image, to: folder + "/a.png")
        #expect(try PNGReader.read(folder + "/a.png") == image)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["a.png"])
    }

    @Test func noisePictureLargerThanItsPixelsStillWrites() throws {
        // Pseudo-random bytes do not compress: with a chunk header every 8 KiB, libpng needs
        // more room than the raw pixels of a picture this size.
        var image = RGBImage(width: 640, height: 480)
        var random = SplitMix64(seed: 7)
        for index in image.pixels.indices { image.pixels[index] = UInt8(truncatingIfNeeded: random.next()) }
        try PNGWriter.write(image, to: folder + "/noise.png")
        #expect(try PNGReader.read(folder + "/noise.png") == image)
    }

    @Test func writingIntoAMissingFolderNamesTheFile() throws {
        let path = folder + "/missing/a.png"
        do {
            try PNGWriter.write(RGBImage(width: 2, height: 2), to: path)
            Issue.record("wrote into a folder that does not exist")
        } catch let error as VRenderError {
            #expect(error.kind == .output && error.subject == path)
        }
    }

    @Test func emptyPictureIsRefused() throws {
        #expect(throws: VRenderError.self) { try PNGWriter.write(RGBImage(width: 0, height: 4), to: folder + "/a.png") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }

    @Test func readingSomethingElseNamesTheFile() throws {
        let path = folder + "/fake.png"
        #expect(FileManager.default.createFile(atPath: path, contents: Data("not a picture".utf8)))
        do {
            _ = try PNGReader.read(path)
            Issue.record("read a text file as a PNG")
        } catch let error as VRenderError {
            #expect(error.kind == .input && error.subject == path)
        }
    }
}
