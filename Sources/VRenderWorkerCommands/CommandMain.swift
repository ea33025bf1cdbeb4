import ArgumentParser
import Foundation
import VRenderCore
import VRenderFilters

/// How vrender's executables start and end (`vrender`, `vrender-worker`): the process set up
/// alike, the arguments read as the system passed them, and every error, from parsing or from a
/// subcommand, printed here and only here, in one style, with one exit status per kind.
/// Subcommands never print errors: they throw. `Root` is the executable's root command: its
/// name starts each error line, and a usage error points to its subcommands' help.
package enum CommandMain<Root: ParsableCommand> {
    /// Before any command runs: glibc's malloc arenas capped (`ProcessTuning`), and SIGXFSZ
    /// ignored. Past a file-size limit (ulimit -f) a write raises SIGXFSZ, which kills by
    /// default: ignored, the write fails with EFBIG instead, so a take is cut back cleanly and
    /// an export reports it and removes its temporary file.
    package static func setUpProcess() {
        ProcessTuning.limitMallocArenas()
        signal(SIGXFSZ, SIG_IGN)
    }

    /// The arguments as the system passed them. `CommandLine.arguments` replaces bytes that are
    /// not UTF-8 with U+FFFD, which names another file (`a\xffb.mov` would become `a\u{FFFD}b.mov`);
    /// `FileNames` keeps them, escaped, so that the file is found.
    package static func arguments() -> [String] {
        (1..<Int(CommandLine.argc)).map { index in
            let argument = CommandLine.unsafeArgv[index]!
            return FileNames.string(fromPlatformBytes: UnsafeBufferPointer(
                start: UnsafeRawPointer(argument).assumingMemoryBound(to: UInt8.self), count: strlen(argument)))
        }
    }

    /// Parses `arguments` and runs the command they name; on an error, prints it and exits
    /// with its status.
    package static func run(_ arguments: [String]) {
        var command: any ParsableCommand
        do {
            command = try parse(arguments)
        } catch {
            Foundation.exit(reportError(error.error, arguments: arguments, refused: error.refused))
        }
        do {
            // Checked once parsing succeeded, so `--help` still answers: a variant of the row
            // kernels this CPU cannot run would otherwise be a crash deep in an export.
            if let refusal = RowInstructions.environmentRefusal { throw refusal }
            try command.run()
        } catch {
            Foundation.exit(reportError(error, arguments: arguments))
        }
    }

    /// Why the command line did not parse: ArgumentParser's error, and when a value of an
    /// option with a syntax of its own was refused (a `ValueArgument`'s), that refusal.
    package struct ParseFailure: Error {
        package var error: any Error
        package var refused: ValueSyntaxError?
    }

    /// `parseAsRoot`, keeping the refusal of a value, which ArgumentParser only hands on in its
    /// own words ("The value … is invalid for …"), for `reportError` to word as every usage
    /// error is worded.
    package static func parse(_ arguments: [String]) throws(ParseFailure) -> any ParsableCommand {
        let refusals = ValueRefusals()
        do {
            return try ValueRefusals.$current.withValue(refusals) { try Root.parseAsRoot(arguments) }
        } catch {
            throw ParseFailure(error: error, refused: refusals.first)
        }
    }

    /// Prints `error` (at most once) and returns the exit status it stands for. `arguments`
    /// name the subcommand whose help a usage error points to; `refused` is the value whose
    /// refusal `error` is, if it is one.
    package static func reportError(_ error: any Error, arguments: [String] = [],
                                    refused: ValueSyntaxError? = nil) -> Int32 {
        switch error {
        case let code as ExitCode:
            // An exit status with nothing to say (a capture ended by Ctrl-C exits 130 after
            // printing its takes): never printed.
            return code.rawValue
        case let error as VRenderError where error.kind == .option:
            // A bad option value or combination found past parsing (the library checks it):
            // a usage error like those ArgumentParser finds, with the same hint.
            printUsageError(error.description, arguments: arguments)
            return CommandErrorText.usageExitStatus
        case let error as VRenderError:
            printError(error.description)
            return error.kind == .cancelled ? 130 : 1
        default:
            break
        }
        let code = Root.exitCode(for: error)
        if code == .success {
            // --help, --version, `vrender help <sub>`: ArgumentParser's text, on stdout.
            print(Root.fullMessage(for: error))
            return 0
        }
        // Parsing failures and `validate()`'s ValidationError are the ones ArgumentParser maps
        // to EX_USAGE; anything else is a runtime error a subcommand let through.
        guard code == .validationFailure else {
            let text = CommandErrorText.oneLine(Root.message(for: error))
            printError(text.isEmpty ? "\(error)" : text)
            return code.rawValue
        }
        printUsageError(usageMessage(error, arguments: arguments, refused: refused), arguments: arguments)
        return CommandErrorText.usageExitStatus
    }

    /// A usage error's message: a refused value said option first ("--size '13x7' is not WxH
    /// …", as `ValueSyntaxError` words it), anything else in ArgumentParser's words, on one line.
    package static func usageMessage(_ error: any Error, arguments: [String], refused: ValueSyntaxError?) -> String {
        guard let refused else { return CommandErrorText.oneLine(Root.message(for: error)) }
        guard let option = ValueRefusals.option(given: refused.value, in: arguments) else { return refused.description }
        return "\(option) \(refused)"
    }

    /// The root's name and the subcommands named at the start of `arguments` (`vrender takes trim`).
    package static func commandPath(_ arguments: [String]) -> String {
        commandStack(arguments).map { $0._commandName }.joined(separator: " ")
    }

    /// The root and the subcommands named at the start of `arguments`, the one they run last.
    package static func commandStack(_ arguments: [String]) -> [any ParsableCommand.Type] {
        var stack: [any ParsableCommand.Type] = [Root.self]
        for argument in arguments {
            guard let sub = stack[stack.count - 1].configuration.subcommands.first(where: { $0._commandName == argument }) else { break }
            stack.append(sub)
        }
        return stack
    }

    /// The one place an error is printed ("vrender: error: ..."); a file name's bytes that are
    /// not text are shown as `\xNN`.
    private static func printError(_ message: String) {
        let line = "\(Root._commandName): error: \(FileNames.display(message))\n"
        FileHandle.standardError.write(Data(TerminalText.fitted(line, for: STDERR_FILENO).utf8))
    }

    /// A usage error, and the hint to the help of the subcommand `arguments` name.
    private static func printUsageError(_ message: String, arguments: [String]) {
        printError(message)
        FileHandle.standardError.write(Data("see '\(commandPath(arguments)) --help'\n".utf8))
    }
}

/// How `CommandMain` words ArgumentParser's messages, whatever the root command.
package enum CommandErrorText {
    /// Exit status of a usage error (a bad option, a missing argument, a failed `validate()`).
    /// ArgumentParser's own is 64 (`EX_USAGE`); 2 is what POSIX utilities and the shell use.
    package static let usageExitStatus: Int32 = 2

    /// Messages are one line by promise: fold any ArgumentParser message that is not.
    static func oneLine(_ message: String) -> String {
        message.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: " ")
    }
}
