import ArgumentParser
import Foundation
import Testing
@testable import vrender
import VRenderWorkerCommands

/// Negative numbers as option values (`NegativeValues`): read as the command line is read in
/// `VRender.main` (a left-out value written in, then negative numbers attached), then parsed
/// by ArgumentParser as the binary parses them.
@Suite struct NegativeValueTests {
    /// `arguments` as `VRender.main` hands them to ArgumentParser.
    private func prepared(_ arguments: [String]) -> [String] {
        NegativeValues.attach(OptionalValues.normalize(arguments))
    }

    private func parsed<Command: ParsableCommand>(_ arguments: [String], as: Command.Type) throws -> Command {
        let command = try VRender.parseAsRoot(prepared(arguments))
        return try #require(command as? Command, "\(arguments) parsed as \(type(of: command))")
    }

    /// The message `arguments` are refused with (nil when they parse), as `vrender` prints it.
    private func refusal(_ arguments: [String]) -> String? {
        let arguments = prepared(arguments)
        do {
            _ = try CommandMain<VRender>.parse(arguments)
            return nil
        } catch {
            return CommandMain<VRender>.usageMessage(error.error, arguments: arguments, refused: error.refused)
        }
    }

    private let capture = ["capture", "--device", "synthetic", "--out", "takes"]

    @Test func aSlowClockIsANegativeDrift() throws {
        #expect(try parsed(capture + ["--audio-drift", "-500"], as: VRender.Capture.self).audioDrift == -500)
        #expect(try parsed(capture + ["--audio-drift=-500"], as: VRender.Capture.self).audioDrift == -500)
        #expect(try parsed(capture + ["--audio-drift", "-0.5", "--zoom", "2"], as: VRender.Capture.self).audioDrift == -0.5)
    }

    @Test func loudnessTrimLevelsAndPausesTakeNegativeNumbers() throws {
        let concat = try parsed(["concat", "a.mov", "--loudness", "-16", "--trim-silence", "-35:0.1", "--cut-pauses", "1.5s"],
                                as: VRender.Concat.self)
        #expect(concat.export.loudness?.target == -16)
        #expect(concat.export.trimSilence == "-35:0.1")
        #expect(prepared(["concat", "--trim-silence", "-35:0.1", "a.mov"]) == ["concat", "--trim-silence=-35:0.1", "a.mov"])
        // A value left out is still written in, and the next option still read as one.
        #expect(try parsed(["concat", "--trim-silence", "--loudness", "-23", "a.mov"], as: VRender.Concat.self).export.trimSilence
                == OptionalValues.defaultValue)
        // A negative value reaches the command's own check, which names it.
        #expect(refusal(["concat", "a.mov", "--cut-pauses", "-1.5s", "--trim-silence"])
                == "--cut-pauses '-1.5s' is not a positive time (e.g. 0.5, 0.5s, 500ms, 1:02.5)")
        #expect(refusal(["concat", "a.mov", "--crf", "-5"]) == "--crf must be between 0 and 51, got -5")
    }

    /// A short name takes one too, attached as ArgumentParser reads `-o=VALUE`.
    @Test func aShortNameTakesOne() throws {
        #expect(prepared(["concat", "a.mov", "-o", "-1.mov"]) == ["concat", "a.mov", "-o=-1.mov"])
        #expect(try parsed(["concat", "a.mov", "-o", "-1.mov"], as: VRender.Concat.self).output == "-1.mov")
    }

    /// Only a value is attached: a number after a flag stays a word of its own (and is refused
    /// as one), an option no longer swallows a following option, and nothing after `--` changes.
    @Test func onlyOptionsThatTakeAValueTakeOne() {
        #expect(prepared(capture + ["--torch", "-500"]) == capture + ["--torch", "-500"])
        #expect(refusal(capture + ["--torch", "-500"]).map { !$0.contains("torch") && $0.contains("-500") } == true)
        #expect(refusal(["concat", "a.mov", "--loudness", "--verbose"]) == "Missing value for '--loudness <LUFS>'")
        #expect(prepared(["concat", "--", "--loudness", "-16"]) == ["concat", "--", "--loudness", "-16"])
        #expect(prepared(["takes", "list", "--loudness", "-16"]) == ["takes", "list", "--loudness", "-16"])
    }

    @Test(arguments: ["-500", "-0.5", "-.5", "-16", "-35:0.1", "-1.5s", "-1500ms", "-1x1"])
    func negativeNumbers(_ word: String) {
        #expect(NegativeValues.isNegativeNumber(word))
    }

    @Test(arguments: ["-", "--", "-o", "--audio-drift", "-.", "-x1", "500", "", "--5"])
    func notNegativeNumbers(_ word: String) {
        #expect(!NegativeValues.isNegativeNumber(word))
    }

    /// Every option of every subcommand, as ArgumentParser models them, takes `-7` as its value
    /// through the mechanism: the words come out attached, and ArgumentParser then never says
    /// the value is missing (it may still refuse -7 as that option's value, or the command for
    /// what else it needs). No name starts with a digit, which would make `-7` a name.
    @Test func everyOptionOfEveryCommandTakesANegativeNumber() throws {
        let root = try JSONDecoder().decode(DumpedCommand.self, from: Data(VRender._dumpHelp().utf8)).command
        var checked = 0
        for (path, command) in Self.commands(root, path: []) where path.first != "help" {
            for argument in command.arguments ?? [] {
                for name in argument.names ?? [] {
                    #expect(name.name.first?.isNumber == false, "\(path) \(name.name)")
                }
                guard argument.kind == "option" else { continue }
                for spelling in argument.spellings {
                    let words = path + [spelling, "-7"]
                    #expect(prepared(words) == path + [spelling + "=-7"], "\(words)")
                    let message = refusal(words) ?? ""
                    for misread in ["Missing value", "Unknown option '-", "Unexpected argument '-7'"] {
                        #expect(!message.contains(misread), "\(words): \(message)")
                    }
                    checked += 1
                }
            }
        }
        // concat alone has some 30 options: the walk must have reached the subcommands.
        #expect(checked > 100, "only \(checked) option spellings found")
    }

    /// Each command of the tree with the words that name it (`["takes", "trim"]`).
    private static func commands(_ command: DumpedCommand.Command, path: [String]) -> [([String], DumpedCommand.Command)] {
        [(path, command)] + (command.subcommands ?? []).flatMap { commands($0, path: path + [$0.commandName]) }
    }
}
