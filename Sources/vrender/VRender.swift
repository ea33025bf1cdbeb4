import ArgumentParser
import Foundation
import VRenderDoctor
import VRenderWorkerCommands

/// The root command only configures; each subcommand lives in `Subcommands/`, calls one library
/// entry point and prints its result. Subcommands never print errors: they throw, and `main`
/// (`CommandMain`, shared with `vrender-worker`) prints each error once and turns it into the
/// exit status.
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
        subcommands: [Capture.self, Camera.self, Takes.self, Concat.self, Chunk.self, Filters.self, Devices.self, Demo.self, Golden.self, Sync.self, Bench.self, Studio.self,
                      Doctor.self]
    )

    /// Replaces ArgumentParser's `main()` so that every error, from parsing or from a
    /// subcommand, is printed in one place, in one style, with one exit status per kind.
    static func main() {
        CommandMain<VRender>.setUpProcess()
        // What ArgumentParser cannot read as typed, written so it can: a left-out value, then a
        // negative number as an option's value.
        let arguments = NegativeValues.attach(OptionalValues.normalize(CommandMain<VRender>.arguments()))
        if arguments == ["--version"] {
            // The libraries' versions too: asked only here, so no other command pays for them.
            print(VersionReport.current().text)
            return
        }
        CommandMain<VRender>.run(arguments)
    }
}
