import Foundation

/// What a capture keeps at the bottom of a terminal and redraws in place: the prompter's
/// lines, if any, and the status line under them, with the cursor left at the end of the
/// status line (no newline after it, so the block never scrolls the screen by itself).
///
/// Every line is cut to one column less than the terminal's width: a line that wrapped would
/// take two rows, and moving the cursor up by the count of lines drawn would then land in the
/// wrong place and leave stale copies behind.
struct LiveScreen {
    /// The prompter's lines (its header, then its rows), top to bottom.
    var prompterLines: [String] = []
    /// The status line's text, once there is one.
    var status: String?
    /// Rows drawn above the cursor's row by the last `draw`.
    private var rowsAbove = 0
    /// Whether anything is on screen (the cursor's row included).
    private(set) var isShown = false

    /// Escapes that erase what is drawn, leaving the cursor at the start of its first row.
    mutating func erase() -> String {
        guard isShown else { return "" }
        let up = rowsAbove > 0 ? "\u{1B}[\(rowsAbove)A" : ""
        rowsAbove = 0
        isShown = false
        return "\r" + up + "\u{1B}[J"
    }

    /// Escapes and text that redraw the block: erased, then drawn again cut to `columns`, with
    /// no more prompter lines than leave room for the status line in `rows`.
    mutating func redraw(columns: Int, rows: Int) -> String {
        var text = erase()
        let shown = prompterLines.prefix(Swift.max(0, rows - 2))
        guard !shown.isEmpty || status != nil else { return text }
        let width = Swift.max(1, columns - 1)
        for line in shown { text += TerminalText.cut(line, toColumns: width) + "\u{1B}[K\n" }
        text += TerminalText.cut(status ?? "", toColumns: width) + "\u{1B}[K"
        rowsAbove = shown.count
        isShown = true
        return text
    }
}

/// Text measured and cut in terminal columns: by characters, never inside a multi-byte
/// sequence or a character's combining marks, wide (East Asian) characters counted as two.
enum TerminalText {
    /// `text` cut to at most `columns` columns, without control characters.
    static func cut(_ text: String, toColumns columns: Int) -> String {
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
    static func width(of character: Character) -> Int {
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
