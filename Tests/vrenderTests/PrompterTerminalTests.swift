import Foundation
import Testing
import VRenderTestSupport

/// A terminal of its own for one test: a tmux server on a private socket, one window of a
/// fixed size, read back with `capture-pane`. UTF-8 throughout (`-u`, `LANG=C.UTF-8`).
struct TmuxTerminal {
    static let path = "/usr/bin/tmux"
    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: path) }

    let socket = "vrender-test-\(UUID().uuidString.prefix(8))"

    struct PaneTimeout: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts `command` (a shell command line) in a `columns`×`rows` window.
    ///
    /// The server this starts gets a clean slate (`cleanStart`): none of our descriptors, and
    /// no signal blocked. Foundation's `Process` learns that a child ended when the last holder
    /// of a socket it gave the child closes it, so a server that kept it would make the start
    /// last as long as the server; and the test process blocks signals a server must get
    /// (SIGCHLD when a pane ends, SIGTERM).
    func start(_ command: String, columns: Int = 100, rows: Int = 30) {
        let arguments = ["new-session", "-d", "-x", String(columns), "-y", String(rows), command]
        let run = ProgramRun.run("/usr/bin/perl", ["-MPOSIX", "-e", Self.cleanStart, Self.path] + options + arguments,
                                 environment: environment)
        #expect(run.status == 0, "tmux new-session failed")
    }

    /// Types `keys` as they are (no key names).
    func type(_ keys: String) {
        #expect(tmux(["send-keys", "-l", keys]).status == 0)
    }

    /// The window's lines as shown now; `joined`: a line the terminal wrapped onto several
    /// rows as the one line it was written as.
    func pane(joined: Bool = false) -> [String] {
        tmux(["capture-pane", "-p"] + (joined ? ["-J"] : [])).standardOutput
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// The pane once `condition` holds of it, polled until `seconds` have passed (a hang
    /// guard, not a timing assertion); throws, showing the pane, when it never does.
    @discardableResult
    func waitFor(_ what: String, within seconds: Double = 15, _ condition: ([String]) -> Bool) throws -> [String] {
        let deadline = Date().addingTimeInterval(seconds)
        var lines = pane()
        while !condition(lines) {
            guard Date() < deadline else {
                throw PaneTimeout(description: "\(what): not seen within \(seconds) s; the pane:\n" + lines.joined(separator: "\n"))
            }
            Thread.sleep(forTimeInterval: 0.02)   // between polls
            lines = pane()
        }
        return lines
    }

    /// Ends the server and everything in it, and removes its socket (which tmux leaves).
    func kill() {
        _ = tmux(["kill-server"])
        let folder = ProcessInfo.processInfo.environment["TMUX_TMPDIR"] ?? "/tmp"
        try? FileManager.default.removeItem(atPath: "\(folder)/tmux-\(getuid())/\(socket)")
    }

    /// Perl: runs ARGV in a child with no signal blocked and no descriptor but /dev/null on
    /// 0, 1 and 2, and exits with its status.
    private static let cleanStart = """
        my $pid = fork() // die "fork: $!";
        if ($pid == 0) {
            sigprocmask(SIG_SETMASK, POSIX::SigSet->new);
            POSIX::close($_) for 3 .. 1023;
            open(STDIN, "<", "/dev/null"); open(STDOUT, ">", "/dev/null"); open(STDERR, ">", "/dev/null");
            exec(@ARGV) or POSIX::_exit(127);
        }
        waitpid($pid, 0);
        exit($? >> 8);
        """

    private var options: [String] { ["-u", "-L", socket] }

    private var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["LANG"] = "C.UTF-8"
        environment["TERM"] = "xterm-256color"
        environment.removeValue(forKey: "TMUX")
        // The pane's size, not the test runner's, is the terminal's (TerminalSize reads these first).
        environment.removeValue(forKey: "COLUMNS")
        environment.removeValue(forKey: "LINES")
        return environment
    }

    private func tmux(_ arguments: [String]) -> ProgramRun {
        ProgramRun.run(Self.path, options + arguments, environment: environment)
    }
}

