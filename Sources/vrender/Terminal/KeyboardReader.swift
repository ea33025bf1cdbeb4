import Foundation
import VRenderCapture
import VRenderCore
import VRenderPrompter
import VRenderRecording

/// Reads single key presses from a terminal (raw mode, no echo) on a thread of its own and
/// turns them into capture commands in `commands`. `restore()` puts the terminal back as it was.
final class KeyboardReader {
    /// The keys pressed, as commands, for the recorder to drain before each frame.
    let commands = BoundedQueue<LiveCommand>(capacity: 64)
    private let saved: termios

    init() {
        var saved = termios()
        tcgetattr(STDIN_FILENO, &saved)
        self.saved = saved
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        tcsetattr(STDIN_FILENO, TCSANOW, &raw)
        // Never joined: it sits in read(2) until a key, the end of input or the process's end.
        StageGroup.detach("vrender.keys") { [commands] in
            var byte: UInt8 = 0
            var escapes = EscapeSkipper()
            while withUnsafeMutableBytes(of: &byte, { (try? Syscall.read(STDIN_FILENO, into: $0)) ?? 0 }) == 1 {
                guard !escapes.swallows(byte), let command = Self.command(for: byte) else { continue }
                commands.push(command)
                if command == .quit { return }
            }
            commands.push(.quit)  // end of input
        }
    }

    func restore() {
        var saved = saved
        tcsetattr(STDIN_FILENO, TCSANOW, &saved)
    }

    static func command(for key: UInt8) -> LiveCommand? {
        switch Character(UnicodeScalar(key)) {
        case " ": return .toggleRecording
        case "0": return .control(.lens(0.5), cause: "key 0")
        case "1": return .control(.lens(1), cause: "key 1")
        case "2": return .control(.lens(2), cause: "key 2")
        case "+", "=": return .zoomStep(up: true)
        case "-": return .zoomStep(up: false)
        case "t", "T": return .toggleTorch
        case "f", "F": return .control(.flip, cause: "key f")
        case "p", "P": return .prompter(.toggleHold, cause: "key p")
        case "[": return .prompter(.slower, cause: "key [")
        case "]": return .prompter(.faster, cause: "key ]")
        case "<", ",": return .prompter(.smaller, cause: "key <")
        case ">", ".": return .prompter(.larger, cause: "key >")
        case "r", "R": return .prompter(.restart, cause: "key r")
        case "q", "Q": return .quit
        default: return nil
        }
    }
}

/// Skips the bytes of a terminal's escape sequences (arrow and function keys send ESC [ A,
/// ESC O P, …), so their `[` and letters are not taken for keys.
struct EscapeSkipper {
    private enum State { case text, escape, sequence }
    private var state = State.text

    /// True when `byte` belongs to an escape sequence.
    mutating func swallows(_ byte: UInt8) -> Bool {
        switch state {
        case .text:
            guard byte == 0x1B else { return false }
            state = .escape
        case .escape:
            // CSI (ESC [) and SS3 (ESC O) go on to a final byte; ESC and one byte is all.
            state = byte == UInt8(ascii: "[") || byte == UInt8(ascii: "O") ? .sequence : .text
        case .sequence:
            if (0x40...0x7E).contains(byte) { state = .text }   // the final byte
        }
        return true
    }
}
