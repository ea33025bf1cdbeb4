import Foundation
import VRenderCore

/// A plain-text script that drives a take, so batch runs and CI are reproducible.
///
/// Grammar, one action per line (blank lines and `#` comments ignored):
///
///     at <time> zoom <factor> [ramp <doublings-per-second>]
///     at <time> lens 0.5|1|2
///     at <time> torch on|off|<level 0...1>
///     at <time> flip
///     at <time> focus <x 0...1> <y 0...1>
///     at <time> clap
///     at <time> audio-gap <duration>
///     at <time> flub
///     at <time> skip
///     at <time> stop
///
/// `<time>` is relative to the start of each take and uses the duration syntax (`1.5s`,
/// `1500ms`, `2`). Actions run in time order (lines with equal times in file order). `stop` ends
/// the take. `clap` (a flash and a click) and `audio-gap` (the microphone loses that long) need
/// the synthetic camera recording the synthetic microphone; other cameras report them unsupported.
/// `flub` (read the first words of the next line, pause, read it again from its start) and `skip`
/// (leave the next line unread) are for the synthetic presenter: the synthetic microphone reading
/// a prompter script; each applies to the first line the presenter starts at or after its time.
/// Out-of-range values are clamped by the camera and reported, not rejected here.
public struct ActionScript: Sendable, Equatable {
    public enum Command: Sendable, Equatable {
        case control(CameraControl)
        case presenter(PresenterAction)
        case stop
    }

    /// What the synthetic presenter does wrong on purpose.
    public enum PresenterAction: String, Sendable, Equatable {
        /// Reads the first words of a line, pauses, and reads the line again from its start.
        case flub
        /// Leaves a line unread.
        case skip
    }

    public struct Action: Sendable, Equatable {
        public var time: Double
        public var command: Command
        /// 1-based line in the file, for messages.
        public var line: Int
    }

    public let actions: [Action]
    /// Where the script came from, for messages.
    public let source: String

    /// The `flub` and `skip` actions, in time order (times from the take's start).
    public var presenterActions: [(time: Double, action: PresenterAction, line: Int)] {
        actions.compactMap { action in
            guard case .presenter(let what) = action.command else { return nil }
            return (action.time, what, action.line)
        }
    }

    /// The time of the first `stop`, which sets the take's length when `--duration` is absent.
    public var stopTime: Double? {
        actions.first { $0.command == .stop }?.time
    }

    public init(actions: [Action], source: String) {
        self.actions = actions
        self.source = source
    }

    /// Parses script text. Errors name `source:line` and say what was expected.
    public init(text: String, source: String) throws {
        var actions: [Action] = []
        // "\r\n" is one Character in Swift, not a "\n": without it a Windows-saved script was one
        // line (and, starting with a comment, silently no actions at all).
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        for (index, rawLine) in lines.enumerated() {
            let lineNumber = index + 1
            let content = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let words = content.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map { String($0).lowercased() }
            guard !words.isEmpty else { continue }
            let place = "\(source):\(lineNumber)"
            guard words.count >= 3, words[0] == "at" else {
                throw VRenderError.input(place, "expected 'at <time> <action>', got '\(content.trimmingCharacters())'")
            }
            guard let time = ValueSyntax.seconds(words[1]) else {
                throw VRenderError.input(place, "'\(words[1])' is not a time (use e.g. \(ValueSyntax.timeExamples))")
            }
            let command = try Self.command(Array(words[2...]), place: place)
            actions.append(Action(time: time, command: command, line: lineNumber))
        }
        // A stable sort: equal times keep file order.
        self.actions = actions.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
        self.source = source
    }

    /// The largest script read: a script is a few hundred lines; more is the wrong file.
    public static let maximumBytes = 1 << 20

    /// Reads and parses the script file at `path`. Errors name the file (`path: cannot read
    /// the script (no such file)`) or the line (`path:3: …`). The file checked is the file read
    /// (one open, checked through its descriptor; a FIFO is not waited on).
    public init(contentsOfFile path: String) throws {
        let data: Data
        do {
            data = try HeldFile.contents(ofPath: path, limit: Self.maximumBytes)
        } catch {
            switch error {
            case .refused(let refusal): throw VRenderError.input(path, "cannot read the script (\(refusal.reason))")
            case .tooLarge(let size): throw VRenderError.input(path, "the script is \(size) bytes; a script is at most 1 MiB of text")
            case .unreadable(let reason): throw VRenderError.input(path, "cannot read the script (\(reason))")
            }
        }
        try self.init(text: String(decoding: data, as: UTF8.self), source: path)
    }

    static let actionNames = "zoom, lens, torch, flip, focus, clap, audio-gap, flub, skip, stop"

    private static func command(_ words: [String], place: String) throws -> Command {
        func number(_ text: String, _ what: String) throws -> Double {
            guard let value = Double(text), value.isFinite else {
                throw VRenderError.input(place, "\(what) '\(text)' is not a number")
            }
            return value
        }
        func arity(_ count: Int, _ usage: String) throws {
            guard words.count == count else { throw VRenderError.input(place, "usage: at <time> \(usage)") }
        }
        switch words[0] {
        case "zoom":
            if words.count == 2 { return .control(.zoom(try number(words[1], "zoom factor"))) }
            try arity(4, "zoom <factor> [ramp <rate>]")
            guard words[2] == "ramp" else { throw VRenderError.input(place, "usage: at <time> zoom <factor> [ramp <rate>]") }
            return .control(.rampZoom(to: try number(words[1], "zoom factor"), rate: try number(words[3], "ramp rate")))
        case "lens":
            try arity(2, "lens 0.5|1|2")
            let factor = try number(words[1].replacingOccurrences(of: "x", with: ""), "lens")
            guard [0.5, 1, 2].contains(factor) else { throw VRenderError.input(place, "lens must be 0.5, 1 or 2, got \(words[1])") }
            return .control(.lens(factor))
        case "torch":
            try arity(2, "torch on|off|<level>")
            switch words[1] {
            case "on": return .control(.torch(level: 1))
            case "off": return .control(.torch(level: 0))
            default: return .control(.torch(level: try number(words[1], "torch level")))
            }
        case "flip":
            try arity(1, "flip")
            return .control(.flip)
        case "focus":
            try arity(3, "focus <x> <y>")
            return .control(.pointOfInterest(x: try number(words[1], "x"), y: try number(words[2], "y")))
        case "clap":
            try arity(1, "clap")
            return .control(.clap)
        case "audio-gap":
            try arity(2, "audio-gap <duration>")
            guard let length = ValueSyntax.seconds(words[1]), length > 0 else {
                throw VRenderError.input(place, "audio-gap length '\(words[1])' is not a positive duration (use e.g. 200ms)")
            }
            return .control(.audioGap(seconds: length))
        case "flub", "skip":
            try arity(1, words[0])
            return .presenter(words[0] == "flub" ? .flub : .skip)
        case "stop":
            try arity(1, "stop")
            return .stop
        default:
            throw VRenderError.input(place, "unknown action '\(words[0])' (known: \(actionNames))")
        }
    }
}

extension Substring {
    fileprivate func trimmingCharacters() -> String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
