import Foundation
import VRenderCapture
import VRenderCore
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
        let thread = Thread { [commands] in
            var byte: UInt8 = 0
            while read(STDIN_FILENO, &byte, 1) == 1 {
                guard let command = Self.command(for: byte) else { continue }
                commands.push(command)
                if command == .quit { return }
            }
            commands.push(.quit)  // end of input
        }
        thread.name = "vrender.keys"
        thread.start()
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
        case "q", "Q": return .quit
        default: return nil
        }
    }
}
