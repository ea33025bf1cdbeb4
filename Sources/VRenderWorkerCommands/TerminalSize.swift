import Foundation

/// The size of the terminal standard error writes to, for lines that are redrawn in place: a
/// line as wide as the terminal or wider wraps, and `\r` then redraws only its last row,
/// leaving a trail of stale copies; a block taller than the terminal scrolls away.
package enum TerminalSize {
    /// Used when neither the environment nor the terminal says (standard error is a file or a pipe).
    static let fallback = (columns: 80, rows: 24)

    /// Columns: `COLUMNS` when set to a positive number (environ(7): it overrides the real
    /// size, as for `ls`), else what the terminal driver reports for standard error (ioctl
    /// `TIOCGWINSZ`), else the fallback.
    package static func columns(environment: [String: String] = ProcessInfo.processInfo.environment) -> Int {
        current("COLUMNS", environment: environment, fallback: fallback.columns) { Int($0.ws_col) }
    }

    /// Rows: `LINES`, else the terminal driver, else the fallback.
    package static func rows(environment: [String: String] = ProcessInfo.processInfo.environment) -> Int {
        current("LINES", environment: environment, fallback: fallback.rows) { Int($0.ws_row) }
    }

    private static func current(_ variable: String, environment: [String: String], fallback: Int,
                                _ dimension: (winsize) -> Int) -> Int {
        if let value = environment[variable].flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }), value > 0 {
            return value
        }
        var size = winsize()
        if ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, dimension(size) > 0 {
            return dimension(size)
        }
        return fallback
    }
}
