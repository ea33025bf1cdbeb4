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
        var command: any ParsableCommand
        do {
            command = try parse(arguments)
        } catch {
            Foundation.exit(reportError(error.error, arguments: arguments, refused: error.refused))
        }
        do {
            try command.run()
        } catch {
            Foundation.exit(reportError(error, arguments: arguments))
        }
    }

    /// Why the command line did not parse: ArgumentParser's error, and when a value of an
    /// option with a syntax of its own was refused (`ValueArgument`), that refusal.
    struct ParseFailure: Error {
        var error: any Error
        var refused: ValueSyntaxError?
    }

    /// `parseAsRoot`, keeping the refusal of a value, which ArgumentParser only hands on in its
    /// own words ("The value … is invalid for …"), for `reportError` to word as every usage
    /// error is worded.
    static func parse(_ arguments: [String]) throws(ParseFailure) -> any ParsableCommand {
        let refusals = ValueRefusals()
        do {
            return try ValueRefusals.$current.withValue(refusals) { try parseAsRoot(arguments) }
        } catch {
            throw ParseFailure(error: error, refused: refusals.first)
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
    /// name the subcommand whose help a usage error points to; `refused` is the value whose
    /// refusal `error` is, if it is one.
    static func reportError(_ error: any Error, arguments: [String] = [], refused: ValueSyntaxError? = nil) -> Int32 {
        switch error {
        case let code as ExitCode:
            // An exit status with nothing to say (a capture ended by Ctrl-C exits 130 after
            // printing its takes): never printed.
            return code.rawValue
        case let error as VRenderError where error.kind == .option:
            // A bad option value or combination found past parsing (the library checks it):
            // a usage error like those ArgumentParser finds, with the same hint.
            printUsageError(error.description, arguments: arguments)
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
        guard code == .validationFailure else {
            let text = oneLine(message(for: error))
            printError(text.isEmpty ? "\(error)" : text)
            return code.rawValue
        }
        printUsageError(usageMessage(error, arguments: arguments, refused: refused), arguments: arguments)
        return usageExitStatus
    }

    /// A usage error's message: a refused value said option first ("--size '13x7' is not WxH
    /// …", as `ValueSyntaxError` words it), anything else in ArgumentParser's words, on one line.
    static func usageMessage(_ error: any Error, arguments: [String], refused: ValueSyntaxError?) -> String {
        guard let refused else { return oneLine(message(for: error)) }
        guard let option = ValueRefusals.option(given: refused.value, in: arguments) else { return refused.description }
        return "\(option) \(refused)"
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

    /// A usage error, and the hint to the help of the subcommand `arguments` name.
    private static func printUsageError(_ message: String, arguments: [String]) {
        printError(message)
        FileHandle.standardError.write(Data("see '\(commandPath(arguments)) --help'\n".utf8))
    }

    /// Messages are one line by promise: fold any ArgumentParser message that is not.
    private static func oneLine(_ message: String) -> String {
        message.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: " ")
    }
}
