import ArgumentParser
import Foundation
import VRenderWorkerCommands

/// Negative numbers as option values (`--audio-drift -500`, `--loudness -16`, `--trim-silence
/// -35:0.1`, `--cut-pauses -1.5s`), on every option of every subcommand. ArgumentParser reads a
/// word that starts with a dash as options (`-500` as the short flags 5, 0, 0), so it refuses the
/// value ("Missing value for '--audio-drift <ppm>'"); attached with `=` (`--audio-drift=-500`) the
/// word is always the value. Before parsing, a negative number that follows an option taking a
/// value is attached to it. Which options take a value is read from ArgumentParser's own model
/// of the command, so an option added later is covered with nothing to keep in step. A word
/// after a flag (which takes no value) is left alone, as is anything after `--`.
enum NegativeValues {
    /// `arguments` with each option that takes a value and is followed by a negative number
    /// written as `OPTION=NUMBER`.
    static func attach(_ arguments: [String]) -> [String] {
        // Most command lines hold no negative number: they do not pay for reading the model.
        guard arguments.contains(where: isNegativeNumber) else { return arguments }
        let options = valueOptions(of: CommandMain<VRender>.commandStack(arguments).last ?? VRender.self)
        var result: [String] = []
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            if word == "--" {
                result += arguments[index...]
                break
            }
            if options.contains(word), index + 1 < arguments.count, isNegativeNumber(arguments[index + 1]) {
                result.append(word + "=" + arguments[index + 1])
                index += 2
            } else {
                result.append(word)
                index += 1
            }
        }
        return result
    }

    /// A dash, then a digit or a point and a digit: `-500`, `-0.5`, `-.5`, `-35:0.1`, `-1.5s`.
    /// No option or flag of vrender is named with a digit (a test checks), so such a word
    /// can only be a value.
    static func isNegativeNumber(_ word: String) -> Bool {
        var rest = Substring(word)
        guard rest.popFirst() == "-" else { return false }
        if rest.first == "." { rest.removeFirst() }
        return rest.first.map { ("0"..."9").contains($0) } ?? false
    }

    /// Every spelling (`--output`, `-o`) of the options of `command` that take a value, as
    /// ArgumentParser models them: the JSON `--experimental-dump-help` prints. Should the JSON
    /// ever not decode, nothing is attached and ArgumentParser's own error stands.
    static func valueOptions(of command: any ParsableCommand.Type) -> Set<String> {
        guard let model = try? JSONDecoder().decode(DumpedCommand.self, from: Data(command._dumpHelp().utf8)) else { return [] }
        return Set((model.command.arguments ?? []).filter { $0.kind == "option" }.flatMap { $0.spellings })
    }
}

/// The part of ArgumentParser's `ToolInfoV0` (module ArgumentParserToolInfo, not a product of
/// the package) that says which arguments take a value; also read by the tests' walk of every
/// command.
struct DumpedCommand: Decodable {
    struct Command: Decodable {
        var commandName: String
        var subcommands: [Command]?
        var arguments: [Argument]?
    }

    struct Argument: Decodable {
        /// `option` (takes a value), `flag` or `positional`.
        var kind: String
        var names: [Name]?

        /// As typed: `--long`, `-s`, `-longWithSingleDash`.
        var spellings: [String] { (names ?? []).map { ($0.kind == "long" ? "--" : "-") + $0.name } }
    }

    struct Name: Decodable {
        /// `long`, `short` or `longWithSingleDash`.
        var kind: String
        var name: String
    }

    var command: Command
}
