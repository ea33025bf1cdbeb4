import ArgumentParser

/// The root command only configures; each subcommand lives in `Subcommands/` and calls the
/// library, mapping its result to an exit status.
@main
struct VRender: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vrender",
        abstract: "Record video takes and render them offline into finished videos, fast.",
        discussion: """
            Exit status: 0 on success, 1 on a runtime or input error, 64 on a usage error, \
            130 after Ctrl-C. Errors are printed as 'vrender: error: <what>: <why>'.
            """,
        version: "0.1.0",
        subcommands: [Capture.self, Takes.self, Concat.self, Filters.self, Devices.self, Demo.self]
    )
}
