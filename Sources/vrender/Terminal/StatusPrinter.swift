import Foundation
import Synchronization
import VRenderCore
import VRenderPrompter
import VRenderRecording
import VRenderWorkerCommands

/// Shows capture events on standard error: the microphone `--audio auto` picked, the source's
/// format when it opens (and the keys, interactively), a redrawn status line on a terminal (a
/// line per take started otherwise), and one line per finished take, per take that reads back
/// broken, and per notice always.
///
/// With a prompter, a terminal shows its header and rows above the status line, redrawn in
/// place (`LiveScreen`); a log gets a line per take saying where the prompter starts.
final class StatusPrinter: Sendable {
    /// Redraw a status line (standard error is a terminal).
    private let statusLine: Bool
    /// Print `capture: <source>: <format>` when the source opens.
    private let announcesSource: Bool
    /// Print the keys after the source line (interactive capture).
    private let keysHelp: Bool
    /// Print the prompter's keys too (interactive capture with `--prompter`).
    private let prompterKeys: Bool
    /// What is drawn at the bottom of the terminal, to be erased before other output and drawn
    /// again after it. The lock also keeps lines from two threads (capture and writer) from
    /// interleaving.
    private let screen = Mutex(Screen())

    private struct Screen {
        var live = LiveScreen()
        /// A take started and its prompter line is still to be printed (not on a terminal).
        var prompterStartPending = false
    }

    /// The number the session's first take gets in its folder (`TakesFolder.nextTakeNumber`):
    /// takes are called by the number in their file's name, in a folder that had takes before too.
    private let firstTakeNumber: Int

    init(statusLine: Bool, announcesSource: Bool = false, keysHelp: Bool = false, prompterKeys: Bool = false,
         firstTakeNumber: Int = 1) {
        self.firstTakeNumber = firstTakeNumber
        self.statusLine = statusLine
        self.announcesSource = announcesSource
        self.keysHelp = keysHelp
        self.prompterKeys = prompterKeys
    }

    func handle(_ event: RecorderEvent) {
        screen.withLock { screen in
            switch event {
            case .sourceOpened(let name, let format):
                guard announcesSource else { return }
                emit("capture: \(name): \(format.pixelFormat.rawValue) \(format.width)x\(format.height) at \(format.frameRate) fps (\(format.reason))\n",
                      on: &screen)
                if keysHelp { emit("capture: space starts/stops a take, 0/1/2 lens, +/- zoom, t torch, f flip, q quits\n", on: &screen) }
                if keysHelp && prompterKeys { emit("capture: prompter: p holds/resumes, [ ] slower/faster, < > smaller/larger text, r from the top\n", on: &screen) }
            case .microphoneChosen(let pick):
                emit("capture: audio: \(pick.summary)\n", on: &screen)
            case .codecChosen(let choice):
                emit("capture: codec \(choice.codec == .hevc ? "HEVC" : "H.264"): \(choice.reason)\n", on: &screen)
            case .status(let status):
                guard statusLine else { return }
                screen.live.status = Self.statusText(status, firstTakeNumber: firstTakeNumber)
                redraw(&screen)
            case .prompter(let view):
                show(view, on: &screen)
            case .takeStarted(let index):
                // A terminal shows it in the status line; a log gets a line (with its time).
                guard !statusLine else { return }
                write("take \(index + firstTakeNumber): recording\n")
                screen.prompterStartPending = true
            case .takeChecked(let take):
                guard let problem = take.check?.problem else { return }
                emit("vrender: warning: take \(take.file) is broken: \(problem)\n", on: &screen)
            case .takeEnded:
                break   // said with its file, once listed (`.takeFinished`)
            case .takeFinished(let take):
                emit(String(format: "take: %@  %.2f s, %d frames, %d dropped, %dx%d %@\n",
                             take.file, take.duration, take.frames, take.dropped, take.width, take.height, take.codec),
                      on: &screen)
            case .notice(let message):
                // The same style as concat's "plan: note:": the command, then "note:".
                emit("capture: note: \(message)\n", on: &screen)
            }
        }
    }

    /// Clears the status line and the prompter, so later output starts on a clean line.
    func finish() {
        screen.withLock { screen in
            write(screen.live.erase())
            screen.live = LiveScreen()
        }
    }

    /// Parts separated by " | " (take, camera, sound): a terminal too narrow for all of them
    /// shows them on two rows (`LiveScreen.packed`).
    static func statusText(_ status: RecorderStatus, firstTakeNumber: Int = 1) -> String {
        let camera = status.camera
        // Recording: the take and its length; idle: how many takes there are so far (the
        // take count alone, not a take of 0.00 s that is not being recorded).
        let take = status.recording ? String(format: "● REC take %d %6.2fs", status.take + firstTakeNumber - 1, status.seconds)
            : String(format: "○ idle %d take%@", status.take, status.take == 1 ? "" : "s")
        // Only while the encoder is behind (measuring the codecs, a busy machine): frames not
        // yet in the file.
        let behind = status.behind >= 0.5 ? String(format: " behind %.1fs", status.behind) : ""
        return String(format: "%@ %4.1ffps drops %d%@ | %@ lens %gx zoom %.2fx torch %@",
                      take, status.fps, status.dropped, behind,
                      camera.position.rawValue, camera.lens, camera.zoom,
                      camera.torch > 0 ? String(format: "%.0f%%", camera.torch * 100) : "off")
            + (status.sound.map { " | " + soundText($0) } ?? "")
    }

    /// The meter: "mic ▮▮▮▮▮▯▯▯ -18 dB", "CLIP" when it reached full scale, and the sound the
    /// take is missing (the device lost periods) once there is any.
    static func soundText(_ sound: SoundStatus) -> String {
        // Eight steps of 6 dB: -48 dBFS and below shows nothing, 0 dBFS all.
        let steps = sound.peakDBFS.isFinite ? Swift.max(0, Swift.min(8, Int(((sound.peakDBFS + 48) / 6).rounded()))) : 0
        let bar = String(repeating: "▮", count: steps) + String(repeating: "▯", count: 8 - steps)
        let level = sound.peakDBFS.isFinite ? String(format: "%4.0f dB", sound.peakDBFS) : "  -∞ dB"
        var text = "mic \(bar) \(level)"
        if sound.clipping { text += " CLIP" }
        if sound.missingMilliseconds > 0 { text += String(format: " missing %.0f ms", sound.missingMilliseconds) }
        return text
    }

    /// The prompter's block on a terminal; on a log, one line when a take starts.
    private func show(_ view: PrompterView, on screen: inout Screen) {
        if statusLine {
            screen.live.prompterLines = PrompterLines.lines(for: view)
            redraw(&screen)
        } else if screen.prompterStartPending {
            screen.prompterStartPending = false
            write(PrompterLines.startLine(for: view) + "\n")
        }
    }

    /// Writes `text` above the live block (erased first, drawn again after).
    private func emit(_ text: String, on screen: inout Screen) {
        write(screen.live.erase() + TerminalText.fitted(text, for: STDERR_FILENO))
        if statusLine { redraw(&screen) }
    }

    private func redraw(_ screen: inout Screen) {
        write(screen.live.redraw(columns: TerminalSize.columns(), rows: TerminalSize.rows()))
    }

    private func write(_ text: String) {
        guard !text.isEmpty else { return }
        FileHandle.standardError.write(Data(text.utf8))
    }
}
