import Foundation
import VRenderRecording

/// Shows capture events: a redrawn status line on a terminal, and one line per finished take
/// and per notice (clamped or unsupported controls) always.
final class StatusPrinter: @unchecked Sendable {
    private let enabled: Bool
    private let lock = NSLock()
    private var lineShown = false

    init(enabled: Bool) {
        self.enabled = enabled
    }

    func handle(_ event: RecorderEvent) {
        lock.lock()
        defer { lock.unlock() }
        switch event {
        case .status(let status):
            guard enabled else { return }
            let camera = status.camera
            let mark = status.recording ? "● REC" : "○ idle"
            // Compact enough for an 80-column terminal, where it is cut otherwise.
            let line = String(format: "%@ take %d %6.2fs %4.1ffps drops %d | %@ lens %gx zoom %.2fx torch %@",
                              mark, status.take, status.seconds, status.fps, status.dropped,
                              camera.position.rawValue, camera.lens, camera.zoom,
                              camera.torch > 0 ? String(format: "%.0f%%", camera.torch * 100) : "off")
            // Cut to the terminal and redrawn in place, as the export's progress bar is: a
            // wrapped line cannot be redrawn with a carriage return.
            write("\r" + String(line.prefix(Swift.max(1, TerminalWidth.current() - 1))) + "\u{1B}[K")
            lineShown = true
        case .takeStarted:
            break
        case .takeFinished(let take):
            clearLine()
            write(String(format: "take: %@  %.2f s, %d frames, %d dropped, %dx%d %@\n",
                         take.file, take.duration, take.frames, take.dropped, take.width, take.height, take.codec))
        case .notice(let message):
            clearLine()
            write("vrender: notice: \(message)\n")
        }
    }

    func finish() {
        lock.lock()
        defer { lock.unlock() }
        clearLine()
    }

    private func clearLine() {
        if lineShown { write("\r\u{1B}[K") }
        lineShown = false
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
