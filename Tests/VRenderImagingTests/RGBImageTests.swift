import Foundation
import Testing
import VRenderImaging

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
