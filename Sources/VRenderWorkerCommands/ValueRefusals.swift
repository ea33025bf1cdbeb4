import Synchronization
import VRenderCore

/// The first value a `ValueArgument` refused while `CommandMain.parse` read the command line.
package final class ValueRefusals: Sendable {
    /// Bound by `CommandMain.parse` for the parse (a task-local: tests parse side by side).
    @TaskLocal package static var current: ValueRefusals?

    private let refusal = Mutex<ValueSyntaxError?>(nil)

    package var first: ValueSyntaxError? { refusal.withLock { $0 } }

    package func record(_ error: ValueSyntaxError) {
        refusal.withLock { if $0 == nil { $0 = error } }
    }

    /// The option `value` was given to in `arguments` (`--size 13x7`, `--size=13x7`), read as
    /// ArgumentParser reads them, left to right up to `--`; nil when none was.
    package static func option(given value: String, in arguments: [String]) -> String? {
        for (index, word) in arguments.enumerated() where word.hasPrefix("-") {
            if word == "--" { break }
            if let equals = word.firstIndex(of: "="), word[word.index(after: equals)...] == value {
                return String(word[..<equals])
            }
            if index + 1 < arguments.count, arguments[index + 1] == value { return word }
        }
        return nil
    }
}
