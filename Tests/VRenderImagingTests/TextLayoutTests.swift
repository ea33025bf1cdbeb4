import Testing
import VRenderCore
import VRenderImaging

/// Laying text out in the prompter's fonts: which font draws what, and where lines break.
@Suite struct TextLayoutTests {
    static let portuguese = "Olá! Vamos gravar a próxima cena: atenção à iluminação, coração."

    /// The prompter's font chain, opened once for the suite (FreeType faces are shareable
    /// through `TextFont`'s lock).
    static let font: TextFont = {
        do { return try TextFont() } catch { fatalError("the prompter's fonts: \(error)") }
    }()

    @Test func portugueseHasEveryCharacterInThePrimaryFont() throws {
        let layout = TextLayout(text: Self.portuguese, font: Self.font, pixelSize: 36, width: 10_000)
        #expect(layout.missingCharacters.isEmpty)
        let line = try #require(layout.lines.first)
        #expect(layout.lines.count == 1 && line.text == Self.portuguese)
        // Every character but the spaces draws, each from DejaVu (font 0), none the missing box.
        let spaces = Self.portuguese.unicodeScalars.filter { $0 == " " }.count
        #expect(line.glyphs.count == Self.portuguese.unicodeScalars.count - spaces)
        #expect(line.glyphs.allSatisfy { $0.font == 0 && $0.index != 0 })
        // Pens move right.
        #expect(zip(line.glyphs, line.glyphs.dropFirst()).allSatisfy { $0.x < $1.x })
    }

