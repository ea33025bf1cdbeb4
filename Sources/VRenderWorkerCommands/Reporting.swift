import ArgumentParser
import Foundation
import VRenderCore

/// How progress is shown while long work runs.
package enum ProgressStyle: String, ExpressibleByArgument, CaseIterable {
    /// A bar on a terminal, `key=value` blocks otherwise.
    case auto
    case bar
    /// `key=value` blocks, as `ffmpeg -progress` writes them.
    case plain
    case none
}

package struct ProgressOptions: ParsableArguments {
    @Option(help: "Progress display: auto (a bar on a terminal, key=value lines otherwise), bar, plain or none.")
    package var progress: ProgressStyle = .auto

    @Flag(help: "Print a machine-readable JSON summary on standard output instead of the final line.")
    package var json = false

    @Flag(help: "Let FFmpeg's own warnings through to standard error.")
    package var verbose = false

    package init() {}

    /// The style in effect once `auto` is resolved against standard error.
    package var resolvedStyle: ProgressStyle {
        guard progress == .auto else { return progress }
        return isatty(STDERR_FILENO) != 0 ? .bar : .plain
    }
}

/// `--json` output: pretty, with sorted keys and paths unescaped, on standard output.
package enum JSONOutput {
    package static func print<Value: Encodable>(_ value: Value) throws {
        Swift.print(String(decoding: try JSONEncoder.readable().encode(value), as: UTF8.self))
    }
}

/// Runs `handler` on SIGINT or SIGTERM instead of dying, so work can clean up (remove its
/// temporary file) and exit 130. Keep the returned sources alive while the work runs.
package enum InterruptHandling {
    private static let flag = StopSignal()

    /// True once SIGINT or SIGTERM arrived (the command then exits 130).
    package static var wasInterrupted: Bool { flag.isRaised }

    package static func install(_ handler: @escaping @Sendable () -> Void) -> [any DispatchSourceSignal] {
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
