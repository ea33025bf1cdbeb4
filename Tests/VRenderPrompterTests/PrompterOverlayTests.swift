import Testing
import VRenderCore
import VRenderImaging
import VRenderPrompter

/// One prompter frame: the box, the text inside its viewport, scrolling by whole pixels.
@Suite struct PrompterOverlayTests {
    static let font: TextFont = {
        do { return try TextFont() } catch { fatalError("the prompter's fonts: \(error)") }
    }()

    static let script = "Olá! Vamos gravar a próxima cena: atenção à iluminação, coração. Depois, o plano geral."

    static let appearance = PrompterOverlay.Appearance(
        box: PixelRect(x: 20, y: 10, width: 360, height: 120), cornerRadius: 16, padding: 12, fadeHeight: 24)

    static func overlay(_ appearance: PrompterOverlay.Appearance = appearance) -> PrompterOverlay {
        let layout = TextLayout(text: script, font: font, pixelSize: 22, lineSpacing: 4, width: appearance.textWidth)
        return PrompterOverlay(layout: layout, font: font, appearance: appearance)
    }

    /// An 8-bit 4:2:0 picture in arrays, luma `background`, chroma neutral-ish.
    struct Picture {
        let width: Int, height: Int
        var luma: [UInt8], cb: [UInt8], cr: [UInt8]

        init(width: Int, height: Int, background: UInt8 = 120) {
            self.width = width
            self.height = height
            luma = Array(repeating: background, count: width * height)
            let chroma = ((width + 1) / 2) * ((height + 1) / 2)
            cb = Array(repeating: 90, count: chroma)
            cr = Array(repeating: 160, count: chroma)
        }

        mutating func draw(_ overlay: PrompterOverlay, offset: Double) {
            let (width, height) = (self.width, self.height)
            luma.withUnsafeMutableBufferPointer { y in
                cb.withUnsafeMutableBufferPointer { u in
                    cr.withUnsafeMutableBufferPointer { v in
                        let chromaWidth = (width + 1) / 2, chromaHeight = (height + 1) / 2
                        overlay.draw(into: YUVImage(
                            luma: PlaneView(base: y.baseAddress!, stride: width, width: width, height: height),
                            cb: PlaneView(base: u.baseAddress!, stride: chromaWidth, width: chromaWidth, height: chromaHeight),
                            cr: PlaneView(base: v.baseAddress!, stride: chromaWidth, width: chromaWidth, height: chromaHeight)),
                            offset: offset)
                    }
                }
            }
        }

        func luma(_ x: Int, _ y: Int) -> UInt8 { luma[y * width + x] }
    }

    @Test func theViewportIsTheBoxLessItsTopAndBottomPadding() {
        let appearance = Self.appearance
        #expect(appearance.viewport == PixelRect(x: 20, y: 22, width: 360, height: 96))
        #expect(appearance.textWidth == 336 && appearance.textLeft == 32 && appearance.boxOpacity == 0.55)
    }

    @Test func theBoxDarkensAndTheTextStaysInsideTheViewport() {
        var picture = Picture(width: 400, height: 160), boxOnly = Picture(width: 400, height: 160)
        picture.draw(Self.overlay(), offset: 0)
        let empty = TextLayout(text: "", font: Self.font, pixelSize: 22, width: Self.appearance.textWidth)
        boxOnly.draw(PrompterOverlay(layout: empty, font: Self.font, appearance: Self.appearance), offset: 0)
        let viewport = Self.appearance.viewport
        // Darkened box: 120 + (16 − 120) × 0.55 = 62.8 → 63. Outside: untouched.
        #expect(boxOnly.luma(200, 12) == 63 && boxOnly.luma(200, 5) == 120 && boxOnly.luma(10, 60) == 120)
        #expect(boxOnly.luma(20, 10) == 120 && boxOnly.luma(21, 11) == 120)   // the rounded corner
        // Ink (what the text adds to the box) only inside the viewport, from its top.
        var inkRows = Set<Int>()
        for y in 0..<160 {
            for x in 0..<400 where picture.luma(x, y) != boxOnly.luma(x, y) {
                inkRows.insert(y)
                #expect(x >= 32 && x < 380 && y >= viewport.y && y < viewport.y + viewport.height, "ink at (\(x), \(y))")
            }
        }
        #expect(inkRows.count > 40 && inkRows.min()! < viewport.y + 8)
    }

    @Test func scrollingMovesTheTextByWholePixels() {
        // No fade, so the text inside the viewport is the same picture, moved up.
        var appearance = Self.appearance
        appearance.fadeHeight = 0
        let overlay = Self.overlay(appearance)
        var still = Picture(width: 400, height: 160), scrolled = Picture(width: 400, height: 160)
        still.draw(overlay, offset: 0)
        scrolled.draw(overlay, offset: 7)
        let viewport = appearance.viewport
        for y in viewport.y..<(viewport.y + viewport.height - 7) {
            for x in 40..<360 {
                #expect(scrolled.luma(x, y) == still.luma(x, y + 7), "(\(x), \(y))")
            }
        }
        // Fractional offsets round to the nearest pixel.
        var nearly = Picture(width: 400, height: 160), past = Picture(width: 400, height: 160)
        nearly.draw(overlay, offset: 6.6)
        past.draw(overlay, offset: 7.4)
        #expect(nearly.luma == scrolled.luma && past.luma == scrolled.luma)
    }

    @Test func scrollingPastTheEndLeavesAnEmptyBox() {
        let overlay = Self.overlay()
        var picture = Picture(width: 400, height: 160)
        picture.draw(overlay, offset: overlay.layout.height + 1)
        let box = Self.appearance.box
        #expect((box.y + 20..<box.y + box.height - 20).allSatisfy { y in
            (box.x + 20..<box.x + box.width - 20).allSatisfy { picture.luma($0, y) == 63 }
        })
    }

    @Test func aBoxPastThePicturesEdgeIsCutAndTenBitMatchesEightBit() {
        let appearance = PrompterOverlay.Appearance(box: PixelRect(x: -40, y: -30, width: 220, height: 110),
                                                    cornerRadius: 20, padding: 12, fadeHeight: 30)
        let overlay = Self.overlay(appearance)
        var eight = Picture(width: 199, height: 95)
        eight.draw(overlay, offset: 35.5)
        var luma = eight.luma.map { UInt16($0) << 2 }, cb = eight.cb.map { _ in UInt16(90 << 2) }
        var cr = eight.cr.map { _ in UInt16(160 << 2) }
        for index in luma.indices { luma[index] = 120 << 2 }
        luma.withUnsafeMutableBytes { y in
            cb.withUnsafeMutableBytes { u in
                cr.withUnsafeMutableBytes { v in
                    overlay.draw(into: YUVImage16(
                        luma: PlaneView16(base: y.baseAddress!, strideBytes: 2 * 199, width: 199, height: 95),
                        cb: PlaneView16(base: u.baseAddress!, strideBytes: 2 * 100, width: 100, height: 48),
                        cr: PlaneView16(base: v.baseAddress!, strideBytes: 2 * 100, width: 100, height: 48), bitDepth: 10),
                        offset: 35.5)
                }
            }
        }
        #expect(zip(luma, eight.luma).allSatisfy { abs(Int($0 >> 2) - Int($1)) <= 1 })
        #expect(zip(cb, eight.cb).allSatisfy { abs(Int($0 >> 2) - Int($1)) <= 1 })
        #expect(eight.luma(0, 0) == 63 && eight.luma(198, 94) == 120 && eight.luma.contains { $0 > 150 })
    }
}
