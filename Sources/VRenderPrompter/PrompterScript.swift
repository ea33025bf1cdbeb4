import Foundation
import VRenderCore
import VRenderImaging

/// A teleprompter script: the text of a UTF-8 file (`capture --prompter FILE`,
/// `concat --prompter-overlay FILE`), cleaned for showing.
public struct PrompterScript: Sendable, Equatable {
    /// The largest script read: a script is a few pages; more is the wrong file.
    public static let maximumBytes = 1 << 20

    /// The file's name as given, which takes.json keeps.
    public var name: String
    public var text: String

    public init(name: String, text: String) {
        self.name = name
        self.text = text
    }

    /// Reads `path`. Throws `VRenderError.input(path, …)` when the file is missing, not a
    /// file, unreadable, over `maximumBytes`, not UTF-8, or has nothing to show. The file checked
    /// is the file read (one open, checked through its descriptor; a FIFO is not waited on).
    public init(contentsOfFile path: String) throws {
        let data: Data
        do {
            data = try HeldFile.contents(ofPath: path, limit: Self.maximumBytes)
        } catch {
            throw Self.readError(error, path: path)
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            let valid = Self.validPrefixLength(data)
            throw VRenderError.input(path, "the prompter script is not UTF-8 text (byte \(valid + 1) is not valid UTF-8)")
        }
        let shown = Self.cleaned(text)
        guard shown.contains(where: { !$0.isWhitespace }) else {
            throw VRenderError.input(path, "the prompter script is empty: there is nothing to show")
        }
        self.init(name: path, text: shown)
    }

    /// Why the script at `path` was not read, in the prompter's words.
    private static func readError(_ failure: HeldFile.PathReadFailure, path: String) -> VRenderError {
        switch failure {
        case .refused(let refusal):
            switch refusal.why {
            case .notRegular: VRenderError.input(path, "the prompter script is not a file (it should be UTF-8 text)")
            case .missing: VRenderError.input(path, "cannot read the prompter script (No such file or directory)")
            case .link, .failed: VRenderError.input(path, "cannot read the prompter script: \(refusal.reason)")
            }
        case .tooLarge(let size): VRenderError.input(path, "the prompter script is \(size) bytes; a script is at most 1 MiB of text")
        case .unreadable(let reason): VRenderError.input(path, "cannot read the prompter script: \(reason)")
        }
    }

    /// `text` as the prompter shows it: without a byte-order mark, with Windows and old Mac
    /// line ends as newlines, tabs as spaces and no other control character (none reaches a
    /// terminal to move its cursor, or the font as a missing glyph).
    public static func cleaned(_ text: String) -> String {
        var text = text
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        text = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        return String(text.map { $0 == "\t" ? " " : $0 }.filter { character in
            character == "\n" || !character.unicodeScalars.contains { $0.properties.generalCategory == .control }
        })
    }

    /// `text`'s identity in takes.json: FNV-1a (64 bits) of its UTF-8, as "fnv1a64:" and 16
    /// hex digits. It tells the same script from another, not a forgery (a folder's own
    /// takes.json only chooses where the scroll starts).
    public static func hash(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        let hex = String(hash, radix: 16)
        return "fnv1a64:" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// Bytes before the first that does not decode as UTF-8.
    private static func validPrefixLength(_ data: Data) -> Int {
        var decoder = UTF8()
        var iterator = data.makeIterator()
        var consumed = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): consumed += String(scalar).utf8.count
            case .emptyInput, .error: return consumed
            }
        }
    }
}

extension PrompterSession {
    /// Makes the session for a capture once its picture size is known: `script` laid out with
    /// FreeType for the picture's default box, exactly as an export of that size draws it, so
    /// the terminal's rows are the overlay's lines. Opens the font now: a missing font is an
    /// error before the camera opens.
    /// `restartHint`: how the user starts over from the top (`PrompterSession.restartHint`).
    public static func captureFactory(script: PrompterScript, settings: PrompterSettings,
                                      restartHint: String? = nil) throws -> Factory {
        let font = try TextFont()
        let hash = PrompterScript.hash(script.text)
        return { width, height in
            let geometry = PrompterGeometry(pictureWidth: width, pictureHeight: height)
            var session = PrompterSession(scriptName: script.name, settings: settings, viewportHeight: geometry.viewportPoints,
                                          layout: { fontSize in geometry.prompterText(geometry.layout(script.text, fontSize: fontSize, font: font)) })
            session.scriptHash = hash
            session.restartHint = restartHint
            return session
        }
    }
}
