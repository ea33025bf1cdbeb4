import Foundation
import VRenderWorkerCommands

/// Columns of text, two spaces apart, as `takes list`, `filters` and `golden` print them, fitted
/// to a terminal's width when they are shown on one: a table that wraps is unreadable, so
/// columns that matter least go first, then long cells are shortened (a file name loses its
/// middle, a description wraps onto continuation lines). Printed to a file or a pipe, the
/// table is whole, for scripts.
struct TextTable {
    struct Column {
        enum Fit {
            /// Kept as it is.
            case keep
            /// Left out, lowest `rank` first, while the table is too wide.
            case drop(rank: Int)
            /// Down to `minimum` columns: a cell of one word loses its middle
            /// ("segment_0001_87E9…1320.mov"), one of several wraps at spaces onto continuation
            /// lines. Columns of a lower `rank` shrink first; those of one rank, evenly.
            case shorten(minimum: Int, rank: Int = 0)
        }

        var title: String
        var fit: Fit = .keep
        var alignRight = false
    }

    var columns: [Column]
    var rows: [[String]]

    static let gap = 2

    /// The lines, fitted to `width` columns when one is given.
    func lines(width: Int?) -> [String] {
        var shown = Array(columns.indices)
        var widths = columns.indices.map { column in ([columns[column].title] + rows.map { $0[column] }).map(\.count).max() ?? 0 }
        if let width {
            (shown, widths) = fitted(into: width, widths: widths)
        }
        return ([columns.map(\.title)] + rows).flatMap { cells in render(cells, shown: shown, widths: widths) }
    }

    /// The columns kept and their widths for `width`: columns dropped (rank order) until the
    /// rest fits, then, if it still does not, the shrinkable ones shrunk (each at most to its
    /// minimum; what is still too wide wraps in the terminal).
    private func fitted(into width: Int, widths natural: [Int]) -> (shown: [Int], widths: [Int]) {
        var shown = Array(columns.indices), widths = natural
        func total(_ columns: [Int]) -> Int { columns.reduce(0) { $0 + natural[$1] } + Self.gap * max(0, columns.count - 1) }
        let droppable = columns.indices.compactMap { index -> (Int, Int)? in
            if case .drop(let rank) = columns[index].fit { return (rank, index) }
            return nil
        }.sorted { $0.0 < $1.0 }.map(\.1)
        for index in droppable where total(shown) > width { shown.removeAll { $0 == index } }
        // A column at a time, from the widest of the lowest rank left: two long columns of one
        // rank (a golden table's expected and got hashes) end up alike.
        var excess = total(shown) - width
        while excess > 0 {
            let room = shown.filter { widths[$0] > minimum($0, natural: natural[$0]) }
            guard let rank = room.map(shrinkRank).min(),
                  let widest = room.filter({ shrinkRank($0) == rank }).max(by: { widths[$0] < widths[$1] }) else { break }
            widths[widest] -= 1
            excess -= 1
        }
        return (shown, widths)
    }

    private func minimum(_ column: Int, natural: Int) -> Int {
        if case .shorten(let minimum, _) = columns[column].fit { return min(natural, minimum) }
        return natural
    }

    private func shrinkRank(_ column: Int) -> Int {
        if case .shorten(_, let rank) = columns[column].fit { return rank }
        return Int.max
    }

    /// One row as lines: every wrapped cell's pieces, side by side.
    private func render(_ cells: [String], shown: [Int], widths: [Int]) -> [String] {
        let pieces = shown.map { column -> [String] in
            let cell = cells[column], width = widths[column]
            guard cell.count > width else { return [cell] }
            return cell.contains(" ") ? TerminalText.wrap(cell, toColumns: width) : [Self.elide(cell, width: width)]
        }
        let height = pieces.map(\.count).max() ?? 1
        return (0..<height).map { row in
            zip(shown, pieces).enumerated().map { position, entry in
                let (column, lines) = entry
                let text = row < lines.count ? lines[row] : ""
                if position == shown.count - 1 && !columns[column].alignRight { return text }
                let pad = String(repeating: " ", count: max(0, widths[column] - text.count))
                return columns[column].alignRight ? pad + text : text + pad
            }.joined(separator: String(repeating: " ", count: Self.gap)).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        }
    }

    /// `text` cut to `width` characters by taking out its middle: "segment_0001_87E…1320.mov".
    static func elide(_ text: String, width: Int) -> String {
        guard text.count > width else { return text }
        guard width > 1 else { return String(text.prefix(width)) }
        let tail = (width - 1) / 2, head = width - 1 - tail
        return String(text.prefix(head)) + "…" + String(text.suffix(tail))
    }

    /// The width to fit a table printed on standard output to: the terminal's when standard
    /// output is one, else nil (a file or a pipe gets the whole table).
    static var standardOutputWidth: Int? {
        isatty(STDOUT_FILENO) != 0 ? TerminalSize.columns() - 1 : nil
    }
}
