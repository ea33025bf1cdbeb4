import ArgumentParser
import Foundation
import VRenderCore
import VRenderFilters

/// How progress is shown while long work runs.
enum ProgressStyle: String, ExpressibleByArgument, CaseIterable {
    /// A bar on a terminal, `key=value` blocks otherwise.
    case auto
    case bar
    /// `key=value` blocks, as `ffmpeg -progress` writes them.
    case plain
    case none
}

struct ProgressOptions: ParsableArguments {
    @Option(help: "Progress display: auto (a bar on a terminal, key=value lines otherwise), bar, plain or none.")
    var progress: ProgressStyle = .auto

    @Flag(help: "Print a machine-readable JSON summary on standard output instead of the final line.")
    var json = false

    @Flag(help: "Let FFmpeg's own warnings through to standard error.")
    var verbose = false

    /// The style in effect once `auto` is resolved against standard error.
    var resolvedStyle: ProgressStyle {
        guard progress == .auto else { return progress }
        return isatty(STDERR_FILENO) != 0 ? .bar : .plain
    }
}

extension FilterBackendChoice: ExpressibleByArgument {}

/// `--gpu`, shared by every command that filters.
struct GPUOptions: ParsableArguments {
    @Option(help: "Where filters run: auto (a hardware Vulkan GPU if present, else the CPU), vulkan (any Vulkan device, lavapipe included; an error without one) or cpu.")
    var gpu: FilterBackendChoice = .auto
}

/// `--json` output: pretty, with sorted keys and paths unescaped, on standard output.
/// `--threads N`: the processors a job may use; its filters, tone mapping and codecs share them
/// (`ThreadBudget`).
struct ThreadsOption: ParsableArguments {
    @Option(help: ArgumentHelp("Processors to use (default: all of this machine's); filters, tone mapping and codecs share them.", valueName: "N"))
    var threads: Int?

    func validate() throws {
        if let threads, !(1...1024).contains(threads) { throw ValidationError("--threads must be 1 to 1024, got \(threads)") }
    }

    var budget: ThreadBudget { .share(threads) }
}

enum JSONOutput {
    static func print<Value: Encodable>(_ value: Value) throws {
        Swift.print(String(decoding: try JSONEncoder.readable().encode(value), as: UTF8.self))
    }
}

/// `vrender: warning: ...` lines on standard error. Errors have no such helper: subcommands
/// throw them, and `VRender.main` alone prints them, so each is printed exactly once.
enum Warnings {
    static func print(_ message: String) {
        FileHandle.standardError.write(Data(TerminalText.fitted("vrender: warning: \(message)\n", for: STDERR_FILENO).utf8))
    }
}

/// Runs `handler` on SIGINT or SIGTERM instead of dying, so work can clean up (remove its
/// temporary file) and exit 130. Keep the returned sources alive while the work runs.
enum InterruptHandling {
    private static let flag = StopSignal()

    /// True once SIGINT or SIGTERM arrived (the command then exits 130).
    static var wasInterrupted: Bool { flag.isRaised }

    static func install(_ handler: @escaping @Sendable () -> Void) -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM].map { signalNumber in
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                flag.raise()
                handler()
            }
            source.resume()
            return source
        }
    }
}
