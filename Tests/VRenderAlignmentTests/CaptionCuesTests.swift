import Testing
@testable import VRenderAlignment

/// Cues from aligned words: the guidelines' shape, and files ffmpeg reads.
@Suite struct CaptionCuesTests {
    static let script = "Good morning, and welcome to this short talk about recording video on Linux. Today we look at three things."
        .split(separator: " ").map(String.init)

    /// The script's words said one after another, 0.3 s each with 0.05 s between, from `start`.
    static func said(_ range: Range<Int>, from start: Double) -> [ScriptAlignment.Word] {
        range.enumerated().map { offset, word in
            ScriptAlignment.Word(word: word, start: start + Double(offset) * 0.35, end: start + Double(offset) * 0.35 + 0.3,
                                 confidence: 1)
        }
    }

    @Test func cuesAreTwoLinesOf42AtMostBrokenAtASentenceAndShownWhileSaid() {
        let cues = CaptionCues.cues(for: Self.said(0..<19, from: 1), script: Self.script)
        #expect(cues.map(\.text) == ["Good morning, and welcome to this short\ntalk about recording video on Linux.",
                                     "Today we look at three things."])
        #expect(cues.allSatisfy { $0.lines.count <= 2 && $0.lines.allSatisfy { $0.count <= 42 } })
        // Its last word ends 0.05 s before the next cue's first: the gap takes 0.03 s of it.
        #expect(cues[0].start == 1 && abs(cues[0].end - (1 + 13 * 0.35 - CaptionCues.gap)) < 1e-9)
        #expect(cues[1].start - cues[0].end >= CaptionCues.gap)
        #expect(cues.map(\.words) == [0..<13, 13..<19])
    }

    @Test func aPauseOrAnUnreadLineEndsACueAndAShortCueIsHeldASecond() {
        // Words 0-3, a 2 s pause, then 4-5; word 6 never heard, then 7-8.
        let words = Self.said(0..<4, from: 0) + Self.said(4..<6, from: 3.4) + Self.said(7..<9, from: 4.5)
        let cues = CaptionCues.cues(for: words, script: Self.script)
        #expect(cues.map(\.words) == [0..<4, 4..<6, 7..<9])
        #expect(abs(cues[1].end - (3.4 + 1)) < 1e-9)   // 0.65 s of words, held a second
        #expect(abs(cues[2].end - (4.5 + 1)) < 1e-9)
    }

    @Test func subRipAndWebVTTFiles() {
        let cues = [CaptionCue(start: 0.321, end: 2.5, lines: ["Good morning,", "and welcome."], words: 0..<4),
                    CaptionCue(start: 3_725.0004, end: 3_727, lines: ["Ça va?"], words: 4..<6)]
        #expect(CaptionFormat.srt.text(cues) == """
            1
            00:00:00,321 --> 00:00:02,500
            Good morning,
            and welcome.

            2
            01:02:05,000 --> 01:02:07,000
            Ça va?


            """)
        #expect(CaptionFormat.vtt.text(cues).hasPrefix("WEBVTT\n\n00:00:00.321 --> 00:00:02.500\nGood morning,\nand welcome.\n\n"))
        #expect(CaptionFormat.vtt.text(cues, note: "made from talk.txt").hasPrefix(
            "WEBVTT\n\nNOTE made from talk.txt\n\n00:00:00.321 --> 00:00:02.500\n"))
        #expect(CaptionFormat.srt.text(cues, note: "made from talk.txt") == CaptionFormat.srt.text(cues))
    }
}
