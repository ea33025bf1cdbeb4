import Foundation
import Synchronization
import VRenderRecording

/// Shows capture events on standard error: the source's format when it opens (and the keys,
/// interactively), a redrawn status line on a terminal (a line per take started otherwise), and
/// one line per finished take, per take that reads back broken, and per notice always.
final class StatusPrinter: Sendable {
    /// Redraw a status line (standard error is a terminal).
    private let statusLine: Bool
    /// Print `capture: <source>: <format>` when the source opens.
    private let announcesSource: Bool
    /// Print the keys after the source line (interactive capture).
    private let keysHelp: Bool
    /// Whether a status line is on screen, to be cleared before other output. The lock also
    /// keeps lines from two threads (capture and writer) from interleaving.
    private let lineShown = Mutex(false)

    init(statusLine: Bool, announcesSource: Bool = false, keysHelp: Bool = false) {
        self.statusLine = statusLine
        self.announcesSource = announcesSource
        self.keysHelp = keysHelp
    }

    func handle(_ event: RecorderEvent) {
        lineShown.withLock { lineShown in
            switch event {
            case .sourceOpened(let name, let format):
                guard announcesSource else { return }
                write("capture: \(name): \(format.pixelFormat.rawValue) \(format.width)x\(format.height) at \(format.frameRate) fps (\(format.reason))\n")
                if keysHelp { write("capture: space starts/stops a take, 0/1/2 lens, +/- zoom, t torch, f flip, q quits\n") }
            case .codecChosen(let choice):
                write("capture: codec \(choice.codec == .hevc ? "HEVC" : "H.264"): \(choice.reason)\n")
            case .status(let status):
                guard statusLine else { return }
                // Cut to the terminal and redrawn in place, as the export's progress bar is: a
                // wrapped line cannot be redrawn with a carriage return.
                let line = Self.statusText(status)
                write("\r" + String(line.prefix(Swift.max(1, TerminalWidth.current() - 1))) + "\u{1B}[K")
                lineShown = true
            case .takeStarted(let index):
                // A terminal shows it in the status line; a log gets a line (with its time).
                guard !statusLine else { return }
                write("take \(index + 1): recording\n")
            case .takeChecked(let take):
                guard let problem = take.check?.problem else { return }
                clear(&lineShown)
                write("vrender: warning: take \(take.file) is broken: \(problem)\n")
            case .takeFinished(let take):
                clear(&lineShown)
                write(String(format: "take: %@  %.2f s, %d frames, %d dropped, %dx%d %@\n",
                             take.file, take.duration, take.frames, take.dropped, take.width, take.height, take.codec))
            case .notice(let message):
                clear(&lineShown)
                write("vrender: notice: \(message)\n")
            }
        }
    }

    /// Clears the status line, so later output starts on a clean line.
    func finish() {
        lineShown.withLock { clear(&$0) }
    }

    /// Compact enough for an 80-column terminal, where it is cut otherwise.
    static func statusText(_ status: RecorderStatus) -> String {
        let camera = status.camera
        let mark = status.recording ? "● REC" : "○ idle"
        // Only while the encoder is behind (measuring the codecs, a busy machine): frames not
        // yet in the file.
        let behind = status.behind >= 0.5 ? String(format: " behind %.1fs", status.behind) : ""
        return String(format: "%@ take %d %6.2fs %4.1ffps drops %d%@ | %@ lens %gx zoom %.2fx torch %@",
                      mark, status.take, status.seconds, status.fps, status.dropped, behind,
                      camera.position.rawValue, camera.lens, camera.zoom,
                      camera.torch > 0 ? String(format: "%.0f%%", camera.torch * 100) : "off")
    }

    private func clear(_ lineShown: inout Bool) {
        if lineShown { write("\r\u{1B}[K") }
        lineShown = false
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
