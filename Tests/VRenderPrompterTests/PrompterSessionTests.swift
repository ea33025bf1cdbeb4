import Testing
@testable import VRenderPrompter

/// A monospace layout, independent of the real one: each script line cut into lines of
/// `480 / fontSize` characters, `fontSize + 4` points apart, with the 24-point fade below.
private func monospaceLayout(_ script: [String]) -> PrompterSession.Layout {
    { fontSize in
        let columns = Int(480 / fontSize)
        var lines: [String] = []
        for paragraph in script {
            var rest = Substring(paragraph)
            repeat {
                lines.append(String(rest.prefix(columns)))
                rest = rest.dropFirst(columns)
            } while !rest.isEmpty
        }
        let lineHeight = fontSize + 4
        return PrompterText(lines: lines, lineHeight: lineHeight, contentHeight: Double(lines.count) * lineHeight + 24)
    }
}

/// Paragraphs of 51 characters: 3 lines at 28 pt (17 characters a line), 4 at 30 pt (16).
private func paragraphs(_ count: Int) -> [String] {
    (0..<count).map { String("paragraph \($0) says a good deal more than a line holds, always".prefix(51)) }
}

/// 100 short lines, "line 0" … "line 99": at 28 pt, 32 points apart, 3,224 points in all.
private let numbered = (0..<100).map { "line \($0)" }

private func session(_ script: [String] = numbered, speed: Double = 30, fontSize: Double = 28,
                     ending: PrompterEnding = .pause, viewport: Double = 100) -> PrompterSession {
    PrompterSession(scriptName: "talk.txt", settings: PrompterSettings(speed: speed, fontSize: fontSize, ending: ending),
                    viewportHeight: viewport, layout: monospaceLayout(script))
}

/// Where a take's record puts the scroll `time` seconds into its recording: the anchor in
/// force then, run on with the end of the layout at its font size.
private func replayed(_ record: PrompterTakeRecord, at time: Double, script: [String] = numbered,
                      viewport: Double = 100) -> Double {
    let anchor = record.anchors.last { $0.time <= time } ?? record.anchors[0]
    let maxOffset = Swift.max(0, monospaceLayout(script)(anchor.fontSize).contentHeight - viewport)
    return PrompterScroll.offset(from: anchor, at: time, maxOffset: maxOffset, ending: record.ending)
}

/// The record of the take `prompter` stops at `time` (one must be recording).
private func stopped(_ prompter: inout PrompterSession, at time: Double) throws -> PrompterTakeRecord {
    let record = prompter.takeStopped(at: time)
    return try #require(record)
}

@Suite struct PrompterSessionTests {
    @Test func eachTakeResumesWhereTheLastOneStopped() throws {
        var prompter = session()
        prompter.takeStarted(at: 10)
        let first = try stopped(&prompter, at: 12)
        // Nothing moves between takes.
        #expect(prompter.view(at: 20).offset == 60)
        prompter.takeStarted(at: 20)
        let second = try stopped(&prompter, at: 21)
        prompter.takeStarted(at: 30)
        let third = try stopped(&prompter, at: 30.5)

        // 30 points per second, in steps of 0.5 point per 1/60 s.
        #expect([first, second, third].map(\.startOffset) == [0, 60, 90])
        #expect([first, second, third].map(\.endOffset) == [60, 90, 105])
        #expect(second.anchors == [PrompterScroll.Anchor(time: 0, offset: 60, speed: 30, running: true, fontSize: 28)])
        #expect(third.script == "talk.txt" && third.speed == 30 && third.fontSize == 28 && third.ending == .pause)
        #expect(prompter.takeStopped(at: 40) == nil)
    }

    @Test func aHoldStopsTheScrollUntilItIsLetGo() throws {
        var prompter = session()
        prompter.takeStarted(at: 0)
        prompter.toggleHold(at: 1)
        #expect(prompter.view(at: 3).offset == 30)
        #expect(prompter.view(at: 3).state == .held)
        prompter.toggleHold(at: 4)
        #expect(prompter.view(at: 4.5).state == .scrolling)
        let record = try stopped(&prompter, at: 5)
        #expect(record.endOffset == 60)
        #expect(record.anchors.map(\.time) == [0, 1, 4])
        #expect(record.anchors.map(\.running) == [true, false, true])
        #expect(prompter.view(at: 6).state == .stopped)

        // A hold made between takes holds the next take from its start.
        prompter.toggleHold(at: 7)
        prompter.takeStarted(at: 8)
        #expect(prompter.view(at: 9).offset == 60)
        let held = try stopped(&prompter, at: 9)
        #expect(held.anchors.map(\.running) == [false] && held.endOffset == 60)
    }