/// What the pane shows of the prompter: its header and its rows.
private struct PrompterBlock: Equatable {
    var header: String
    var rows: [String]

    /// The last prompter block in `pane`, if one is drawn.
    init?(_ pane: [String]) {
        guard let start = pane.lastIndex(where: { $0.hasPrefix("prompter: ") }) else { return nil }
        header = pane[start]
        rows = Array(pane[(start + 1)...].prefix { $0.hasPrefix("│ ") || $0.hasPrefix("┆ ") }.map { String($0.dropFirst(2)) })
    }

    /// The script's number of the top row's line ("007. …" is 7).
    var topLine: Int? { rows.first.flatMap { Int($0.prefix(3)) } }
}

/// `vrender capture --prompter` on a terminal, driven through tmux as a presenter would.
@Suite(.enabled(if: TmuxTerminal.isInstalled, "needs tmux (scripts/install-deps.sh installs it)"))
struct PrompterTerminalTests {
    let directory = TestMedia.scratchDirectory()

    /// Portuguese, as the seed's users write it: the first lines with ã, ç and é, then enough
    /// numbered lines that the scroll never reaches the end during the test.
    static let script = ["001. Bom dia! Hoje é dia de gravação.", "002. A apresentação começa já.",
                         "003. Não há pressa: é só ler com atenção."]
        + (4...300).map { String(format: "%03d. Linha de ação número %d, sem pressa.", $0, $0) }

    @Test func theScriptScrollsWhileRecordingFreezesWhenStoppedAndResumes() throws {
        let scriptPath = directory + "/roteiro.txt"
        let out = directory + "/takes"
        try (Self.script.joined(separator: "\n") + "\n").write(toFile: scriptPath, atomically: true, encoding: .utf8)
        let terminal = TmuxTerminal()
        defer { terminal.kill() }
        // In the foreground: the terminal's keys must reach it.
        let vrender = "/usr/bin/timeout --foreground -k 10 \(GuardedRun.limit) '\(CommandLineTests.binary)'"
        terminal.start("\(vrender) capture --device synthetic --realtime --size 320x240 --codec h264 --out '\(out)' "
                       + "--prompter '\(scriptPath)' --prompter-speed 60 --prompter-font 18; "
                       + "echo \"vrender exited $?\"; exec sleep 300")

        // Held before the take starts, so its first lines stay in view while it records.
        try terminal.waitFor("the prompter, stopped") { PrompterBlock($0)?.header.contains("stopped") == true }
        terminal.type("p")
        terminal.type(" ")
        let recording = try terminal.waitFor("the take recording, the prompter held") { pane in
            pane.contains { $0.hasPrefix("● REC take 1") } && PrompterBlock(pane)?.header.contains(" held ") == true
        }
        let first = try #require(PrompterBlock(recording))
        #expect(first.rows.prefix(3) == Self.script.prefix(3))
        #expect(recording.contains("│ 001. Bom dia! Hoje é dia de gravação."))

        // Let go, it scrolls.
        terminal.type("p")
        let moved = try terminal.waitFor("the prompter scrolling on") { pane in
            guard let block = PrompterBlock(pane) else { return false }
            return block.header.contains("scrolling") && (block.topLine ?? 0) >= 3
        }
        #expect(PrompterBlock(moved)?.header.hasPrefix("prompter: 60 pt/s 18 pt scrolling") == true)

        // Stopped, it stays where it was while time passes (the torch key shows in the status
        // line a status report later, then again off).
        terminal.type(" ")
        let stopped = try #require(PrompterBlock(try terminal.waitFor("take 1 finished, the prompter stopped") { pane in
            pane.contains { $0.hasPrefix("take: segment_0001_") } && PrompterBlock(pane)?.header.contains("stopped") == true
        }))
        terminal.type("t")
        try terminal.waitFor("the torch on") { $0.contains { $0.contains("torch 100% |") } }
        terminal.type("t")
        let later = try terminal.waitFor("the torch off") { $0.contains { $0.hasPrefix("○ idle") && $0.contains("torch off |") } }
        #expect(PrompterBlock(later) == stopped)
        // Idle, the status line counts the takes; it shows no take of 0.00 s.
        #expect(later.contains { $0.hasPrefix("○ idle 1 take ") && !$0.contains("0.00s") }, "\(later)")
        let frozenTop = try #require(stopped.topLine)
        #expect(frozenTop >= 3)

        // The next take goes on from there, not from the top.
        terminal.type(" ")
        let resumed = try terminal.waitFor("take 2 recording") { $0.contains { $0.hasPrefix("● REC take 2") } }
        #expect((PrompterBlock(resumed)?.topLine ?? 0) >= frozenTop)
        try terminal.waitFor("take 2 scrolling past take 1's end") { (PrompterBlock($0)?.topLine ?? 0) > frozenTop }
        // A stop sooner than TakeScheduler.shortestStop would be taken for a double press.
        try terminal.waitFor("take 2 past 0.6 s") { pane in
            pane.contains { $0.hasPrefix("● REC take 2") && ($0.split(separator: " ").dropFirst(4).first.flatMap { Double($0.dropLast()) } ?? 0) > 0.6 }
        }
        terminal.type(" ")
        try terminal.waitFor("take 2 finished") { $0.contains { $0.hasPrefix("take: segment_0002_") } }
        terminal.type("q")
        try terminal.waitFor("vrender exiting") { $0.contains("vrender exited 0") }

        let takes = try manifest(out)
        #expect(takes.count == 2)
        let records = takes.compactMap { $0["prompter"] as? [String: Any] }
        #expect(records.count == 2)
        let end1 = try #require(records.first?["endOffset"] as? Double)
        #expect(records.last?["startOffset"] as? Double == end1)
        #expect(end1 >= Double(frozenTop - 1) * 18)
        #expect(records.allSatisfy { $0["speed"] as? Double == 60 && $0["fontSize"] as? Double == 18 })
    }
}

