internal import CFreeType
internal import CHarfBuzz

/// One glyph HarfBuzz placed: its index in the face, and its offset from the pen and the
/// pen's advance after it, in 26.6 pixels.
struct ShapedGlyph {
    var glyph: UInt32
    var xOffset: Int
    var yOffset: Int
    var advance: Int
}

extension FontFaces {
    /// `scalars` (one run: one direction, all in face `font`) shaped by HarfBuzz at `size`
    /// (26.6), its glyphs in visual order. HarfBuzz guesses the script and language from the
    /// text, and mirrors brackets in a right-to-left run.
    mutating func shape(_ scalars: ArraySlice<Unicode.Scalar>, font: Int, size: Int, rightToLeft: Bool) -> [ShapedGlyph] {
        let face = setSize(size, of: font)
        guard let hbFont = hb_ft_font_create_referenced(face), let buffer = hb_buffer_create() else { return [] }
        defer {
            hb_buffer_destroy(buffer)
            hb_font_destroy(hbFont)
        }
        let text = scalars.map(\.value)
        hb_buffer_add_utf32(buffer, text, Int32(text.count), 0, Int32(text.count))
        hb_buffer_set_direction(buffer, rightToLeft ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
        hb_buffer_guess_segment_properties(buffer)
        hb_shape(hbFont, buffer, nil, 0)
        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
              let positions = hb_buffer_get_glyph_positions(buffer, &count) else { return [] }
        return (0..<Int(count)).map { index in
            ShapedGlyph(glyph: infos[index].codepoint, xOffset: Int(positions[index].x_offset),
                        yOffset: Int(positions[index].y_offset), advance: Int(positions[index].x_advance))
        }
    }
}
