import Foundation

/// Text measured and cut in terminal columns: by characters, never inside a multi-byte
/// sequence or a character's combining marks, wide (East Asian) characters counted as two.
package enum TerminalText {
    /// `text` (one or more lines) as it is written to `descriptor`: on a terminal every line is
    /// broken at spaces to fit its width, each continuation row indented under the text after
    /// the line's tags ("plan: note: ", "vrender: error: "), as a word cut across two rows is
    /// hard to read; to a file or a pipe, unchanged, one line per message for logs and scripts.
    package static func fitted(_ text: String, for descriptor: Int32) -> String {
        guard isatty(descriptor) != 0 else { return text }
        let width = TerminalSize.columns() - 1
        return text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { wrap(String($0), toColumns: width, indent: tagWidth(of: $0, within: width / 3)).joined(separator: "\n") }
            .joined(separator: "\n")
    }

    /// Columns taken by a line's tags: the words ending in ": " it starts with, as many as fit
    /// in `limit` ("plan: note: silence: " on a narrow terminal indents under "plan: note: ",
    /// as every other note does); 2 when not even the first fits (the continuation is still set off).
    package static func tagWidth(of line: Substring, within limit: Int) -> Int {
        var end = line.startIndex, width = 0
        while let colon = line[end...].firstIndex(of: ":"), line[colon...].hasPrefix(": "),
              line[end..<colon].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }), colon > end {
            end = line.index(colon, offsetBy: 2)
            let next = line.distance(from: line.startIndex, to: end)
            guard next <= limit else { break }
            width = next
        }
        return width > 0 ? width : 2
    }

    /// `line` broken at spaces into rows of at most `columns` columns, rows after the first
    /// indented by `indent`; a word longer than a row is cut between characters.
    package static func wrap(_ line: String, toColumns columns: Int, indent: Int = 0) -> [String] {
        guard columns > indent + 1, width(of: line) > columns else { return [line] }
        let margin = String(repeating: " ", count: indent)
        var rows: [String] = [], row = "", atStart = true
        func startRow() {
            rows.append(row)
            row = margin
            atStart = true
        }
        for token in unbreakable(line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)) {
            var word = token
            if !atStart {
                if width(of: row) + 1 + width(of: word) <= columns {
                    row += " " + word
                    continue
                }
                startRow()
            }
            if word.isEmpty && !rows.isEmpty { continue }   // spaces at a break are the break
            while width(of: row) + width(of: word) > columns {
                let piece = cut(word, toColumns: columns - width(of: row))
                guard !piece.isEmpty else { break }
                row += piece
                word.removeFirst(piece.count)
                startRow()
            }
            row += word
            atStart = word.isEmpty && !rows.isEmpty
        }
        rows.append(row)
        return rows
    }

    /// Units that stay on the row of the number before them ("1.6 MB", "16.93 s", "-14 LUFS").
    package static let units: Set<String> = ["s", "ms", "B", "KB", "kB", "MB", "GB", "fps", "%", "Hz", "kHz", "LUFS", "dB",
                                     "dBFS", "dBTP", "Mb/s", "kb/s", "px", "frames", "frame(s)", "take(s)", "pt", "pt/s"]

    /// `words` with each unit joined (by a space) to the number before it, so a break never
    /// falls between them.
    package static func unbreakable(_ words: [String]) -> [String] {
        var joined: [String] = []
        for word in words {
            let bare = word.trimmingCharacters(in: CharacterSet(charactersIn: ",;:.)"))
            if let last = joined.last, last.last?.isNumber == true, units.contains(bare) {
                joined[joined.count - 1] = last + " " + word
            } else {
                joined.append(word)
            }
        }
        return joined
    }

    /// Columns `text` takes.
    package static func width(of text: String) -> Int { text.reduce(0) { $0 + width(of: $1) } }

    /// `text` cut to at most `columns` columns, without control characters.
    package static func cut(_ text: String, toColumns columns: Int) -> String {
        var result = ""
        var used = 0
        for character in text where !isControl(character) {
            let width = self.width(of: character)
            guard used + width <= columns else { break }
            result.append(character)
            used += width
        }
        return result
    }

    /// Columns a character takes: 0 for control characters, 2 for wide ones, else 1.
    package static func width(of character: Character) -> Int {
        if isControl(character) { return 0 }
        guard let scalar = character.unicodeScalars.first else { return 0 }
        return isWide(scalar.value) ? 2 : 1
    }

    private static func isControl(_ character: Character) -> Bool {
        character.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    /// East Asian wide and fullwidth ranges (Unicode UAX #11, the common blocks) and emoji.
    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
             0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}