    @Test func speedKeysStepAndStopAtTheLimitsWithANotice() throws {
        var prompter = session(speed: 56)
        prompter.takeStarted(at: 0)
        #expect(prompter.faster(at: 1) == nil)
        #expect(prompter.settings.speed == 60)
        #expect(prompter.perform(.faster, at: 2) == "prompter speed 64 is above 60 points per second: 60 is used")
        #expect(prompter.settings.speed == 60)
        var notices: [String] = []
        for step in 0..<14 { notices += [prompter.slower(at: 3 + Double(step) / 10)].compactMap { $0 } }
        #expect(prompter.settings.speed == 8)
        #expect(notices == ["prompter speed 4 is below 8 points per second: 8 is used"])
        let record = try stopped(&prompter, at: 5)
        // A key at a limit changes nothing, so it leaves no anchor.
        #expect(record.anchors.map(\.speed) == [56, 60] + stride(from: 56.0, through: 8, by: -4))
        #expect(record.speed == 56)
    }

    @Test func aSizeChangeLaysTheScriptOutAgainKeepingTheTopLine() throws {
        var prompter = session(paragraphs(20))
        #expect(prompter.text.lines.count == 60)       // 17 characters a line at 28 pt
        prompter.takeStarted(at: 0)
        // At 2 s: offset 60, 1.875 lines of 32 points: line 1 (characters 17-33) at the top.
        #expect(prompter.larger(at: 2) == nil)
        #expect(prompter.text.lines.count == 80)       // 16 at 30 pt
        #expect(prompter.text.lineHeight == 34)
        // Character 17 is on line 1 at 30 pt too (16-31), and as far into it: 1.875 × 34.
        #expect(prompter.view(at: 2).offset == 63.75)
        #expect(prompter.view(at: 2).firstLine == 1)
        // Line 1 is 4.25 of its 34 points in view (no row); line 2 is the first row, whole.
        #expect(prompter.view(at: 2).rows.first == PrompterView.Row(text: prompter.text.lines[2], isCut: false))
        let record = try stopped(&prompter, at: 3)
        #expect(record.anchors.last == PrompterScroll.Anchor(time: 2, offset: 63.75, speed: 30, running: true, fontSize: 30))
        #expect(record.fontSize == 28)

        var small = session(fontSize: 18)
        #expect(small.smaller(at: 0) == "prompter font size 16 is below 18 points: 18 is used")
        #expect(small.perform(.larger, at: 0) == nil && small.settings.fontSize == 20)
    }

    @Test func atTheEndASizeChangeKeepsTheTopLineOrTheNewEnd() {
        var prompter = session(paragraphs(5), speed: 60, fontSize: 36)
        prompter.takeStarted(at: 0)
        let end = prompter.scroll.maxOffset
        #expect(prompter.view(at: 60).offset == end)
        #expect(prompter.view(at: 60).state == .atEnd)
        let before = prompter.text, top = prompter.view(at: 60).firstLine
        _ = prompter.smaller(at: 60)
        #expect(prompter.scroll.maxOffset < end)
        let kept = prompter.text.offset(showing: before.place(at: end)!)
        #expect(prompter.view(at: 60).offset == min(kept, prompter.scroll.maxOffset))
        #expect(prompter.text.lineStarts[prompter.view(at: 60).firstLine] <= before.lineStarts[top])
    }

