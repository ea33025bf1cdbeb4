import VRenderCore

extension AlphaMask {
    /// A glyph bitmap placed on the picture: its top-left sample.
    private struct PlacedGlyph {
        let bitmap: GlyphBitmap
        let x: Int
        let y: Int
    }

    /// The coverage of `layout`'s glyphs with the text's top-left corner at (`left`, `top`),
    /// cut to `clip` and the picture, times a fade that falls linearly to 0 over the last
    /// `fadeHeight` rows of `clip`; nil when no ink is left. Glyphs whose edges overlap add
    /// their coverage (capped at full), which closes the seam where two anti-aliased edges
    /// meet; the fade scales the sum, so ink never grows toward the bottom.
    static func text(_ layout: TextLayout, font: TextFont, left: Int, top: Int, clip: PixelRect, fadeHeight: Int,
                     pictureWidth: Int, pictureHeight: Int) -> AlphaMask? {
        let clipColumns = Swift.max(clip.x, 0)..<Swift.max(Swift.max(clip.x, 0), Swift.min(clip.x + clip.width, pictureWidth))
        let clipRows = Swift.max(clip.y, 0)..<Swift.max(Swift.max(clip.y, 0), Swift.min(clip.y + clip.height, pictureHeight))
        let glyphs = placedGlyphs(layout, font: font, left: left, top: top, rows: clipRows)
        // The mask spans the ink inside the clip, not the whole clip.
        var inkColumns = 0..<0, inkRows = 0..<0
        for glyph in glyphs {
            let columns = (glyph.x..<(glyph.x + glyph.bitmap.width)).clamped(to: clipColumns)
            let rows = (glyph.y..<(glyph.y + glyph.bitmap.height)).clamped(to: clipRows)
            guard !columns.isEmpty && !rows.isEmpty else { continue }
            inkColumns = union(inkColumns, columns)
            inkRows = union(inkRows, rows)
        }
        guard !inkColumns.isEmpty && !inkRows.isEmpty else { return nil }
        var mask = AlphaMask(columns: inkColumns, rows: inkRows,
                             storage: Array(repeating: 0, count: inkColumns.count * inkRows.count),
                             rowOffsets: inkRows.indices.map { ($0 - inkRows.lowerBound) * inkColumns.count },
                             spans: Array(repeating: 0..<0, count: inkRows.count))
        for glyph in glyphs { mask.stamp(glyph) }
        mask.fade(toward: clip.y + clip.height, over: fadeHeight)
        return mask
    }

    /// The glyph bitmaps of the lines that may reach `rows`, fetched in one hold of the font.
    private static func placedGlyphs(_ layout: TextLayout, font: TextFont, left: Int, top: Int,
                                     rows: Range<Int>) -> [PlacedGlyph] {
        // A line's ink stays within a line height or two of its baseline (accents above,
        // descenders below); lines further away are skipped without rasterizing anything.
        let reach = 2 * Int(layout.lineHeight.rounded(.up)) + Int(layout.pixelSize.rounded(.up))
        let lines = layout.lines.filter { line in
            let baseline = top + line.baseline
            return baseline + reach > rows.lowerBound && baseline - reach < rows.upperBound
        }
        let size = layout.fixedSize
        return font.withFaces { faces in
            lines.flatMap { line in
                line.glyphs.map { glyph in
                    let bitmap = faces.bitmap(font: glyph.font, glyph: glyph.index, size: size)
                    return PlacedGlyph(bitmap: bitmap, x: left + glyph.x + bitmap.left, y: top + line.baseline - glyph.y - bitmap.top)
                }
            }
        }
    }

    /// Scales the rows of the last `fadeHeight` above `bottom` by a ramp falling linearly
    /// toward 0 at `bottom`, sampled at each row's centre (the last row keeps ½ / fadeHeight).
    private mutating func fade(toward bottom: Int, over fadeHeight: Int) {
        guard fadeHeight > 0 else { return }
        let rowOffsets = self.rowOffsets, spans = self.spans, top = rows.lowerBound
        let fadingRows = rows.clamped(to: (bottom - fadeHeight)..<bottom)
        storage.withUnsafeMutableBufferPointer { storage in
            for y in fadingRows {
                let alpha = UInt32((2 * (bottom - y) - 1) * Self.one / (2 * fadeHeight)), half = UInt32(Self.one / 2)
                let row = storage.baseAddress! + rowOffsets[y - top] + spans[y - top].lowerBound
                for x in 0..<spans[y - top].count {
                    row[x] = UInt16(truncatingIfNeeded: (UInt32(row[x]) &* alpha &+ half) >> UInt32(Self.bits))
                }
            }
        }
    }

    /// Adds `glyph`'s coverage, scaled from 0…255 to 0…`one`, inside the mask.
    private mutating func stamp(_ glyph: PlacedGlyph) {
        let bitmap = glyph.bitmap
        let inside = (glyph.x..<(glyph.x + bitmap.width)).clamped(to: columns)
        let glyphRows = (glyph.y..<(glyph.y + bitmap.height)).clamped(to: rows)
        guard !inside.isEmpty else { return }
        // Columns counted from the mask's left edge, as spans are.
        let span = (inside.lowerBound - columns.lowerBound)..<(inside.upperBound - columns.lowerBound)
        for y in glyphRows { spans[y - rows.lowerBound] = Self.union(spans[y - rows.lowerBound], span) }
        let rowOffsets = self.rowOffsets, top = rows.lowerBound
        bitmap.coverage.withUnsafeBufferPointer { coverage in
            storage.withUnsafeMutableBufferPointer { storage in
                for y in glyphRows {
                    let from = coverage.baseAddress! + (y - glyph.y) * bitmap.width + (inside.lowerBound - glyph.x)
                    let to = storage.baseAddress! + rowOffsets[y - top] + span.lowerBound
                    for x in 0..<span.count {
                        // Coverage c (0…255) scaled to 0…one, rounded: (c × 2¹⁵ + 127) / 255,
                        // which is 128c + (c + 1) / 2 for every c (no division, so it
                        // vectorizes); 255 gives exactly `one`.
                        let coverage = UInt32(from[x])
                        let added = UInt32(to[x]) &+ (coverage << 7) &+ ((coverage &+ 1) >> 1)
                        to[x] = UInt16(truncatingIfNeeded: Swift.min(added, UInt32(Self.one)))
                    }
                }
            }
        }
    }
}
