import Testing
import VRenderCore
import VRenderImaging
import VRenderPrompter

/// The script's words and the order and times a presenter reaches the prompter's lines.
struct PrompterReadingTests {
    @Test func wordsAreCountedInPlacesAsTheLayoutCountsThem() throws {
        let script = "Good morning,  and welcome.\n\nZweite Zeile — mit Grüßen\n"
        let words = ScriptWords(script)
        #expect(words.words.map(\.text) == ["Good", "morning,", "and", "welcome.", "Zweite", "Zeile", "—", "mit", "Grüßen"])
        #expect(words.words.map(\.paragraph) == [0, 0, 0, 0, 2, 2, 2, 2, 2])
        // Places skip spaces and count line feeds, as TextLayout's sourceStart does.
        #expect(words.words.map(\.place) == [0, 4, 12, 15, 25, 31, 36, 37, 40])
        #expect(words.word(at: 5) == 1 && words.word(at: 11) == 1 && words.word(at: 23) == nil && words.word(at: 45) == 8)
        #expect(words.words(startingIn: 12..<31) == 2..<5)
        // A layout at any width starts its lines on words of the same places.
        let layout = TextLayout(text: script, font: try TextFont(), pixelSize: 20, width: 120)
        for line in layout.lines where !line.text.isEmpty {
            let first = try #require(words.word(at: line.sourceStart), "line \(line.text)")
            #expect(line.text.hasPrefix(words.words[first].text) || words.words[first].place < line.sourceStart)
        }
        #expect(ScriptWords.place(ofScalar: 5, in: "and welcome.", lineStart: 12) == 16)
    }

    private func text(lines: Int, lineHeight: Double = 32) -> PrompterText {
        PrompterText(lines: (0..<lines).map { "line \($0)" }, lineHeight: lineHeight,
                     contentHeight: Double(lines) * lineHeight + 24)
    }

    @Test func eachLineIsDueWhenTheScrollBringsItToTheTop() {
        // 30 points a second, 32-point lines: line k is due at ceil(k × 32 / 0.5) ticks.
        let anchor = PrompterScroll.Anchor(time: 10, offset: 0, speed: 30, running: true, fontSize: 28)
        var reading = PrompterReading(text: text(lines: 20), anchor: anchor, maxOffset: 20 * 32 + 24 - 100, ending: .pause)
        let due = (0..<20).compactMap { _ in reading.next() }
        #expect(due.map(\.line) == Array(0..<20))
        #expect(due[0].time == 10)
        #expect(abs(due[3].time - (10 + 192.0 / 60)) < 1e-9)
        // The scroll stops with the end in view (offset 564): lines 18 and 19 (at 576 and 608)
        // never reach the top, and are due then.
        let stop = 10 + Double(PrompterScrollTestsSupport.ticks(to: 564, step: 0.5)) / 60
        #expect(due[18].time == due[19].time && abs(due[19].time - stop) < 1e-9)
        #expect(abs(due[17].time - (10 + 1088.0 / 60)) < 1e-9 && due[17].time < due[18].time)
        #expect(reading.next() == nil)
    }

    @Test func aTakeStartsWithTheLineMostlyInTheTopRowAndALoopComesRound() {
        // 40 points in (1.25 lines): line 1 is mostly in the top row.
        let anchor = PrompterScroll.Anchor(time: 0, offset: 40, speed: 60, running: true, fontSize: 28)
        let maxOffset = 6.0 * 32 + 24 - 100
        var reading = PrompterReading(text: text(lines: 6), anchor: anchor, maxOffset: maxOffset, ending: .loop)
        let due = (0..<10).compactMap { _ in reading.next() }
        #expect(due.map(\.line) == [1, 2, 3, 4, 5, 0, 1, 2, 3, 4])
        #expect(due[0].time == 0)
        // The scroll reaches the end after (116 − 40) / 1 = 76 ticks and jumps back to the top.
        #expect(abs(due[5].time - 76.0 / 60) < 1e-9)
        #expect(abs(due[6].time - (76.0 + 32) / 60) < 1e-9)
        #expect(due.map(\.time) == due.map(\.time).sorted())
        // Held: only the line in view, and only once.
        var held = PrompterReading(text: text(lines: 6), anchor: PrompterScroll.Anchor(time: 3, offset: 0, speed: 30, running: false,
                                                                                        fontSize: 28),
                                   maxOffset: maxOffset, ending: .loop)
        #expect(held.next() == PrompterReading.Due(line: 0, time: 3))
        #expect(held.next() == nil)
    }
}

/// The tick at which a scroll of `step` points per tick from 0 reaches `offset`.
enum PrompterScrollTestsSupport {
    static func ticks(to offset: Double, step: Double) -> Int {
        var ticks = 0
        while Double(ticks) * step < offset { ticks += 1 }
        return ticks
    }
}
