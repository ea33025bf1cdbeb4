import Foundation
import VRenderCore
import VRenderMedia

/// A list of takes in FFmpeg's concat script format (`vrender concat LIST.txt`), so lists people
/// already have work unchanged:
///
///     ffconcat version 1.0
///     # comments and blank lines are skipped
///     file 'take 1.mov'
///     inpoint 1.5
///     outpoint 00:00:04.250
///     file take2.mp4
///     duration 3
///
/// `file` paths are relative to the list's folder unless absolute, and may be quoted ('...')
/// or backslash-escaped as FFmpeg reads them. `inpoint`, `outpoint` and `duration` apply to
/// the file before them, on its own clock as FFmpeg's concat demuxer reads them (the times
/// its packets carry, not from its first picture: `Entry.trim(of:)`); `duration` without
/// `outpoint` ends the part used `duration` after its in point. Unlike FFmpeg's demuxer,
/// vrender cuts frame-exactly (`TakeTrim`). Other directives (`stream`, `option`, ...) are
/// refused by line, `file_packet_meta(data)` is skipped with a note. The list is only read.
package struct ConcatList: Sendable {
    package struct Entry: Sendable, Equatable {
        package var path: String
        /// Seconds on the file's own clock; nil where the list gives none.
        package var inpoint: Double?
        package var outpoint: Double?
        /// `duration` without `outpoint`: the part used ends this long after the in point (the
        /// first picture without one).
        package var duration: Double?

        package init(path: String, inpoint: Double? = nil, outpoint: Double? = nil, duration: Double? = nil) {
            (self.path, self.inpoint, self.outpoint, self.duration) = (path, inpoint, outpoint, duration)
        }

        /// Whether the list cuts this file at all.
        package var isTrimmed: Bool { inpoint != nil || outpoint != nil || duration != nil }
    }

    package var entries: [Entry]
    /// What was skipped, for the plan's notes.
    package var notices: [String]

    /// True for a file `concat` reads as a list: a .txt or .ffconcat name, or a first line
    /// `ffconcat version`.
    package static func isList(_ path: String) -> Bool {
        if ["txt", "ffconcat"].contains((path as NSString).pathExtension.lowercased()) { return true }
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 16)) ?? Data()
        return head.starts(with: Data("ffconcat version".utf8))
    }

    /// The largest list read: a million lines of file names.
    static let maxBytes = 64 << 20

    /// Reads and parses the list at `path`. Errors name the list and the line.
    package init(path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw VRenderError.input(path, "cannot be read")
        }
        guard data.count <= Self.maxBytes else { throw VRenderError.input(path, "is over 64 MiB: not a list of takes") }
        guard let text = String(data: data, encoding: .utf8) else { throw VRenderError.input(path, "is not UTF-8 text") }
        try self.init(text: text, path: path)
    }

    init(text: String, path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        var entries: [Entry] = []
        var notices: [String] = []
        var pending: (path: String, start: Double?, end: Double?, duration: Double?, line: Int)?
        func finish() throws {
            guard let file = pending else { return }
            let entry = Entry(path: file.path, inpoint: file.start, outpoint: file.end, duration: file.end == nil ? file.duration : nil)
            let end = entry.outpoint ?? entry.duration.map { (entry.inpoint ?? 0) + $0 }
            if entry.isTrimmed, let refusal = TakeTrim(start: entry.inpoint ?? 0, end: end).refusal {
                throw VRenderError.input(path, "line \(file.line): \(refusal)")
            }
            entries.append(entry)
        }
        for (offset, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let number = offset + 1
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let (directive, rest) = Self.split(line)
            let fail = { (why: String) in VRenderError.input(path, "line \(number): \(why)") }
            switch directive {
            case "ffconcat":
                guard rest == "version 1.0" else { throw fail("'\(line)': vrender reads ffconcat version 1.0") }
            case "file":
                try finish()
                let name = try Self.token(rest, line: number, list: path)
                guard !name.isEmpty else { throw fail("'file' names no file") }
                pending = (name.hasPrefix("/") || folder.isEmpty ? name : folder + "/" + name, nil, nil, nil, number)
            case "inpoint", "outpoint", "duration":
                guard pending != nil else { throw fail("'\(directive)' before any 'file'") }
                guard let seconds = ValueSyntax.seconds(rest) else {
                    throw fail("'\(rest)' is not a time (seconds, or [HH:]MM:SS.mmm)")
                }
                switch directive {
                case "inpoint": pending?.start = seconds
                case "outpoint": pending?.end = seconds
                default: pending?.duration = seconds
                }
            case "file_packet_meta", "file_packet_metadata":
                notices.append("\(path) line \(number): '\(directive)' is not applied by vrender (skipped)")
            default:
                throw fail("'\(directive)' is not a directive vrender applies (it reads file, inpoint, outpoint and duration)")
            }
        }
        try finish()
        guard !entries.isEmpty else { throw VRenderError.input(path, "lists no files ('file NAME' lines)") }
        self.entries = entries
        self.notices = notices
    }

    /// The directive and the rest of the line.
    private static func split(_ line: String) -> (String, String) {
        guard let space = line.firstIndex(where: \.isWhitespace) else { return (line, "") }
        return (String(line[..<space]), line[space...].trimmingCharacters(in: .whitespaces))
    }

    /// A file name as FFmpeg's token reader reads it: '...' quoted parts taken as they are,
    /// a backslash escaping the next character, both concatenated ('it'\''s' is it's).
    private static func token(_ text: String, line: Int, list: String) throws -> String {
        var result = ""
        var quoted = false
        var escaped = false
        for character in text {
            if escaped {
                result.append(character)
                escaped = false
            } else if quoted {
                if character == "'" { quoted = false } else { result.append(character) }
            } else if character == "'" {
                quoted = true
            } else if character == "\\" {
                escaped = true
            } else {
                result.append(character)
            }
        }
        guard !quoted, !escaped else { throw VRenderError.input(list, "line \(line): the file name's quote is not closed") }
        return result
    }
}
