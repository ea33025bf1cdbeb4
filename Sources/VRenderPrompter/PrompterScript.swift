import Foundation
import VRenderCore

/// A prompter script: a UTF-8 text file, read whole (`--prompter`, `--prompter-overlay`).
public enum PrompterScript {
    /// The largest script read: a script is a few pages; more is a wrong file.
    public static let maximumBytes = 1 << 20

    /// The script's text, with Windows line ends made plain. Throws `VRenderError.input`
    /// naming the file when it is missing, unreadable, too big, not UTF-8 or empty.
    public static func load(_ path: String) throws -> String {
        guard let status = FileNames.status(path) else { throw VRenderError.input(path, "no such prompter script") }
        guard status.st_mode & S_IFMT == S_IFREG else { throw VRenderError.input(path, "is not a file (a prompter script is a UTF-8 text file)") }
        guard Int(status.st_size) <= maximumBytes else {
            throw VRenderError.input(path, "is \(status.st_size) bytes; a prompter script is at most 1 MiB of text")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw VRenderError.input(path, "cannot be read (\(String(cString: strerror(errno))))")
        }
        return try text(of: data, path: path)
    }

    /// The script's bytes as text (a UTF-8 byte-order mark dropped, CRLF made LF).
    public static func text(of data: Data, path: String) throws -> String {
        var bytes = data
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        guard let text = String(data: bytes, encoding: .utf8) else {
            throw VRenderError.input(path, "is not UTF-8 text (save the script as UTF-8)")
        }
        let plain = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        guard plain.contains(where: { !$0.isWhitespace }) else { throw VRenderError.input(path, "is empty: nothing to prompt") }
        return plain
    }
}
