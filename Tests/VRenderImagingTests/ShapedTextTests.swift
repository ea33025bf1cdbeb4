import Testing
@testable import VRenderImaging

/// Caption lines shaped for burning in: HarfBuzz's glyphs in FriBidi's reading order, the
/// fallback font where the primary lacks a character.
@Suite struct ShapedTextTests {
    static var font: TextFont { TextLayoutTests.font }

    /// The glyph each character gets on its own (what unshaped layout draws), by the chain's lookup.
    func isolated(_ text: String) -> [UInt32] {
        Self.font.withFaces { faces in text.unicodeScalars.map { faces.lookUp($0)?.glyph ?? 0 } }
    }

    func shaped(_ text: String) -> [TextLayout.Glyph] {
        TextLayout(shaping: [text], font: Self.font, pixelSize: 32).lines[0].glyphs
    }

    @Test func arabicLettersTakeTheirJoiningForms() {
        // "سلام": seen, lam, alef, meem. The seen takes its initial form, lam and alef become
        // one ligature, and the meem after an alef (which never joins onward) stays isolated.
        let glyphs = shaped("سلام")
        let alone = isolated("سلام")
        #expect(glyphs.count == 3, "lam-alef is one glyph: \(glyphs)")
        #expect(!glyphs.map(\.index).contains(alone[0]) && !glyphs.map(\.index).contains(alone[1]), "seen and lam join")
        // Right to left: the last letter typed is the leftmost glyph, the first the rightmost.
        #expect(glyphs.first?.index == alone[3])
        #expect(glyphs.map(\.x) == glyphs.map(\.x).sorted())
    }

    @Test func hebrewReadsRightToLeftInsideLatinText() {
        let glyphs = shaped("ab שלום cd")
        let alone = isolated("ab שלום cd")
        // On screen: a b ␠ ם ו ל ש ␠ c d (the Hebrew word reversed, the Latin words in place).
        let visual = [0, 1, 2, 6, 5, 4, 3, 7, 8, 9].map { alone[$0] }
        #expect(glyphs.map(\.index) == visual)
        #expect(glyphs.map(\.x) == glyphs.map(\.x).sorted())
    }

    @Test func bidiRunsComeInVisualOrder() {
        let runs = Bidi.visualRuns(Array("ab שלום cd".unicodeScalars))
        #expect(runs == [Bidi.Run(range: 0..<3, rightToLeft: false), Bidi.Run(range: 3..<7, rightToLeft: true),
                         Bidi.Run(range: 7..<10, rightToLeft: false)])
        // A right-to-left paragraph: the Latin word inside it keeps its order, placed by the Hebrew.
        let rtl = Bidi.visualRuns(Array("שלום ab".unicodeScalars))
        #expect(rtl.map(\.rightToLeft) == [false, true] && rtl[0].range == 5..<7)
    }

    @Test func chineseComesFromTheFallbackFont() throws {
        try #require(Self.font.files.count > 1, "fonts-wqy-microhei is installed by scripts/install-deps.sh")
        let glyphs = shaped("字幕 ok")
        #expect(glyphs.prefix(2).allSatisfy { $0.font == 1 } && glyphs.suffix(2).allSatisfy { $0.font == 0 })
        #expect(TextLayout(shaping: ["字幕 ok"], font: Self.font, pixelSize: 32).missingCharacters.isEmpty)
    }
}
