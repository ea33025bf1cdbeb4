import Foundation
import Synchronization
import VRenderCore
import VRenderExport

/// Renders export progress on standard error: a bar redrawn in place, as wide as the terminal
/// allows (see `TerminalSize`), for people; `key=value` blocks
/// for programs (the keys ffmpeg's `-progress` uses, plus `total_frames` and `eta`).
package final class ProgressPrinter: Sendable {
    private let style: ProgressStyle
    /// The bar on screen (its line not yet ended), if any.
    private let bar = Mutex<ExportProgress?>(nil)

    package init(style: ProgressStyle) {
        self.style = style
    }

    /// Called from pipeline threads (the throttle serializes calls).
    package func report(_ progress: ExportProgress) {
        switch style {
        case .bar: drawBar(progress)
        case .plain: writePlain(progress)
        case .none, .auto: break
        }
    }

    /// Ends the bar's line so later output starts on a fresh line; a second call does nothing.
    package func finish() {
        let ended = bar.withLock { bar in
            defer { bar = nil }
            return bar != nil
        }
        if ended { write("\n") }
    }

    /// A line of its own above the bar (a chunked export's steps): the bar is cleared, the line
    /// written, and the bar drawn again below it.
    package func line(_ text: String) {
        let shown = bar.withLock { $0 }
        write((shown == nil ? "" : "\r\u{1B}[K") + TerminalText.fitted(text + "\n", for: STDERR_FILENO))
        if let shown { drawBar(shown) }
    }

    /// Redraws the bar in place: `\r`, the line, then "clear to end of line" (ESC [K), so a
    /// shorter line leaves nothing of a longer one behind. The line always fits the terminal,
    /// because a wrapped line cannot be redrawn with `\r`.
    private func drawBar(_ progress: ExportProgress) {
        write("\r" + Self.barLine(progress, columns: TerminalSize.columns()) + "\u{1B}[K")
        bar.withLock { $0 = progress }
    }

    /// The bar's text for a terminal `columns` wide: at most `columns - 1` characters (a
    /// character in the last column makes some terminals wrap at once). Details are left out,
    /// least useful first, before the bar gets shorter than `minimumBar`.
    static func barLine(_ progress: ExportProgress, columns: Int) -> String {
        let room = Swift.max(1, columns - 1)
        let fraction = progress.framesTotal > 0 ? Swift.min(1, Double(progress.framesDone) / Double(progress.framesTotal)) : 0
        let percent = String(format: "%3d%%", Int(fraction * 100))
        // Fields keep their width from one redraw to the next, so the bar does not jump.
        let eta = "ETA " + (progress.eta.map { Self.clock($0) } ?? "--:--").leftPadded(to: 5)
        let total = String(progress.framesTotal)
        let frames = String(progress.framesDone).leftPadded(to: total.count) + "/" + total + " frames"
        let rates = String(format: "%5.1f fps  %5.2fx", progress.fps, progress.speed)
        let details = [
            [percent, frames, rates, eta],
            [percent, frames, eta],
            [percent, eta],
            [percent],
        ]
        for parts in details {
            let text = parts.joined(separator: "  ")
            let barWidth = Swift.min(maximumBar, room - text.count - 3)   // "[" + bar + "] "
            if barWidth >= minimumBar {
                let filled = Int(fraction * Double(barWidth))
                return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: barWidth - filled) + "] " + text
            }
        }
        // Narrower than any bar: the percentage alone, cut to fit.
        return String(percent.trimmingCharacters(in: .whitespaces).prefix(room))
    }

    static let minimumBar = 10
    static let maximumBar = 30

    private func writePlain(_ progress: ExportProgress) {
        var lines = "frame=\(progress.framesDone)\n"
        lines += "total_frames=\(progress.framesTotal)\n"
        lines += String(format: "fps=%.2f\n", progress.fps)
        lines += "out_time=\(Self.timestamp(progress.outputSeconds))\n"
        lines += String(format: "speed=%.3fx\n", progress.speed)
        lines += "eta=\(progress.eta.map { String(format: "%.1f", $0) } ?? "N/A")\n"
        lines += "progress=\(progress.finished ? "end" : "continue")\n"
        write(lines)
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    static func clock(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        return String(format: "%d:%02d", total / 60, total % 60)
    }

    static func timestamp(_ seconds: Double) -> String {
        let whole = Int(seconds)
        return String(format: "%02d:%02d:%02d.%06d", whole / 3600, whole / 60 % 60, whole % 60,
                      Int(((seconds - Double(whole)) * 1e6).rounded()))
    }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
