import Testing
import VRenderCore
import VRenderImaging

/// Text in the 5×7 bitmap font: where its dots land, and how it is clipped at each edge.
@Suite struct TextDrawingTests {
    private static let white: (r: UInt8, g: UInt8, b: UInt8) = (255, 255, 255)

    private static func isLit(_ image: RGBImage, _ x: Int, _ y: Int) -> Bool {
        image.pixels[(y * image.width + x) * 3] == 255
    }

    /// The lit pixels' bounding box as (minX, minY, maxX, maxY), nil when none is lit.
    private static func litBox(_ image: RGBImage) -> (Int, Int, Int, Int)? {
        var box: (Int, Int, Int, Int)?
        for y in 0..<image.height {
            for x in 0..<image.width where isLit(image, x, y) {
                box = box.map { (min($0.0, x), min($0.1, y), max($0.2, x), max($0.3, y)) } ?? (x, y, x, y)
            }
        }
        return box
    }

    @Test func dotsAreScaledBlocksOneGlyphPlusAGapApart() {
        // "1" is 0b00100 on top, 0b01110 at the bottom; "L" starts with 0b10000.
        var dots: [[Int]] = []
        BitmapFont.forEachDot(of: "1L", scale: 3) { x, y in dots.append([x, y]) }
        #expect(dots.first == [2 * 3, 0])                        // the top of the 1
        #expect(dots.contains([1 * 3, 6 * 3]) && dots.contains([3 * 3, 6 * 3]))
        #expect(dots.contains([BitmapFont.advance(scale: 3), 0])) // the L, one glyph and a gap on
        #expect(!dots.contains([0, 0]))
        var unknown = 0
        BitmapFont.forEachDot(of: "~", scale: 1) { _, _ in unknown += 1 }
        #expect(unknown == 0)
    }

    @Test func textIsDrawnAsCapitalsAtItsCorner() {
        var lower = RGBImage(width: 40, height: 20), upper = RGBImage(width: 40, height: 20)
        lower.draw(text: "ok", x: 3, y: 4, scale: 2, color: Self.white)
        upper.draw(text: "OK", x: 3, y: 4, scale: 2, color: Self.white)
        #expect(lower == upper)
        // O's widest rows span its five columns; K's last column reaches the text's right edge.
        let box = Self.litBox(upper)
        #expect(box?.0 == 3 && box?.1 == 4)
        #expect(box?.2 == 3 + RGBImage.textWidth("OK", scale: 2) - 1 && box?.3 == 4 + 7 * 2 - 1)
    }

    /// Text hanging over each edge (and a corner) keeps exactly the pixels that fall inside:
    /// each is compared with the same text drawn whole on a larger canvas.
    @Test(arguments: [(-4, 3), (14, 3), (3, -6), (3, 9), (-4, -6), (14, 9), (40, 0), (0, -30)])
    func textIsClippedAtEveryEdge(x: Int, y: Int) {
        let text = "8#", scale = 2, margin = 40
        var whole = RGBImage(width: 20 + 2 * margin, height: 16 + 2 * margin)
        whole.draw(text: text, x: x + margin, y: y + margin, scale: scale, color: Self.white)
        var clipped = RGBImage(width: 20, height: 16)
        clipped.draw(text: text, x: x, y: y, scale: scale, color: Self.white)
        for row in 0..<clipped.height {
            for column in 0..<clipped.width {
                #expect(Self.isLit(clipped, column, row) == Self.isLit(whole, column + margin, row + margin),
                        "pixel (\(column), \(row)) with the text at (\(x), \(y))")
            }
        }
    }

    @Test func labelsAreCentredUnderTheirTiles() throws {
        let tile = RGBImage(width: 30, height: 10, fill: (90, 90, 90))
        let sheet = RGBImage.grid([tile, tile], labels: ["I", ""], columns: 2, gap: 4)
        // "I" is 0b01110 in its first row: its ink starts one dot in and is three dots wide.
        let left = 4 + (30 - RGBImage.textWidth("I")) / 2
        let top = 4 + 10 + 5
        let box = try #require(Self.litBox(sheet))
        #expect(box.0 == left + 2 && box.2 == left + 4 * 2 - 1)
        #expect(box.1 == top && box.3 == top + 7 * 2 - 1)
    }
}
