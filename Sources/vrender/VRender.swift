import ArgumentParser
import Foundation
import VRenderCore
import VRenderDoctor

/// The root command only configures; each subcommand lives in `Subcommands/`, calls one library
/// entry point and prints its result. Subcommands never print errors: they throw, and `main`
/// prints each error once and turns it into the exit status.
@main
struct VRender: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vrender",
        abstract: "Record video takes and render them offline into finished videos, fast.",
        discussion: """
            Exit status: 0 on success, 1 on a runtime or input error, 2 on a usage error, \
            130 after Ctrl-C. Errors are printed as 'vrender: error: <what>: <why>'.
            """,
        // The build's version alone; a plain `vrender --version` prints the whole report (main).
        version: VersionReport.buildVersion,
        subcommands: [Capture.self, Takes.self, Concat.self, Chunk.self, Filters.self, Devices.self, Demo.self, Golden.self, Bench.self, Studio.self,
                      Doctor.self]
    )

    /// Exit status of a usage error (a bad option, a missing argument, a failed `validate()`).
    /// ArgumentParser's own is 64 (`EX_USAGE`); 2 is what POSIX utilities and the shell use.
    static let usageExitStatus: Int32 = 2

    /// Replaces ArgumentParser's `main()` so that every error, from parsing or from a
    /// subcommand, is printed here and only here, in one style, with one exit status per kind.
    static func main() {
        ProcessTuning.limitMallocArenas()
        // Past a file-size limit (ulimit -f) a write raises SIGXFSZ, which kills by default:
        // ignored, the write fails with EFBIG instead, so a take is cut back cleanly and an
        // export reports it and removes its temporary file.
        signal(SIGXFSZ, SIG_IGN)
        // What ArgumentParser cannot read as typed, written so it can: a left-out value, then a
        // negative number as an option's value.
        let arguments = NegativeValues.attach(OptionalValues.normalize(arguments()))
        if arguments == ["--version"] {
            // The libraries' versions too: asked only here, so no other command pays for them.
            print(VersionReport.current().text)
            return
        }
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch {
            Foundation.exit(reportError(error, arguments: arguments))
        }
    }

    /// The arguments as the system passed them. `CommandLine.arguments` replaces bytes that are
    /// not UTF-8 with U+FFFD, which names another file (`a\xffb.mov` would become `a\u{FFFD}b.mov`);
    /// `FileNames` keeps them, escaped, so that the file is found.
    private static func arguments() -> [String] {
        (1..<Int(CommandLine.argc)).map { index in
            let argument = CommandLine.unsafeArgv[index]!
            return FileNames.string(fromPlatformBytes: UnsafeBufferPointer(
                start: UnsafeRawPointer(argument).assumingMemoryBound(to: UInt8.self), count: strlen(argument)))
        }
    }

    /// Prints `error` (at most once) and returns the exit status it stands for. `arguments`
    /// name the subcommand whose help a usage error points to.
    static func reportError(_ error: any Error, arguments: [String] = []) -> Int32 {
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
            return usageExitStatus
        case let error as VRenderError:
            printError(error.description)
            return error.kind == .cancelled ? 130 : 1
        default:
            break
        }
        let code = exitCode(for: error)
        if code == .success {
            // --help, --version, `vrender help <sub>`: ArgumentParser's text, on stdout.
            print(fullMessage(for: error))
            return 0
        }
        // Parsing failures and `validate()`'s ValidationError are the ones ArgumentParser maps
        // to EX_USAGE; anything else is a runtime error a subcommand let through.
        let text = valueMessage(oneLine(message(for: error)))
        guard code == .validationFailure else {
            printError(text.isEmpty ? "\(error)" : text)
            return code.rawValue
        }
        printError(text)
        if let hint = helpHint(fullMessage(for: error)) {
            FileHandle.standardError.write(Data((hint + "\n").utf8))
        }
        return usageExitStatus
    }

    /// `vrender` and the subcommands named at the start of `arguments` (`vrender takes trim`).
    static func commandPath(_ arguments: [String]) -> String {
        commandStack(arguments).map { $0._commandName }.joined(separator: " ")
    }

    /// `VRender` and the subcommands named at the start of `arguments`, the one they run last.
    static func commandStack(_ arguments: [String]) -> [any ParsableCommand.Type] {
        var stack: [any ParsableCommand.Type] = [VRender.self]
        for argument in arguments {
            guard let sub = stack[stack.count - 1].configuration.subcommands.first(where: { $0._commandName == argument }) else { break }
            stack.append(sub)
        }
        return stack
    }

    /// The one place an error is printed; a file name's bytes that are not text are shown as `\xNN`.
    private static func printError(_ message: String) {
        FileHandle.standardError.write(Data(TerminalText.fitted("vrender: error: \(FileNames.display(message))\n", for: STDERR_FILENO).utf8))
    }

    /// ArgumentParser's full message ends with "See 'vrender concat --help' for more
    /// information."; reuse it as the hint, since it knows which subcommand was being parsed.
    private static func helpHint(_ fullMessage: String) -> String? {
        guard let line = fullMessage.split(separator: "\n").first(where: { $0.contains("See '") }),
              let start = line.range(of: "See '"),
              let end = line[start.upperBound...].firstIndex(of: "'") else { return nil }
        return "see '\(line[start.upperBound..<end])'"
    }

    /// ArgumentParser words a value a `ValueArgument` refused as "The value '13x7' is invalid for
    /// '--size <WxH>': '13x7' is not WxH ...", saying the value twice; said as every other usage
    /// error is, option first: "--size '13x7' is not WxH ...". Other messages are left as they are.
    static func valueMessage(_ message: String) -> String {
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
    private static func oneLine(_ message: String) -> String {
        message.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: " ")
    }
}
