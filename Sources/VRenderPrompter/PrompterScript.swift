import Foundation
import VRenderCore

/// A teleprompter script: the text of a UTF-8 file (`--prompter FILE`).
public struct PrompterScript: Sendable, Equatable {
    /// The file's name as given, which takes.json keeps.
    public var name: String
    public var text: String

    public init(name: String, text: String) {
        self.name = name
        self.text = text
    }

    /// Reads `path`. Throws `VRenderError.input(path, …)` when the file cannot be read, is not
    /// UTF-8 or has nothing to show.
    public init(contentsOfFile path: String) throws {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw VRenderError.input(path, "cannot read the prompter script (\(Self.reason(error)))")
        }
        guard var text = String(validating: data, as: UTF8.self) else {
            let valid = Self.validPrefixLength(data)
            throw VRenderError.input(path, "the prompter script is not UTF-8 text (byte \(valid + 1) is not valid UTF-8)")
        }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        guard text.contains(where: { !$0.isWhitespace }) else {
            throw VRenderError.input(path, "the prompter script is empty: there is nothing to show")
        }
        self.init(name: path, text: text)
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

    /// Foundation's error as the POSIX reason when it has one ("No such file or directory").
    private static func reason(_ error: any Error) -> String {
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        if let code = underlying?.code, underlying?.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(code)))
        }
        return error.localizedDescription
    }
}

/// Layouts of a script for the prompter's box.
public enum PrompterLayouts {
    /// The layout capture uses for a `frameWidth`×`frameHeight` picture's default box.
    ///
    /// For now an estimate by character count (see `wrap`), so capture and its tests run
    /// before the FreeType layout is wired in.
    public static func forCapture(script: String, frameWidth: Int, frameHeight: Int) -> PrompterSession.Layout {
        let geometry = PrompterGeometry(pictureWidth: frameWidth, pictureHeight: frameHeight)
        // LEAD: replace with the FreeType layout (the overlay's lines, line height and content
        // height at this picture's scale), so the terminal's rows are the overlay's lines.
        return { fontSize in
            estimatedLayout(script: script, fontSize: fontSize, geometry: geometry)
        }
    }

    /// Average advance of a character, in ems, of the prompter's semibold sans serif: the
    /// estimate's wrapping width.
    static let averageAdvance = 0.55
    /// Ascent plus descent, in ems (DejaVu Sans), before the seed's line spacing.
    static let lineHeightInEms = 1.17

    /// `script` wrapped by character count to the box's text width, in points.
    static func estimatedLayout(script: String, fontSize: Double, geometry: PrompterGeometry) -> PrompterText {
        let width = geometry.points(Double(geometry.viewport.width))
        let columns = Swift.max(8, Int(width / (fontSize * averageAdvance)))
        let lines = wrap(script, columns: columns)
        let lineHeight = fontSize * lineHeightInEms + PrompterSettings.lineSpacing
        let textPixels = Int((Double(lines.count) * lineHeight * geometry.pixelsPerPoint).rounded(.up))
        return PrompterText(lines: lines, lineHeight: lineHeight, contentHeight: geometry.contentPoints(textPixels: textPixels))
    }

    /// Each paragraph of `script` (a line of the file) wrapped at spaces to `columns`
    /// characters, words longer than a line cut; empty paragraphs stay as empty lines, the
    /// script's trailing ones go. Tabs become spaces and other control characters go, so no
    /// line can move a terminal's cursor.
    public static func wrap(_ script: String, columns: Int) -> [String] {
        let columns = Swift.max(1, columns)
        var lines: [String] = []
        for paragraph in script.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            let words = printable(paragraph).split(separator: " ")
            if words.isEmpty { lines.append(""); continue }
            var line = ""
            for word in words {
                var word = Substring(word)
                while word.count > columns {  // a word longer than a line: cut it
                    if !line.isEmpty { lines.append(line); line = "" }
                    lines.append(String(word.prefix(columns)))
                    word = word.dropFirst(columns)
                }
                if line.isEmpty {
                    line = String(word)
                } else if line.count + 1 + word.count <= columns {
                    line += " " + word
                } else {
                    lines.append(line)
                    line = String(word)
                }
            }
            if !line.isEmpty { lines.append(line) }
        }
        while lines.last == "" { lines.removeLast() }
        return lines
    }

    /// `text` with tabs as spaces and without control characters.
    static func printable(_ text: Substring) -> String {
        String(text.map { $0 == "\t" ? " " : $0 }.filter { character in
            !character.unicodeScalars.contains { $0.properties.generalCategory == .control }
        })
    }
}

extension PrompterSession {
    /// Makes the session for a capture once its picture size is known: `script` laid out for
    /// the picture's default box (`PrompterLayouts.forCapture`).
    public static func captureFactory(script: PrompterScript, settings: PrompterSettings) -> Factory {
        { width, height in
            let geometry = PrompterGeometry(pictureWidth: width, pictureHeight: height)
            return PrompterSession(scriptName: script.name, settings: settings, viewportHeight: geometry.viewportPoints,
                                   layout: PrompterLayouts.forCapture(script: script.text, frameWidth: width,
                                                                      frameHeight: height))
        }
    }
}
