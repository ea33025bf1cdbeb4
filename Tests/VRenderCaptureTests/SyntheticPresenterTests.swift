import Testing
import VRenderCore
import VRenderPrompter
import VRenderSpeech
@testable import VRenderCapture

/// The synthetic presenter: what it says, when, and that the same take always sounds the same.
@Suite struct SyntheticPresenterTests {
    static let script = """
        Good morning and welcome to the talk.
        Today we look at cameras and sound.
        A webcam sends thirty pictures a second.
        A microphone keeps its own clock.
        """

    /// The script's four paragraphs as four 40-point lines, scrolling 20 points a second from
    /// scene second 2 (a line every two seconds).
    static func start(actions: [(time: Double, action: ActionScript.PresenterAction)] = []) -> SyntheticPresenter.TakeStart {
        let lines = script.split(separator: "\n").map(String.init)
        var starts: [Int] = []
        var place = 0
        for line in lines {
            starts.append(place)
            place += line.unicodeScalars.filter { !$0.properties.isWhitespace }.count + 1   // and the line feed
        }
        let text = PrompterText(lines: lines, lineHeight: 40, contentHeight: 4 * 40 + 24, lineStarts: starts)
        return SyntheticPresenter.TakeStart(time: 2, text: text,
                                            anchor: PrompterScroll.Anchor(time: 2, offset: 0, speed: 20, running: true, fontSize: 28),
                                            maxOffset: 1000, ending: .pause, actions: actions)
    }

    static func take(actions: [(time: Double, action: ActionScript.PresenterAction)] = [], until end: Double = 20)
        throws -> PresenterTakeRecord {
        let presenter = SyntheticPresenter(script: script, voice: .english)
        presenter.takeStarted(start(actions: actions))
        return try #require(try presenter.takeStopped(at: end))
    }

    @Test func itReadsEveryLineWhenItReachesTheTopOneWordAtATime() throws {
        let record = try Self.take()
        let words = ScriptWords(Self.script)
        #expect(record.words.map(\.word) == Array(0..<words.count))
        #expect(record.words.map(\.text) == words.words.map(\.text))
        #expect(record.skipped.isEmpty && record.voice == "en")
        // Times from the take's start: the first word after the presenter's reaction, each line
        // no earlier than it reaches the reading line (every 2 s), words in order, none overlapping.
        #expect(abs(record.words[0].start - PresenterSchedule.reaction) < 1e-9)
        for (line, first) in [(1, 7), (2, 14), (3, 21)] {
            #expect(record.words[first].start >= Double(line) * 2, "line \(line)")
        }
        for (word, next) in zip(record.words, record.words.dropFirst()) {
            #expect(word.start < word.end && word.end <= next.start, "\(word.text)")
        }
    }

    @Test func aFlubReadsTheFirstWordsPausesAndReadsTheLineAgain() throws {
        let record = try Self.take(actions: [(1.5, .flub)])
        // The action at 1.5 s applies to the next line started: line 1 ("Today we look at cameras
        // and sound.", words 7 to 13), whose first four words are read, then all seven.
        let flubbed = record.words.filter(\.isFlubbed)
        #expect(flubbed.map(\.word) == [7, 8, 9, 10])
        let again = try #require(record.words.firstIndex { $0.word == 7 && !$0.isFlubbed })
        #expect(record.words[again].start - flubbed.last!.end >= PresenterSchedule.flubPause)
        #expect(record.words.filter { !$0.isFlubbed }.map(\.word) == Array(0..<ScriptWords(Self.script).count))
    }

    @Test func aSkippedLineIsNeverSpokenAndIsListed() throws {
        // Lines start 0, 2, 4 and 6 s into the take: the second skip takes line 2 (words 14 to 20).
        let record = try Self.take(actions: [(0, .skip), (3.5, .skip)])
        #expect(record.skipped == Array(0..<7) + Array(14..<21))
        #expect(record.words.map(\.word) == Array(7..<14) + Array(21..<27))
        #expect(record.words.allSatisfy { !$0.isFlubbed })
    }