extension PrompterTerminalTests {
    /// A terminal narrower than the script's lines: rows are cut by characters, never inside a
    /// character's bytes (tmux would show U+FFFD for a broken one).
    @Test func aNarrowTerminalCutsRowsBetweenCharacters() throws {
        let scriptPath = directory + "/estreito.txt"
        try (Self.script.joined(separator: "\n") + "\n").write(toFile: scriptPath, atomically: true, encoding: .utf8)
        let terminal = TmuxTerminal()
        defer { terminal.kill() }
        let vrender = "/usr/bin/timeout --foreground -k 10 \(GuardedRun.limit) '\(CommandLineTests.binary)'"
        terminal.start("\(vrender) capture --device synthetic --realtime --size 320x240 --codec h264 --out '\(directory)/narrow' "
                       + "--prompter '\(scriptPath)' --prompter-font 18; echo \"vrender exited $?\"; exec sleep 300", columns: 37)
        let pane = try terminal.waitFor("the prompter") { PrompterBlock($0)?.rows.count ?? 0 >= 2 }
        // 36 columns: "│ " and the first 34 characters of "001. Bom dia! Hoje é dia de gravação."
        #expect(pane.contains("│ 001. Bom dia! Hoje é dia de gravaç"))
        let block = try #require(PrompterBlock(pane))
        #expect(block.header.count <= 36 && block.rows.allSatisfy { $0.count <= 34 })
        #expect(!pane.contains { $0.contains("\u{FFFD}") })
        terminal.type("q")
        try terminal.waitFor("vrender exiting") { $0.contains("vrender exited 0") }
    }
}

/// `--prompter` and its options without a terminal: errors before the camera opens, clamped
/// values as notices, the take's record in takes.json.
@Suite struct PrompterOptionTests {
    let directory = TestMedia.scratchDirectory()

