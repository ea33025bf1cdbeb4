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
