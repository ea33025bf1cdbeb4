/// Options whose value may be left out (`concat --stabilize [STRENGTH]`), which ArgumentParser
/// cannot declare: before parsing, a bare occurrence (last, or followed by something that is
/// not such a value) is rewritten `--name=default`, which the option reads as its default
/// (ArgumentParser refuses an empty value).
enum OptionalValues {
    /// Each such option and what its value looks like.
    static let options: [String: @Sendable (String) -> Bool] = [
        "--stabilize": { Double($0) != nil },
    ]

    static func expand(_ arguments: [String]) -> [String] {
        var result: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                result += arguments[(index - 1)...]
                break
            }
            guard let isValue = options[argument] else {
                result.append(argument)
                continue
            }
            if index < arguments.count, isValue(arguments[index]) {
                result += [argument, arguments[index]]
                index += 1
            } else {
                result.append(argument + "=default")
            }
        }
        return result
    }
}
