import Foundation
import Testing

/// Concerns with one home in VRenderCore stay there: the sources are read (code only, comments
/// and string literals left out) for the ways each was once worked out elsewhere.
@Suite struct OneHomeTests {
    struct Rule: CustomStringConvertible, Sendable {
        let pattern: String
        /// The only files (below Sources/) where `pattern` may stand.
        let home: Set<String>
        let why: String
        var description: String { pattern }
    }

    static let rules = [
        Rule(pattern: #"\berrno\b|\bstrerror\("#, home: ["VRenderCore/SystemError.swift"],
             why: "read errno through SystemError.last (and its text through SystemError's description)"),
        // clock_nanosleep and ALSA return the error rather than set errno: retried where they are.
        Rule(pattern: #"\bEINTR\b"#, home: ["VRenderCore/Syscall.swift", "VRenderCapture/Synthetic/RealtimePacer.swift",
                                             "VRenderCapture/Audio/ALSA/ALSAClock.swift"],
             why: "retry a call a signal interrupts with Syscall.retrying"),
        Rule(pattern: #"activeProcessorCount|_SC_NPROCESSORS"#, home: ["VRenderCore/Processors.swift"],
             why: "count processors with Processors.active"),
        Rule(pattern: #"\bDispatchTime\b|uptimeNanoseconds"#, home: [],
             why: "time with MonotonicClock.now() and MonotonicClock.seconds(since:)"),
        Rule(pattern: #"Processors\.active\b"#, home: ["VRenderCore/Processors.swift"],
             why: "take a job's thread counts from its ThreadBudget (ThreadBudget.machine for the whole machine)"),
        Rule(pattern: #"concurrentPerform"#, home: ["VRenderCore/RowBands.swift"],
             why: "split rows with RowBands"),
        Rule(pattern: #"\.keyNotFound\b"#, home: ["VRenderCore/FieldCheck.swift"],
             why: "name the field of a file that did not decode with FieldCheck.reason"),
        Rule(pattern: #"0x7F\.\.\.0x9F"#, home: ["VRenderCore/FieldCheck.swift"],
             why: "tell control characters in text read back with FieldCheck.isControl"),
    ]

    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources")

    @Test(arguments: rules)
    func staysInItsHome(rule: Rule) throws {
        let pattern = try Regex(rule.pattern)
        var strays: [String] = []
        for file in try Self.swiftFiles() where !rule.home.contains(file) {
            let text = try String(contentsOf: Self.sources.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where Self.code(of: line).contains(pattern) {
                strays.append("Sources/\(file):\(number + 1)")
            }
        }
        #expect(strays.isEmpty, "\(rule.why): \(strays.joined(separator: ", "))")
    }

    @Test func readsCodeOnly() throws {
        let errno = try Regex(Self.rules[0].pattern)
        #expect(Self.code(of: "let code = errno").contains(errno))
        #expect(!Self.code(of: "x // errno says why").contains(errno))
        #expect(!Self.code(of: #"print("(errno \(code))")"#).contains(errno))
        #expect(!Self.code(of: "pa_context_errno(context)").contains(errno))
        #expect(try Self.swiftFiles().contains("VRenderCore/SystemError.swift"))
    }

    /// A line without its string literals and its `//` comment.
    static func code(of line: Substring) -> String {
        var code = ""
        var inString = false
        var previous: Character = " "
        for character in line {
            if character == "\"" { inString.toggle() }
            else if !inString && character == "/" && previous == "/" { code.removeLast(); break }
            else if !inString { code.append(character) }
            previous = character
        }
        return code
    }

    /// Every Swift file below Sources/, relative to it.
    static func swiftFiles() throws -> [String] {
        let root = sources.path + "/"
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        return walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
    }
}
