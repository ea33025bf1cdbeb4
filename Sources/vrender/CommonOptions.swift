import ArgumentParser
import Foundation
import VRenderCore
import VRenderFilters
import VRenderWorkerCommands

extension FilterBackendChoice: ExpressibleByArgument {}

/// `--gpu`, shared by every command that filters.
struct GPUOptions: ParsableArguments {
    @Option(help: "Where filters run: auto (a hardware Vulkan GPU if present, else the CPU), vulkan (any Vulkan device, lavapipe included; an error without one) or cpu.")
    var gpu: FilterBackendChoice = .auto
}

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

/// `vrender: warning: ...` lines on standard error. Errors have no such helper: subcommands
/// throw them, and `CommandMain` alone prints them, so each is printed exactly once.
enum Warnings {
    static func print(_ message: String) {
        FileHandle.standardError.write(Data(TerminalText.fitted("vrender: warning: \(message)\n", for: STDERR_FILENO).utf8))
    }
}
