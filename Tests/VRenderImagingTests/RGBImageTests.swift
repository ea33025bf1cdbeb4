import Foundation
import Testing
@testable import VRenderImaging

@Suite struct RGBImageTests {
    @Test func pasteClipsAtTheRightAndBottomEdges() {
        var canvas = RGBImage(width: 4, height: 3)
        canvas.paste(RGBImage(width: 3, height: 3, fill: (255, 0, 0)), x: 2, y: 1)
        // Columns 2…3 of rows 1…2 are red; the rest stays black.
        for y in 0..<3 {
            for x in 0..<4 {
                let red = canvas.pixels[(y * 4 + x) * 3]
                #expect(red == (x >= 2 && y >= 1 ? 255 : 0), "pixel (\(x), \(y))")
            }
        }
    }

    @Test func pasteClipsAtTheLeftAndTopEdges() {
        var canvas = RGBImage(width: 4, height: 3)
        var tile = RGBImage(width: 3, height: 3)
        for index in stride(from: 0, to: tile.pixels.count, by: 3) { tile.pixels[index] = UInt8(index / 3 + 1) }
        canvas.paste(tile, x: -1, y: -2)
        // Only the tile's last row, less its first column, lands: tile pixels 7 and 8 at (0, 0), (1, 0).
        let reds = stride(from: 0, to: canvas.pixels.count, by: 3).map { canvas.pixels[$0] }
        #expect(reds == [8, 9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
    }

    @Test func gridLaysOutTilesWithLabels() {
        let tiles = [RGBImage](repeating: RGBImage(width: 10, height: 6, fill: (200, 200, 200)), count: 5)
        let sheet = RGBImage.grid(tiles, labels: ["A", "B", "C", "D", "E"], columns: 2, gap: 4)
        #expect(sheet.width == 4 + 2 * (10 + 4))
        #expect(sheet.height == 4 + 3 * (6 + 24 + 4))
        // The fifth tile's top-left pixel: third row, first column.
        let x = 4, y = 4 + 2 * (6 + 24 + 4)
        #expect(sheet.pixels[(y * sheet.width + x) * 3] == 200)
    }

    @Test("labels of several lines: each a line under the tile, too wide ones smaller, then shortened in the middle")
    func gridLabelsOfSeveralLines() {
        let tiles = [RGBImage](repeating: RGBImage(width: 60, height: 6, fill: (200, 200, 200)), count: 2)
        let sheet = RGBImage.grid(tiles, labels: ["1  3.00 s\nsegment_0001_a.mov", "2"], columns: 2, gap: 4)
        #expect(sheet.height == 4 + (6 + RGBImage.labelHeight(lines: 2) + 4))
        #expect(RGBImage.labelHeight(lines: 1) == 24 && RGBImage.labelHeight(lines: 0) == 0)
        #expect(RGBImage.fitted("1  3.00 s", width: 120) == ("1  3.00 s", 2))
        #expect(RGBImage.fitted("1  3.00 s", width: 60) == ("1  3.00 s", 1))
        let long = RGBImage.fitted("segment_0001_40F02985-08D0-44FC.mov", width: 60)
        #expect(long.scale == 1 && long.text == "segm...mov" && RGBImage.textWidth(long.text, scale: 1) <= 60)
        // Something is drawn on the second line under the first tile (the name), nothing there under the second.
        func lit(_ x0: Int, _ y0: Int, _ width: Int, _ height: Int) -> Bool {
            (y0..<y0 + height).contains { y in (x0..<x0 + width).contains { x in sheet.pixels[(y * sheet.width + x) * 3] > 100 } }
        }
        let secondLine = 4 + 6 + 5 + 18
        #expect(lit(4, secondLine, 60, 14) && !lit(4 + 64, secondLine, 60, 14))
    }

    @Test func pngFileStartsWithTheSignatureAndLeavesNoTemporary() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rgbimage-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var image = RGBImage(width: 17, height: 5)
        image.draw(text: "ok", x: 1, y: 1, scale: 1)
        try PNGWriter.write(image, to: folder + "/a.png")
        let bytes = try #require(FileManager.default.contents(atPath: folder + "/a.png"))
        #expect(Array(bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["a.png"])
    }
}