    @Test func theSameTakeSoundsTheSameHoweverItIsAsked() throws {
        let times = (0..<48_000).map { 2 + Double($0) / 16_000 }   // 3 s from the take's start
        func render(_ presenter: SyntheticPresenter, periods: Int) -> [Double] {
            var out: [Double] = []
            for chunk in stride(from: 0, to: times.count, by: periods) {
                var samples = [Double](repeating: 0, count: Swift.min(periods, times.count - chunk))
                presenter.render(at: Array(times[chunk..<chunk + samples.count]), into: &samples)
                out += samples
            }
            return out
        }
        let first = SyntheticPresenter(script: Self.script, voice: .english)
        first.takeStarted(Self.start())
        let second = SyntheticPresenter(script: Self.script, voice: .english)
        second.takeStarted(Self.start())
        _ = try SpeechSynthesizer.speak("Something else in between.", voice: try SpeechVoice(named: "de"))
        let a = render(first, periods: 160)
        let b = render(second, periods: 441)
        #expect(a == b)
        #expect(a.contains { abs($0) > 0.1 } && a.allSatisfy { abs($0) <= Double(PresenterSchedule.peak) + 0.02 })
        // Silent before the first word, and after the take stops.
        #expect(a.prefix(Int(PresenterSchedule.reaction * 16_000) - 1).allSatisfy { $0 == 0 })
        _ = try first.takeStopped(at: 3)
        var after = [Double](repeating: 0, count: 100)
        first.render(at: (0..<100).map { 3 + Double($0) / 16_000 }, into: &after)
        #expect(after.allSatisfy { $0 == 0 })
    }

    /// A batch microphone runs behind the camera: the end of one take is rendered after the next
    /// take has started, and must still be the first take's voice.
    @Test func theLastTakesEndIsHeardAfterTheNextTakeStarts() throws {
        let times = (0..<16_000).map { 4 + Double($0) / 16_000 }   // scene 4 to 5 s: take 1's line 1
        let alone = SyntheticPresenter(script: Self.script, voice: .english)
        alone.takeStarted(Self.start())
        let behind = SyntheticPresenter(script: Self.script, voice: .english)
        behind.takeStarted(Self.start())
        _ = try behind.takeStopped(at: 5)
        var next = Self.start()
        next.time = 5
        next.anchor.time = 5
        behind.takeStarted(next)
        var expected = [Double](repeating: 0, count: times.count)
        alone.render(at: times, into: &expected)
        var heard = [Double](repeating: 0, count: times.count)
        behind.render(at: times, into: &heard)
        #expect(heard == expected && heard.contains { abs($0) > 0.1 })
    }

    @Test func theMicrophoneHearsThePresenterAndStillTheClapper() throws {
        let camera = try SyntheticMicrophoneTests.camera()
        let microphone = try SyntheticMicrophoneTests.microphone(camera: camera)
        let presenter = SyntheticPresenter.attached(to: microphone, reading: (Self.script, .english))
        try #require(presenter != nil)
        presenter?.takeStarted(Self.start())
        let (samples, _, _) = try SyntheticMicrophoneTests.read(microphone, periods: 400)   // 4 s at 16 kHz
        // Speech from 2.3 s; the clicks (over half scale) on every whole second.
        let speech = samples[(Int(2.4 * 16_000))..<(Int(3.9 * 16_000))]
        #expect(speech.contains { abs($0) > 0.1 })
        let clicks = { (index: Int) in index % 16_000 < 160 }   // the 10 ms after each whole second
        #expect(samples.indices.prefix(Int(2.2 * 16_000)).allSatisfy { clicks($0) || samples[$0] == 0 })
        let loud = samples.indices.filter { abs(samples[$0]) > 0.5 }
        #expect(Set(loud.map { $0 / 16_000 }) == [0, 1, 2, 3] && loud.allSatisfy(clicks))
        #expect(SyntheticPresenter.attached(to: nil, reading: (Self.script, .english)) == nil)
    }
}
