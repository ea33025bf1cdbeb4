import Foundation
import Testing
import VRenderTestSupport
import VRenderWorkerCommands

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

    /// An error on a 60-column terminal breaks at spaces, continuation rows indented under its tags; to a
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
        // Under "vrender: error: ", the tags that fit in a third of the row ("--filter: " does not).
        let indent = String(repeating: " ", count: 16)
        #expect(rows.dropFirst().allSatisfy { $0.hasPrefix(indent) && !$0.hasPrefix(indent + " ") }, "\(rows)")
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

    /// A row that ends with a number whose unit starts the next row ("1.6" / "MB"), or a number
    /// cut across rows ("(10" / "4% of"): what a reader stumbles on.
    static func splitNumbers(_ rows: [String]) -> [String] {
        zip(rows, rows.dropFirst()).compactMap { row, next in
            let last = row.split(separator: " ").last.map(String.init) ?? ""
            let first = next.split(separator: " ").first.map(String.init) ?? ""
            let unit = TerminalText.units.contains(first.trimmingCharacters(in: CharacterSet(charactersIn: ",;:.)")))
            return last.last?.isNumber == true && (unit || first.first?.isNumber == true) ? "\(row) / \(next)" : nil
        }
    }

    /// At 60 columns the concat summary split "1.6" from "MB" and the silence note's rows were
    /// indented unlike the other notes' (2 columns: its tags outgrew a third of the row).
    @Test func concatAtSixtyColumnsKeepsNumbersWithUnitsAndNotesIndented() throws {
        let takes = directory + "/takes"
        #expect(vrender("capture", "--device", "synthetic", "--audio", "synthetic", "--out", takes, "--takes", "3",
                        "--duration", "1s", "--size", "160x96", "--codec", "h264").status == 0)
        let terminal = TmuxTerminal()
        defer { terminal.kill() }
        terminal.start("cd '\(directory)'; '\(CommandLineTests.binary)' concat takes --trim-silence --codec h264 --progress none "
                       + "-o out.mp4; echo finished; exec sleep 300", columns: 60, rows: 60)
        let pane = try terminal.waitFor("the export") { $0.contains("finished") }.filter { !$0.isEmpty }
        #expect(terminal.pane(joined: true).filter { !$0.isEmpty } == pane, "the terminal wrapped nothing itself")
        #expect(Self.splitNumbers(pane).isEmpty, "\(pane.joined(separator: "\n"))")
        // Every note's continuation rows under "plan: note: ", the silence notes' too.
        var continuations: [String] = [], inNote = false
        for row in pane {
            if row.hasPrefix("plan: ") || row.hasPrefix("out.mp4") { inNote = row.hasPrefix("plan: note: ") } else if inNote { continuations.append(row) }
        }
        #expect(pane.contains { $0.hasPrefix("plan: note: silence: ") })
        #expect(continuations.allSatisfy { $0.hasPrefix(String(repeating: " ", count: 12)) && !$0.hasPrefix(String(repeating: " ", count: 13)) }
                || continuations.allSatisfy { $0.hasPrefix(String(repeating: " ", count: 19)) }, "\(pane.joined(separator: "\n"))")
    }

    /// At 80 columns the studio's codec notice was broken by the terminal inside a number
    /// ("(10" / "4% of"): its lines are now fitted as every command's are.
    @Test func theStudiosLinesFitEightyColumns() throws {
        let terminal = TmuxTerminal()
        defer { terminal.kill() }
        let vrender = "/usr/bin/timeout --foreground -k 10 \(GuardedRun.limit) '\(CommandLineTests.binary)'"
        terminal.start("\(vrender) studio --device synthetic --out '\(directory)/studio' --port 0 --codec auto; exec sleep 300",
                       columns: 80, rows: 30)
        try terminal.waitFor("the codec notice", within: 60) { pane in pane.contains { $0.contains("between frames") } }
        let joined = terminal.pane(joined: true).filter { !$0.isEmpty }
        #expect(joined.allSatisfy { TerminalText.width(of: $0) < 80 }, "the terminal wrapped a line:\n\(joined.joined(separator: "\n"))")
        #expect(Self.splitNumbers(joined).isEmpty, "\(joined.joined(separator: "\n"))")
        terminal.type("\u{3}")
    }

    @Test func wrappingKeepsUnitsWithTheirNumbersAtEveryWidth() {
        let line = "out.mp4: 6.00 s, 180 frames, 1280x720 libx264+aac, 1.6 MB in 3.19 s (transcode), -14.0 LUFS"
        for columns in 16...90 {   // from the longest word plus the indent
            let rows = TerminalText.wrap(line, toColumns: columns, indent: 2)
            #expect(Self.splitNumbers(rows).filter { !$0.contains("1280x720") }.isEmpty, "\(columns): \(rows)")
            #expect(rows.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ") == line, "no word lost")
        }
        #expect(TerminalText.tagWidth(of: "plan: note: silence: take 3 cut 0.000–0.033 s", within: 19) == 12)
        #expect(TerminalText.tagWidth(of: "plan: note: silence: take 3 cut", within: 40) == 21)
        #expect(TerminalText.tagWidth(of: "vrender: error: x", within: 5) == 2)
    }
}