    private func capture(_ out: String, _ extra: [String]) -> ProgramRun {
        GuardedRun.vrender(["capture", "--device", "synthetic", "--out", out, "--duration", "300ms", "--size", "160x120",
                            "--codec", "h264"] + extra)
    }

    @Test func aScriptThatCannotBeShownIsAnErrorNamingIt() throws {
        let notUTF8 = directory + "/latin1.txt"
        try Data([0x61, 0xE7, 0xE3, 0x6F, 0x0A]).write(to: URL(fileURLWithPath: notUTF8))   // "ação" in Latin-1
        let empty = directory + "/empty.txt"
        try " \n\n".write(toFile: empty, atomically: true, encoding: .utf8)
        let cases = [(directory + "/missing.txt", "cannot read the prompter script"),
                     (notUTF8, "is not UTF-8 text (byte 2"), (empty, "is empty")]
        for (script, reason) in cases {
            let out = directory + "/never"
            let run = capture(out, ["--prompter", script])
            GuardedRun.expectFailure(run, mentions: "\(script): ")
            GuardedRun.expectFailure(run, mentions: reason)
            #expect(!FileManager.default.fileExists(atPath: out), "the camera opened for \(script)")
        }
    }

    @Test func valuesOutOfRangeAreClampedWithNoticesAndTheTakeKeepsItsRecord() throws {
        let script = directory + "/roteiro.txt"
        try "Olá! A gravação começa já.\nE não pára.\n".write(toFile: script, atomically: true, encoding: .utf8)
        let out = directory + "/takes"
        let run = capture(out, ["--prompter", script, "--prompter-speed", "80", "--prompter-font", "10",
                                "--prompter-end", "loop", "--takes", "2"])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardError.contains("capture: note: --prompter-speed 80 is above 60 points per second: 60 is used\n"))
        #expect(run.standardError.contains("capture: note: --prompter-font 10 is below 18 points: 18 is used\n"))
        // Not a terminal: no prompter drawn, a line per take saying where it starts.
        #expect(run.standardError.contains("take 1: recording\nprompter: from line 1 of "))
        #expect(run.standardError.contains(", 60 pt/s 18 pt\ntake 2: recording\n"))
        #expect(!run.standardError.contains("│"))
        let records = try manifest(out).compactMap { $0["prompter"] as? [String: Any] }
        #expect(records.count == 2)
        #expect(records.allSatisfy { $0["script"] as? String == script && $0["ending"] as? String == "loop" })
    }

    @Test func aSecondCaptureContinuesTheScriptWhereTheFoldersLastTakeEnded() throws {
        let script = directory + "/talk.txt", other = directory + "/other.txt"
        try (1...60).map { "Line \($0) of the talk." }.joined(separator: "\n").write(toFile: script, atomically: true, encoding: .utf8)
        try "Another script.\n".write(toFile: other, atomically: true, encoding: .utf8)
        let out = directory + "/again", speed = ["--prompter-speed", "60"]
        for extra in [[script], [script], [other]] { _ = capture(out, ["--prompter"] + extra + speed) }
        let records = try manifest(out).compactMap { $0["prompter"] as? [String: Any] }
        #expect(records.count == 3 && records[1]["startOffset"] as? Double == records[0]["endOffset"] as? Double)
        #expect(records[0]["scriptHash"] as? String == records[1]["scriptHash"] as? String && records[2]["startOffset"] as? Double == 0)
        // The second run says where it starts; a third with another script starts at the top, unsaid.
        let second = capture(out, ["--prompter", script] + speed)
        #expect(second.standardError.contains("capture: note: prompter: continuing from "), "\(second.standardError)")
        #expect(second.standardError.contains("% (where take 2 ended)\n"))
        let third = capture(out, ["--prompter", other] + speed)
        #expect(!third.standardError.contains("prompter: continuing"), "\(third.standardError)")
    }
}