    @Test func chineseComesFromTheFallbackFont() throws {
        try #require(Self.font.files == [.dejaVuSansBold, .wenQuanYiMicroHei],
                     "needs fonts-wqy-microhei (scripts/install-deps.sh)")
        let layout = TextLayout(text: "你好世界", font: Self.font, pixelSize: 36, width: 10_000)
        #expect(layout.missingCharacters.isEmpty)
        let glyphs = try #require(layout.lines.first?.glyphs)
        #expect(glyphs.count == 4 && glyphs.allSatisfy { $0.font == 1 && $0.index != 0 })
        // Full-width characters: about an em apart.
        #expect(glyphs.last!.x >= 3 * 30)
    }

    @Test func aCharacterNoFontHasIsReportedOnceAndDrawsTheMissingBox() throws {
        // A private-use character in plane 16: neither DejaVu nor WenQuanYi has it.
        let layout = TextLayout(text: "a\u{10FFFD}b\u{10FFFD}", font: Self.font, pixelSize: 24, width: 1000)
        #expect(layout.missingCharacters == ["\u{10FFFD}"])
        let glyphs = try #require(layout.lines.first?.glyphs)
        #expect(glyphs.count == 4 && glyphs[1].font == 0 && glyphs[1].index == 0)
    }

    @Test func aMissingPrimaryFontNamesTheFileAndItsPackage() {
        let absent = FontFile(path: "/nonexistent/fonts/Absent-Bold.ttf", package: "fonts-absent")
        #expect {
            _ = try TextFont(primary: absent)
        } throws: { error in
            guard let error = error as? VRenderError else { return false }
            return error.kind == .input && error.subject == absent.path && error.reason.contains("fonts-absent")
        }
        // A missing fallback is not an error: the chain is the primary alone.
        let font = try? TextFont(fallbacks: [absent])
        #expect(font?.files == [.dejaVuSansBold])
    }

    @Test func wrappedLinesFitTheWidthAndKeepEveryWord() {
        let text = String(repeating: Self.portuguese + " ", count: 3)
        for width in [120, 300, 577, 1000] {
            let layout = TextLayout(text: text, font: Self.font, pixelSize: 30, lineSpacing: 4, width: width)
            #expect(layout.lines.allSatisfy { $0.width <= width }, "width \(width)")
            #expect(layout.lines.allSatisfy { !$0.text.hasPrefix(" ") && !$0.text.hasSuffix(" ") })
            // Breaking at spaces drops exactly those spaces: the words read back in order
            // (at 120 px some words are wider than a line and break inside).
            let words = layout.lines.flatMap { $0.text.split(separator: " ") }
            if width >= 300 {
                #expect(words == text.split(separator: " "), "width \(width)")
            } else {
                #expect(words.joined() == text.split(separator: " ").joined() && words.count > 30)
            }
        }
    }

    @Test func aKnownTextWrapsIntoAKnownNumberOfLines() {
        let layout = TextLayout(text: Self.portuguese, font: Self.font, pixelSize: 36, lineSpacing: 4, width: 600)
        #expect(layout.lines.map(\.text) == ["Olá! Vamos gravar a próxima", "cena: atenção à iluminação,", "coração."])
        // Greedy: each line is as long as it can be, the next word would not have fit.
        for (line, next) in zip(layout.lines, layout.lines.dropFirst()) {
            let longer = line.text + " " + next.text.split(separator: " ")[0]
            let unwrapped = TextLayout(text: longer, font: Self.font, pixelSize: 36, width: 10_000)
            #expect(line.width <= 600 && unwrapped.lines[0].width > 600, "\(longer)")
        }
        #expect(layout.height == 3 * layout.lineHeight)
        #expect(layout.lines.map(\.baseline) == (0..<3).map { layout.ascent + Int((Double($0) * layout.lineHeight).rounded()) })
    }

    @Test func aWordWiderThanTheLineBreaksBetweenCharacters() throws {
        let word = "Pneumoultramicroscopicossilicovulcanoconiótico"
        let layout = TextLayout(text: "um " + word, font: Self.font, pixelSize: 24, width: 200)
        #expect(layout.lines.count >= 3)
        #expect(layout.lines.first?.text == "um")
        #expect(layout.lines.dropFirst().map(\.text).joined() == word)
        #expect(layout.lines.allSatisfy { $0.width <= 200 })
    }

    @Test func chineseWrapsBetweenCharacters() throws {
        try #require(Self.font.files.count == 2, "needs fonts-wqy-microhei (scripts/install-deps.sh)")
        let text = String(repeating: "你好世界", count: 10)
        let layout = TextLayout(text: text, font: Self.font, pixelSize: 24, width: 250)
        #expect(layout.lines.count > 3)
        #expect(layout.lines.map(\.text).joined() == text)
        #expect(layout.lines.allSatisfy { $0.width <= 250 })
        // Every full line is nearly full: it broke at the last character that fit.
        #expect(layout.lines.dropLast().allSatisfy { $0.width > 250 - 30 })
    }

    @Test func newlinesAreKeptAndEmptyLinesKeepTheirHeight() {
        let layout = TextLayout(text: "Cena 1\n\nCena 2\r\nfim", font: Self.font, pixelSize: 24, lineSpacing: 3, width: 800)
        #expect(layout.lines.map(\.text) == ["Cena 1", "", "Cena 2", "fim"])
        #expect(layout.height == 4 * layout.lineHeight)
        #expect(layout.lines[2].baseline - layout.lines[1].baseline == layout.lines[1].baseline - layout.lines[0].baseline)
        #expect(TextLayout(text: "", font: Self.font, pixelSize: 24, width: 800).lines.isEmpty)
    }

    @Test func lineHeightIsTheFontsLinePlusTheSpacing() {
        let plain = TextLayout(text: "a", font: Self.font, pixelSize: 36, width: 500)
        let spaced = TextLayout(text: "a", font: Self.font, pixelSize: 36, lineSpacing: 4.5, width: 500)
        #expect(spaced.lineHeight == plain.lineHeight + 4.5)
        // DejaVu's line is about 1.16 em; its ascent about 0.93 em.
        #expect(plain.lineHeight >= 40 && plain.lineHeight <= 44)
        #expect(plain.ascent >= 32 && plain.ascent <= 35)
    }

    @Test func aLargerSizeGivesMoreLines() {
        let text = String(repeating: Self.portuguese + " ", count: 4)
        let counts = [18.0, 24, 30, 36].map { TextLayout(text: text, font: Self.font, pixelSize: $0, width: 700).lines.count }
        #expect(counts == counts.sorted() && counts.first! < counts.last!, "\(counts)")
    }
}

extension TextLayoutTests {
    /// DejaVu Sans Bold's 'kern' table pulls "A" and "V" together.
    @Test func kerningPullsPairsTogether() {
        func width(_ text: String) -> Int {
            TextLayout(text: text, font: Self.font, pixelSize: 36, width: 10_000).lines[0].width
        }
        #expect(width("AV") < width("A") + width("V"))
        #expect(width("oo") == 2 * width("o"))
    }
}
