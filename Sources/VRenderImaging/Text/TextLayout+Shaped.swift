extension TextLayout {
    /// `lines`, each already short enough (a caption's one or two), shaped one by one: put in
    /// the order they are read on screen (`Bidi`), each run cut where the font that has its
    /// characters changes (`FontFaces.lookUp`), and each piece shaped by HarfBuzz, so Arabic
    /// letters join, marks sit on their letters and Hebrew, Arabic and Latin mix in the right
    /// order. Nothing wraps: `width` is the widest line. Pen positions round to whole pixels.
    public init(shaping lines: [String], font: TextFont, pixelSize: Double, lineSpacing: Double = 0) {
        precondition(pixelSize > 0 && pixelSize.isFinite, "text size \(pixelSize)")
        let size = Self.fixedSize(pixelSize)
        var missing: [Unicode.Scalar] = []
        let (metrics, shaped) = font.withFaces { faces in
            (faces.lineMetrics(size: size), lines.map { Self.shapeLine($0, faces: &faces, size: size, missing: &missing) })
        }
        let lineHeight = Double(metrics.height) + lineSpacing
        let laidOut = zip(lines, shaped).enumerated().map { index, pair in
            Line(glyphs: pair.1.glyphs, text: pair.0, width: pair.1.width,
                 baseline: metrics.ascender + Int((Double(index) * lineHeight).rounded()), sourceStart: 0)
        }
        (self.lines, self.pixelSize, self.width) = (laidOut, pixelSize, laidOut.map(\.width).max() ?? 0)
        (self.lineHeight, ascent, missingCharacters) = (lineHeight, metrics.ascender, missing)
    }

    /// One line's glyphs, left to right, and its width in pixels.
    private static func shapeLine(_ text: String, faces: inout FontFaces, size: Int,
                                  missing: inout [Unicode.Scalar]) -> (glyphs: [Glyph], width: Int) {
        let scalars = Array(text.unicodeScalars.filter { $0 != "\n" && $0 != "\r" })
        let fonts = scalars.map { scalar -> Int in
            if let found = faces.lookUp(scalar) { return found.font }
            if !scalar.properties.isWhitespace, !missing.contains(scalar) { missing.append(scalar) }
            return 0
        }
        var glyphs: [Glyph] = []
        var pen = 0   // 26.6
        for run in Bidi.visualRuns(scalars) {
            // Pieces of one font, in logical order; a right-to-left run shows them last first.
            var pieces: [Range<Int>] = []
            for index in run.range {
                if let last = pieces.last, fonts[last.lowerBound] == fonts[index] {
                    pieces[pieces.count - 1] = last.lowerBound..<index + 1
                } else {
                    pieces.append(index..<index + 1)
                }
            }
            for piece in run.rightToLeft ? pieces.reversed() : pieces {
                let font = fonts[piece.lowerBound]
                for shaped in faces.shape(scalars[piece], font: font, size: size, rightToLeft: run.rightToLeft) {
                    glyphs.append(Glyph(font: font, index: shaped.glyph, x: (pen + shaped.xOffset + 32) >> 6,
                                        y: (shaped.yOffset + 32) >> 6))
                    pen += shaped.advance
                }
            }
        }
        return (glyphs, (pen + 32) >> 6)
    }
}
