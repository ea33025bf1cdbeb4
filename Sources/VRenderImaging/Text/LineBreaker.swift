/// Turns paragraphs (text between newlines) into lines no wider than a width, greedily: each
/// line takes as many characters as fit and breaks at the last opportunity before the first
/// that does not — after a run of spaces, or beside a CJK character — or, when the line has
/// none (a word wider than the width), right before that character.
struct LineBreaker {
    /// One character of a paragraph, shaped: its glyph, how far it moves the pen (26.6) and
    /// what it means for breaking.
    struct Character {
        let scalar: Unicode.Scalar
        let font: Int
        let glyph: UInt32
        let advance: Int
        /// A space: the line may break after it, and it is dropped where the line breaks.
        let isSpace: Bool
        /// Ideographic (CJK) text: the line may break before and after it.
        let isWide: Bool
        /// Whether it draws (not a space or control character).
        let draws: Bool
    }

    struct BrokenLine {
        var glyphs: [TextLayout.Glyph]
        var text: String
        var width: Int
    }

    let font: TextFont
    /// Size in 26.6 pixels.
    let size: Int
    /// The width in 26.6 pixels.
    let limit: Int
    private(set) var missing: [Unicode.Scalar] = []

    init(font: TextFont, size: Int, width: Int) {
        self.font = font
        self.size = size
        limit = width << 6
    }

    /// The lines of one paragraph; an empty paragraph is one empty line.
    mutating func lines(of paragraph: [Unicode.Scalar]) -> [BrokenLine] {
        let characters = shape(paragraph)
        let kerning = kerningBefore(characters)
        var lines: [BrokenLine] = []
        var start = 0
        repeat {
            let (end, pens) = lineEnd(from: start, characters, kerning)
            lines.append(line(characters[start..<end], pens: pens))
            // The spaces the line broke at belong to neither line.
            start = end
            while start < characters.count && characters[start].isSpace { start += 1 }
        } while start < characters.count
        return lines
    }

    /// Where the line starting at `start` ends (exclusive) and its pen positions (26.6), one
    /// per character from `start`.
    private func lineEnd(from start: Int, _ characters: [Character], _ kerning: [Int]) -> (Int, [Int]) {
        var pens: [Int] = []
        var pen = 0, lastBreak: Int?, hasInk = false
        for index in start..<characters.count {
            let character = characters[index]
            if index > start { pen += kerning[index] }
            if hasInk && mayBreak(before: index, characters) { lastBreak = index }
            // A character past the width ends the line, unless nothing drawn is on it yet (a
            // glyph wider than the width, or indentation before a long word, stays).
            if hasInk && !character.isSpace && pen + character.advance > limit {
                return (lastBreak ?? index, pens)
            }
            pens.append(pen)
            pen += character.advance
            hasInk = hasInk || !character.isSpace
        }
        return (characters.count, pens)
    }

    private func mayBreak(before index: Int, _ characters: [Character]) -> Bool {
        let previous = characters[index - 1], next = characters[index]
        return !next.isSpace && (previous.isSpace || previous.isWide || next.isWide)
    }

    /// A line from its characters (spaces at its end dropped) and their pen positions.
    private func line(_ characters: ArraySlice<Character>, pens: [Int]) -> BrokenLine {
        let keptEnd = characters.lastIndex { !$0.isSpace }.map { $0 + 1 } ?? characters.startIndex
        let kept = characters[..<keptEnd]
        var glyphs: [TextLayout.Glyph] = []
        var text = String.UnicodeScalarView()
        var width = 0
        for (offset, character) in kept.enumerated() {
            text.append(character.scalar)
            width = pens[offset] + character.advance
            if character.draws {
                glyphs.append(TextLayout.Glyph(font: character.font, index: character.glyph, x: (pens[offset] + 32) >> 6))
            }
        }
        return BrokenLine(glyphs: glyphs, text: String(text), width: (width + 32) >> 6)
    }

    /// Each character's glyph from the first font that has it; spaces and control characters
    /// without a glyph of their own take the space's. Characters no font has take the primary
    /// font's glyph 0 (the missing-glyph box) and are noted in `missing`.
    private mutating func shape(_ paragraph: [Unicode.Scalar]) -> [Character] {
        let size = self.size
        var missingHere: [Unicode.Scalar] = []
        let characters = font.withFaces { faces in
            paragraph.map { scalar -> Character in
                let isSpace = scalar.properties.isWhitespace && !Self.noBreakSpaces.contains(scalar)
                let isControl = scalar.properties.generalCategory == .control
                var found = faces.lookUp(scalar)
                if found == nil && (isSpace || isControl) { found = faces.lookUp(" ") }
                if found == nil { missingHere.append(scalar) }
                let (font, glyph) = found ?? (0, 0)
                let advance = isControl && !isSpace ? 0 : faces.bitmap(font: font, glyph: glyph, size: size).advance
                return Character(scalar: scalar, font: font, glyph: glyph, advance: advance, isSpace: isSpace,
                                 isWide: Self.isWide(scalar), draws: !isSpace && !isControl)
            }
        }
        for scalar in missingHere where !missing.contains(scalar) { missing.append(scalar) }
        return characters
    }

    /// Kerning (26.6) between each character and the one before it, when both come from the
    /// same font; 0 for the first.
    private func kerningBefore(_ characters: [Character]) -> [Int] {
        let size = self.size
        return font.withFaces { faces in
            characters.indices.map { index in
                guard index > 0, characters[index - 1].font == characters[index].font else { return 0 }
                return faces.kerning(font: characters[index].font, characters[index - 1].glyph,
                                     characters[index].glyph, size: size)
            }
        }
    }

    /// Spaces that join words (no-break space, figure space, narrow no-break space).
    private static let noBreakSpaces: Set<Unicode.Scalar> = ["\u{00A0}", "\u{2007}", "\u{202F}"]

    /// CJK ideographs, kana, Hangul and their punctuation and full-width forms: scripts
    /// written without spaces, where a line may break between any two characters. (Line-start
    /// rules for punctuation such as "。" are not applied.)
    static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
             0xFFE0...0xFFE6, 0x20000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}
