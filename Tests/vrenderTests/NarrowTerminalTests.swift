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

    /// An error on a 60-column terminal breaks at spaces, continuation rows indented; to a
    /// pipe it is one line.
    @Test func proseBreaksAtSpacesOnATerminalAndStaysOneLineInAPipe() throws {
        let piped = vrender("concat", TestMedia.path("small_a.mov"), "--filter", "sepai").standardError
        let message = try #require(piped.split(separator: "\n").first.map(String.init))
        #expect(message.hasPrefix("vrender: error: --filter: unknown filter 'sepai'") && message.hasSuffix("did you mean 'sepia'?"))
        let terminal = TmuxTerminal()
        defer { terminal.kill() }
        terminal.start("'\(CommandLineTests.binary)' concat '\(TestMedia.path("small_a.mov"))' --filter sepai; echo finished; exec sleep 300",
                       columns: 60, rows: 20)
        let pane = try terminal.waitFor("the error") { $0.contains("finished") }.filter { !$0.isEmpty }
        let rows = Array(pane.prefix { !$0.hasPrefix("see ") })
        #expect(rows.count >= 3 && rows.allSatisfy { $0.count < 60 }, "\(pane)")
        #expect(rows.dropFirst().allSatisfy { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }, "\(rows)")
        #expect(terminal.pane(joined: true).filter { !$0.isEmpty } == pane, "the terminal wrapped nothing itself")
        #expect(rows.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ") == message, "no word lost or cut")
    }

    /// At 80 columns the capture's status (take, camera, sound meter: 93 columns) took the meter
    /// off the end; its parts go on two rows instead, each whole.
    @Test func theCapturesStatusKeepsTheSoundMeterOnANarrowTerminal() throws {
        let terminal = TmuxTerminal()
        defer { terminal.kill() }
        let vrender = "/usr/bin/timeout --foreground -k 10 \(GuardedRun.limit) '\(CommandLineTests.binary)'"
        terminal.start("\(vrender) capture --device synthetic --realtime --size 160x96 --codec h264 --out '\(directory)/takes'; "
                       + "echo \"vrender exited $?\"; exec sleep 300", columns: 80, rows: 24)
        // Read joined: a row the terminal wrapped would come back longer than the terminal.
        try terminal.waitFor("the status on two rows, nothing wrapped") { _ in
            let pane = terminal.pane(joined: true)
            return pane.contains { $0.hasPrefix("○ idle 0 takes") && $0.hasSuffix("torch off") }
                && pane.contains { $0.hasPrefix("mic ") } && pane.allSatisfy { $0.count < 80 }
        }
        terminal.type("q")
        try terminal.waitFor("vrender exiting") { $0.contains("vrender exited 0") }
    }
}
