import Foundation

/// The width, in columns, of the terminal standard error writes to, for lines that are redrawn
/// in place: a line as wide as the terminal or wider wraps, and `\r` then redraws only its last
/// row, leaving a trail of stale copies.
enum TerminalWidth {
    /// Used when neither `COLUMNS` nor the terminal says (standard error is a file or a pipe).
    static let fallback = 80

    /// `COLUMNS` when set to a positive number (environ(7): it overrides the real size, as for
    /// `ls`), else the size the terminal driver reports for standard error (ioctl `TIOCGWINSZ`),
    /// else `fallback`.
    static func current(environment: [String: String] = ProcessInfo.processInfo.environment) -> Int {
        if let columns = environment["COLUMNS"].flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }), columns > 0 {
            return columns
        }
        var size = winsize()
        if ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
            return Int(size.ws_col)
        }
        return fallback
    }
}
