/// Text laid out in a font at a pixel size into lines no wider than a width: what the
/// teleprompter scrolls through and draws.
///
/// Words wrap at spaces; a word wider than the width breaks between characters, and so does
/// CJK text (which has no spaces) — between any two of its characters. Explicit newlines are
/// kept, an empty line keeping its height. Glyphs sit on whole pixels: the pen advances by
/// FreeType's hinted advances and 'kern'-table kerning, both whole pixels.
///
/// Unicode: the text is read scalar by scalar, each scalar one glyph. Precomposed letters
/// ("ã", "ç", "É") are single glyphs in DejaVu and draw whole; decomposed ones (a base letter
/// followed by a combining mark) are not recomposed, and draw as the base glyph followed by
/// the mark's own glyph, as FreeType positions it (no OpenType mark placement).
///
/// A value, safe to use from any thread; drawing it needs the `TextFont` it was laid out in.
public struct TextLayout: Sendable, Equatable {
    /// One glyph on a line: which font of the chain, its glyph index there, and its pen
    /// position in whole pixels from the line's left edge.
    public struct Glyph: Sendable, Equatable {
        public var font: Int
        public var index: UInt32
        public var x: Int
        /// Pixels above the baseline (a mark HarfBuzz raised); 0 for unshaped text.
        public var y: Int = 0
    }

    public struct Line: Sendable, Equatable {
        /// The glyphs that draw (spaces and control characters take room but draw nothing).
        public var glyphs: [Glyph]
        /// The line's characters, without the spaces it wrapped at (the terminal prompter
        /// prints it).
        public var text: String
        /// From the left edge to the pen after the last glyph, in pixels.
        public var width: Int
        /// The baseline's distance from the text's top, in whole pixels:
        /// `ascent + round(index × lineHeight)`.
        public var baseline: Int
        /// Where in the text the line begins, counted in what no wrapping changes: the
        /// characters other than spaces, and the line feeds, before it. The same words keep the
        /// same number at every size (the prompter keeps the presenter's place by it).
        public var sourceStart: Int
    }

    public let lines: [Line]
    /// The size the glyphs were laid out at (the font's em in pixels).
    public let pixelSize: Double
    /// The width the lines were wrapped to, in pixels. Only a single glyph wider than it makes
    /// a wider line.
    public let width: Int
    /// From one baseline to the next, in pixels: the primary font's line height at this size
    /// (ascender − descender + line gap, whole pixels) plus the extra line spacing.
    public let lineHeight: Double
    /// From a line's top to its baseline, in whole pixels (the primary font's ascender).
    public let ascent: Int
    /// Characters no font of the chain has, each once, in the order they first appear. They
    /// draw as the primary font's missing-glyph box.
    public let missingCharacters: [Unicode.Scalar]

    /// The content height the prompter scrolls through: `lines.count × lineHeight`.
    public var height: Double { Double(lines.count) * lineHeight }

    /// Lays `text` out at `pixelSize` (> 0) with `lineSpacing` extra pixels between lines,
    /// wrapped to `width` pixels. An empty text has no lines.
    public init(text: String, font: TextFont, pixelSize: Double, lineSpacing: Double = 0, width: Int) {
        precondition(pixelSize > 0 && pixelSize.isFinite, "text size \(pixelSize)")
        self.pixelSize = pixelSize
        self.width = width
        let size = Self.fixedSize(pixelSize)
        let metrics = font.withFaces { $0.lineMetrics(size: size) }
        let lineHeight = Double(metrics.height) + lineSpacing
        self.lineHeight = lineHeight
        ascent = metrics.ascender

        var breaker = LineBreaker(font: font, size: size, width: width)
        var lines: [Line] = []
        if !text.isEmpty {
            // Split on line feeds, keeping empty paragraphs; a carriage return before one is dropped.
            let paragraphs = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
            var position = 0
            for paragraph in paragraphs {
                for broken in breaker.lines(of: paragraph.filter { $0 != "\r" }) {
                    let baseline = ascent + Int((Double(lines.count) * lineHeight).rounded())
                    lines.append(Line(glyphs: broken.glyphs, text: broken.text, width: broken.width, baseline: baseline,
                                      sourceStart: position))
                    position += Self.placeCount(broken.text)
                }
                position += 1  // the line feed
            }
        }
        self.lines = lines
        missingCharacters = breaker.missing
    }

    /// How far `text` moves a line's `sourceStart`: its characters other than spaces.
    public static func placeCount(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + ($1.properties.isWhitespace ? 0 : 1) }
    }

    /// A pixel size as FreeType's 26.6 fixed point: what glyphs are rasterized and cached at.
    var fixedSize: Int { Self.fixedSize(pixelSize) }

    static func fixedSize(_ pixelSize: Double) -> Int { Int((pixelSize * 64).rounded()) }
}
