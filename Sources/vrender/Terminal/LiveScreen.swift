import Foundation
import VRenderWorkerCommands

/// What a capture keeps at the bottom of a terminal and redraws in place: the prompter's
/// lines, if any, and the status under them (one row, or more on a narrow terminal), with the
/// cursor left at the end of the status (no newline after it, so the block never scrolls the
/// screen by itself).
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
    /// no more prompter lines than leave room for the status in `rows`.
    mutating func redraw(columns: Int, rows: Int) -> String {
        var text = erase()
        let width = Swift.max(1, columns - 1)
        let statusRows = status.map { Self.packed($0, toColumns: width) } ?? []
        let shown = prompterLines.prefix(Swift.max(0, rows - 1 - Swift.max(1, statusRows.count)))
        guard !shown.isEmpty || !statusRows.isEmpty else { return text }
        let lines = shown.map { TerminalText.cut($0, toColumns: width) } + (statusRows.isEmpty ? [""] : statusRows)
        text += lines.joined(separator: "\u{1B}[K\n") + "\u{1B}[K"
        rowsAbove = lines.count - 1
        isShown = true
        return text
    }

    /// The status's " | "-separated parts on as few rows of `columns` as they fit on whole (a
    /// part is never split: on an 80-column terminal the sound meter goes to a second row
    /// rather than off the end); a part wider than a row is cut.
    static func packed(_ status: String, toColumns columns: Int) -> [String] {
        var rows: [String] = []
        for part in status.components(separatedBy: Self.separator) {
            if let last = rows.last, TerminalText.width(of: last + Self.separator + part) <= columns {
                rows[rows.count - 1] = last + Self.separator + part
            } else {
                rows.append(TerminalText.cut(part, toColumns: columns))
            }
        }
        return rows
    }

    static let separator = " | "
}
