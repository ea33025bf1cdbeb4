import Foundation
import Testing
import VRenderTestSupport

/// Tables on a terminal narrower than they are: fitted to it (columns that matter least left
/// out, long cells shortened or wrapped), never wrapped by the terminal; printed to a pipe,
/// whole.
@Suite(.enabled(if: TmuxTerminal.isInstalled, "needs tmux (scripts/install-deps.sh installs it)"))
struct NarrowTerminalTests {
    let directory = TestMedia.scratchDirectory()

    func vrender(_ arguments: String...) -> ProgramRun { ProgramRun.run(CommandLineTests.binary, arguments) }

    @Test func takesAndFiltersFitSixtyAndEightyColumns() throws {
        let takes = directory + "/takes"
        #expect(vrender("capture", "--device", "synthetic", "--out", takes, "--takes", "2", "--duration", "0.5s",
                        "--size", "160x96", "--codec", "h264").status == 0)
        #expect(vrender("takes", "trim", takes, "1", "3f", "0.4").status == 0)
        let piped = vrender("takes", "list", takes).standardOutput
        #expect(piped.contains("created") && piped.contains("0.100–0.400 s (0.30 s used)"), "a pipe gets every column: \(piped)")
        for columns in [60, 80] {
            let terminal = TmuxTerminal()
            defer { terminal.kill() }
            terminal.start("'\(CommandLineTests.binary)' takes list '\(takes)'; '\(CommandLineTests.binary)' filters; echo listed; exec sleep 300",
                           columns: columns, rows: 60)
            let pane = try terminal.waitFor("the lists") { $0.contains("listed") }
            // The tables' lines (the backend sentence after them is prose, wrapped at spaces).
            let lines = terminal.pane(joined: true).filter { !$0.isEmpty }.prefix { !$0.hasPrefix("backend:") }
            #expect(lines.allSatisfy { $0.count < columns }, "\(columns) columns:\n\(lines.joined(separator: "\n"))")
            #expect(pane.contains { $0.hasPrefix("#  file") && $0.contains("length  frames  drops") })
            #expect(pane.contains { $0.hasPrefix("1  segment_0") && $0.contains("…") && $0.contains("0.100–0.400 s") })
            #expect(pane.contains { $0.hasPrefix("mono      strength 0-100  monochrome") })
        }
    }
}
