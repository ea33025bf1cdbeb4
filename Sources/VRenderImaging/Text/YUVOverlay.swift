import VRenderCore

/// Drawing the teleprompter onto limited-range ("TV") Y'CbCr pictures, 8-bit or 10/12-bit,
/// 4:2:0, 4:2:2 or 4:4:4 of any size, with no trip through RGB: a darkened rounded box and
/// white text. Both move each sample toward a target (black Y' 16 or white Y' 235, neutral
/// chroma 128, scaled by `<< (bitDepth − 8)`) by an opacity; a chroma sample moves by the
/// mean opacity over its luma block. Only samples under the shape are read or written, and
/// the arithmetic is integer, so pictures are bit-identical on every run and thread count.
package enum YUVOverlay {
    /// Darkens `rect` (clipped to the picture) toward black by `opacity` (0…1), its corners
    /// rounded to `cornerRadius` pixels with anti-aliased edges.
    package static func darken(_ image: YUVImage, roundedRect rect: PixelRect, cornerRadius: Double, opacity: Double) {
        darken(image, rect, cornerRadius, opacity, bitDepth: 8)
    }

    /// Darkens `rect` of a 10- or 12-bit picture; see the 8-bit `darken`.
    package static func darken(_ image: YUVImage16, roundedRect rect: PixelRect, cornerRadius: Double, opacity: Double) {
        darken(image, rect, cornerRadius, opacity, bitDepth: image.bitDepth)
    }

    /// Draws `layout`'s lines in white, the text's top-left corner at (`left`, `top` −
    /// `offset`), cut to `clip`, fading to nothing over the last `fadeHeight` rows of `clip`.
    ///
    /// `offset` (pixels, the scroll position) may be fractional; the text moves in whole
    /// pixels: its top is `top − ⌊offset + ½⌋`, so every line moves together, glyphs stay as
    /// rasterized (sharp) and the position never steps backwards as `offset` grows.
    ///
    /// `level` is the text's luma from black (0) to nominal white (1): 1 for SDR; an HDR
    /// picture passes its graphics white (`YUVOverlay.GraphicsWhite`), since nominal white is
    /// the brightest the format can show (10 000 cd/m² in PQ).
    package static func drawText(_ layout: TextLayout, font: TextFont, into image: YUVImage,
                                left: Int, top: Int, offset: Double, clip: PixelRect, fadeHeight: Int, level: Double = 1) {
        drawText(layout, font, image, left, top, offset, clip, fadeHeight, level, bitDepth: 8)
    }

    /// Draws text onto a 10- or 12-bit picture; see the 8-bit `drawText`.
    package static func drawText(_ layout: TextLayout, font: TextFont, into image: YUVImage16,
                                left: Int, top: Int, offset: Double, clip: PixelRect, fadeHeight: Int, level: Double = 1) {
        drawText(layout, font, image, left, top, offset, clip, fadeHeight, level, bitDepth: image.bitDepth)
    }

    /// Text's level in an HDR picture: ITU-R BT.2408's graphics white, 203 cd/m², which is
    /// 58% of PQ's signal range and 75% of HLG's.
    package enum GraphicsWhite {
        package static let pq = 0.58
        package static let hlg = 0.75
    }

    private static func darken<Image: PlanarYUV>(_ image: Image, _ rect: PixelRect, _ cornerRadius: Double,
                                                 _ opacity: Double, bitDepth: Int)
    where Image.Plane.Sample: FixedWidthInteger & UnsignedInteger {
        guard let mask = AlphaMask.roundedRect(rect, cornerRadius: cornerRadius, opacity: opacity,
                                               pictureWidth: image.width, pictureHeight: image.height) else { return }
        mask.blend(onto: image, luma: 16 << (bitDepth - 8), chroma: 128 << (bitDepth - 8))
    }

    private static func drawText<Image: PlanarYUV>(_ layout: TextLayout, _ font: TextFont, _ image: Image,
                                                   _ left: Int, _ top: Int, _ offset: Double, _ clip: PixelRect,
                                                   _ fadeHeight: Int, _ level: Double, bitDepth: Int)
    where Image.Plane.Sample: FixedWidthInteger & UnsignedInteger {
        // Beyond a billion pixels every line is far outside any clip; clamping keeps Int in range.
        guard !offset.isNaN else { return }
        let shift = Int((Swift.min(Swift.max(offset, -1e9), 1e9) + 0.5).rounded(.down))
        guard let mask = AlphaMask.text(layout, font: font, left: left, top: top - shift, clip: clip,
                                        fadeHeight: fadeHeight, pictureWidth: image.width, pictureHeight: image.height)
        else { return }
        let black = 16 << (bitDepth - 8), range = 219 << (bitDepth - 8)
        let luma = black + Int((Swift.min(Swift.max(level, 0), 1) * Double(range)).rounded())
        mask.blend(onto: image, luma: luma, chroma: 128 << (bitDepth - 8))
    }
}
