import VRenderExport

/// Options whose value may be left out (`--trim-silence` or `--trim-silence -35:0.1`,
/// `--stabilize` or `--stabilize 0.8`): before parsing, such an option not followed by a value
/// of its own syntax gets its `default` value written in (`--trim-silence default`), so that
/// `--trim-silence takes/` still reads `takes/` as an input.
///
/// Kept rather than ArgumentParser's `@Option(defaultAsFlag:)`, which documents taking any next
/// word that does not start with a dash as the value: `concat --trim-silence take.mov` (how
/// the docs and tests write it) would read the take as the level. That it falls back to the
/// flag when a transform refuses the word is not documented, and it also turns
/// `--stabilize=oops` into the default without a word. This rewriting reads no message of
/// ArgumentParser's: it only adds a word, which a parser upgrade cannot change the meaning of.
enum OptionalValues {
    /// Each option and whether a word is a value of it.
    static let options: [String: @Sendable (String) -> Bool] = [
        // A level with an optional margin ("-40", "-35:0.1"); its range is checked when parsed.
        "--trim-silence": { SilenceTrimRequest.level($0) != nil },
        "--stabilize": { Double($0) != nil },
    ]

    /// The marker written for a left-out value.
    static let defaultValue = "default"

    static func normalize(_ arguments: [String]) -> [String] {
        var result: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            result.append(argument)
            index += 1
            if argument == "--" {
                result += arguments[index...]
                break
            }
            guard let isValue = options[argument] else { continue }
            if index < arguments.count, isValue(arguments[index]) {
                result.append(arguments[index])
                index += 1
            } else {
                result.append(defaultValue)
            }
        }
        return result
    }
}