    /// The user's trip: text made smaller or larger mid-script jumped paragraphs (36 pt to
    /// 24 pt: from 36% to 84%), because the offset was kept in points.
    @Test("a size change keeps the words at the box's top at the top, at every size and place")
    func sizeChangesKeepThePresentersPlace() {
        let script = paragraphs(30)
        for (from, to) in [(36.0, 24.0), (24.0, 36.0), (28.0, 30.0), (34.0, 26.0)] {
            for seconds in [3.0, 17.0, 40.0] {
                var prompter = session(script, fontSize: from)
                prompter.takeStarted(at: 0)
                let before = prompter.view(at: seconds)
                let place = prompter.text.lineStarts[before.firstLine]
                // One key press a size step (2 points), all at the same moment.
                for _ in 0..<Int(abs(to - from) / PrompterSettings.fontSizeStep) {
                    _ = to > from ? prompter.larger(at: seconds) : prompter.smaller(at: seconds)
                }
                #expect(prompter.settings.fontSize == to)
                let after = prompter.view(at: seconds), starts = prompter.text.lineStarts
                let first = after.firstLine, next = first + 1 < starts.count ? starts[first + 1] : Int.max
                #expect(starts[first] <= place && place < next,
                        "\(from) → \(to) pt at \(seconds) s: line \(before.firstLine) (\(place)) became \(first)")
            }
        }
    }

    @Test func theViewShowsTheLinesTheBoxHolds() {
        var prompter = session()
        let idle = prompter.view(at: 0)
        // 100 / 32 points: 4 rows, as four lines can be half in view; line 3 is 4 points in now.
        #expect(idle.rows.map(\.text) == ["line 0", "line 1", "line 2", ""])
        #expect(idle.rows.allSatisfy { !$0.isCut })
        #expect(idle.header == "prompter: 30 pt/s 28 pt stopped  0%")
        prompter.takeStarted(at: 0)
        // The box's top line is the line at floor(offset / line height), the place kept.
        #expect(prompter.view(at: 63.5 / 30).firstLine == 1)
        #expect(prompter.view(at: 64.0 / 30).rows.map(\.text) == ["line 2", "line 3", "line 4", ""])
        // At the end the box shows 12 of line 97's 32 points, cut at its top: no row. The
        // terminal showed it whole, as if it were the line to read.
        let late = prompter.view(at: 200)
        #expect(late.offset == 3124 && late.state == .atEnd && late.percent == 100)
        #expect(late.rows.map(\.text) == ["line 98", "line 99", "", ""])
        #expect(late.header == "prompter: 30 pt/s 28 pt at end  100%")

        // Rows past the script's end are empty; a box smaller than two lines still shows two.
        #expect(session(["only"], viewport: 100).view(at: 0).rows.map(\.text) == ["only", "", "", ""])
        #expect(session(viewport: 10).view(at: 0).rows.count == 2)
        #expect(PrompterSession.rowCount(viewportHeight: 96, lineHeight: 32) == 3)
        #expect(PrompterSession.rowCount(viewportHeight: 97, lineHeight: 32) == 4)
    }

    /// The user's case: at 640x360 the picture's box showed three lines at the start (the third
    /// fading) where the terminal had two rows. With the real font and box, the rows are the
    /// lines at least half in the box's text area.
    @Test func atSixFortyByThreeSixtyTheTerminalShowsTheLinesThePictureDoes() throws {
        let script = PrompterScript(name: "talk.txt", text: (1...40).map { "Line \($0) of the talk." }.joined(separator: "\n"))
        let prompter = try PrompterSession.captureFactory(script: script, settings: PrompterSettings(fontSize: 28))(640, 360)
        let viewport = PrompterGeometry(pictureWidth: 640, pictureHeight: 360).viewportPoints
        let view = prompter.view(at: 0)
        #expect(view.rows.map(\.text) == ["Line 1 of the talk.", "Line 2 of the talk.", "Line 3 of the talk."])
        #expect((2.5 * view.lineHeight) < viewport && viewport < 3 * view.lineHeight, "line 3 half in, not whole")
    }

    /// Half a line scrolled: the box shows half of line 0 at its top, lines 1 and 2, and line
    /// 3 running past its bottom: four rows, the first and last marked cut.
    @Test func linesTheBoxCutsAreRowsMarkedCut() {
        let rows = PrompterSession.rows(offset: 16, viewportHeight: 100, lineHeight: 32, lines: numbered)
        #expect(rows == [.init(text: "line 0", isCut: true), .init(text: "line 1", isCut: false),
                         .init(text: "line 2", isCut: false), .init(text: "line 3", isCut: true)])
        // A hair further: line 0 is under half in view and goes; the rows move up.
        let next = PrompterSession.rows(offset: 16.5, viewportHeight: 100, lineHeight: 32, lines: numbered)
        #expect(next.map(\.text) == ["line 1", "line 2", "line 3", ""])
        // Every offset: a row for exactly the lines at least half in view, in order.
        for offset in stride(from: 0.0, through: 400, by: 0.25) {
            let rows = PrompterSession.rows(offset: offset, viewportHeight: 100, lineHeight: 32, lines: numbered)
            let halfIn = numbered.indices.filter { Double($0) * 32 + 16 >= offset && Double($0) * 32 + 16 < offset + 100 }
            #expect(rows.filter { !$0.text.isEmpty }.map(\.text) == halfIn.map { numbered[$0] }, "offset \(offset)")
            #expect(rows.count == 4)
        }
    }

    @Test func aLoopingScriptIsNeverAtItsEnd() {
        var prompter = session((0..<5).map { "line \($0)" }, speed: 60, ending: .loop)
        prompter.takeStarted(at: 0)
        for time in stride(from: 0.0, through: 10, by: 0.25) {
            #expect(prompter.view(at: time).state == .scrolling)
        }
    }

    @Test func aTakesAnchorsReplayItsScroll() throws {
        var prompter = session()
        var seen: [(time: Double, offset: Double)] = []
        func look(_ time: Double) { seen.append((time - 5, prompter.view(at: time).offset)) }
        prompter.takeStarted(at: 5)
        look(5.5)
        _ = prompter.faster(at: 6)
        look(6.7)
        prompter.toggleHold(at: 7)
        look(7.9)
        prompter.toggleHold(at: 8)
        _ = prompter.larger(at: 8.5)
        look(9.1)
        _ = prompter.slower(at: 9.25)
        let record = try stopped(&prompter, at: 11)
        #expect(record.anchors.count == 6)
        for (time, offset) in seen { #expect(replayed(record, at: time) == offset, "at \(time) s") }
        #expect(replayed(record, at: 6) == record.endOffset)

        // The export's timeline, given the take as recorded, ends it there too.
        let timeline = PrompterTimeline(takes: [.init(preroll: 0.5, duration: 6.5, record: record)],
                                        settings: PrompterSettings(), maxOffset: { monospaceLayout(numbered)($0).contentHeight - 100 })
        #expect(timeline.position(take: 0, seconds: 6.5).offset == record.endOffset)
    }
}
