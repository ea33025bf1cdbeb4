import ArgumentParser
import Foundation
import VRenderCore

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
        do {
            var command = try Root.parseAsRoot(arguments)
            try command.run()
        } catch {
            Foundation.exit(reportError(error, arguments: arguments))
        }
    }

    /// Prints `error` (at most once) and returns the exit status it stands for. `arguments`
    /// name the subcommand whose help a usage error points to.
    package static func reportError(_ error: any Error, arguments: [String] = []) -> Int32 {
        switch error {
        case let code as ExitCode:
            // An exit status with nothing to say (a capture ended by Ctrl-C exits 130 after
            // printing its takes): never printed.
            return code.rawValue
        case let error as VRenderError where error.kind == .option:
            // A bad option value or combination found past parsing (the library checks it):
            // a usage error like those ArgumentParser finds, with the same hint.
            printError(error.description)
            FileHandle.standardError.write(Data("see '\(commandPath(arguments)) --help'\n".utf8))
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
        let text = CommandErrorText.valueMessage(CommandErrorText.oneLine(Root.message(for: error)))
        guard code == .validationFailure else {
            printError(text.isEmpty ? "\(error)" : text)
            return code.rawValue
        }
        printError(text)
        if let hint = CommandErrorText.helpHint(Root.fullMessage(for: error)) {
            FileHandle.standardError.write(Data((hint + "\n").utf8))
        }
        return CommandErrorText.usageExitStatus
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
}

/// How `CommandMain` words ArgumentParser's messages, whatever the root command.
package enum CommandErrorText {
    /// Exit status of a usage error (a bad option, a missing argument, a failed `validate()`).
    /// ArgumentParser's own is 64 (`EX_USAGE`); 2 is what POSIX utilities and the shell use.
    package static let usageExitStatus: Int32 = 2

    /// ArgumentParser's full message ends with "See 'vrender concat --help' for more
    /// information."; reuse it as the hint, since it knows which subcommand was being parsed.
    static func helpHint(_ fullMessage: String) -> String? {
        guard let line = fullMessage.split(separator: "\n").first(where: { $0.contains("See '") }),
              let start = line.range(of: "See '"),
              let end = line[start.upperBound...].firstIndex(of: "'") else { return nil }
        return "see '\(line[start.upperBound..<end])'"
    }

    /// ArgumentParser words a value a `ValueArgument` refused as "The value '13x7' is invalid for
    /// '--size <WxH>': '13x7' is not WxH ...", saying the value twice; said as every other usage
    /// error is, option first: "--size '13x7' is not WxH ...". Other messages are left as they are.
    package static func valueMessage(_ message: String) -> String {
        let opening = "The value '", middle = "' is invalid for '", reasonStart = "': '"
        guard message.hasPrefix(opening), let invalid = message.range(of: middle),
              let reason = message.range(of: reasonStart, range: invalid.upperBound..<message.endIndex) else { return message }
        let value = message[message.index(message.startIndex, offsetBy: opening.count)..<invalid.lowerBound]
        let said = message[message.index(before: reason.upperBound)...]
        // Only a reason that quotes the value first is a `ValueSyntaxError`'s.
        guard said.hasPrefix("'\(value)' "), let option = message[invalid.upperBound..<reason.lowerBound].split(separator: " ").first,
              option.hasPrefix("-") else { return message }
        return "\(option) \(said)"
    }

    /// Messages are one line by promise: fold any ArgumentParser message that is not.
    static func oneLine(_ message: String) -> String {
        message.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: " ")
    }
}
