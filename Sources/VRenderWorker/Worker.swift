import ArgumentParser
import VRenderWorkerCommands

/// `vrender-worker`: the steps a chunked export's jobs run, and nothing else. The local engine
/// starts it per chunk and Slurm runs it in each job; it links VRenderScale and what is below it
/// (no capture stack, no studio server: scripts/check-imports.sh keeps it so), so it starts
/// with less to load than `vrender`. Its commands are `vrender chunk render|sound|join`'s own.
@main
struct Worker: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vrender-worker",
        abstract: "Run one step of a chunked export: render a chunk, encode the sound, or join.",
        discussion: """
            What 'vrender concat --engine local|slurm' starts for each chunk; installed beside \
            vrender. 'vrender chunk render|sound|join' are the same commands (docs/scale-out.md). \
            Exit status: 0 on success, 1 on a runtime or input error, 2 on a usage error, 130 \
            when stopped (SIGINT or SIGTERM).
            """,
        subcommands: [ChunkRender.self, ChunkSound.self, ChunkJoin.self])

    static func main() {
        CommandMain<Worker>.setUpProcess()
        CommandMain<Worker>.run(CommandMain<Worker>.arguments())
    }
}
