/// Captions as cues: the script's words, as the alignment placed them, grouped the way
/// broadcasters' subtitle guidelines ask (the BBC's and Netflix's agree on these): at most two
/// lines of at most 42 characters, ending where the speaker breathes (after a sentence where
/// one is near), each cue on screen 1 to 7 seconds, with a gap of at least 80 ms (two frames)
/// between cues. A cue
/// shows while its words are said (from its first word's start to its last one's end), so it
/// never hangs over a pause or a cut; a cue shorter than a second is held up to one, where the
/// next cue leaves room. At most 20 characters a second is the guidelines' reading speed: cues
/// are as long as the speech allows, a presenter faster than that gets cues as fast as they are.
public struct CaptionCue: Sendable, Equatable, Codable {
    /// Seconds on the take's (or the export's) clock.
    public var start: Double
    public var end: Double
    /// One or two lines.
    public var lines: [String]
    /// The script's words it shows.
    public var words: Range<Int>

    public var text: String { lines.joined(separator: "\n") }

    public init(start: Double, end: Double, lines: [String], words: Range<Int>) {
        (self.start, self.end, self.lines, self.words) = (start, end, lines, words)
    }
}

public enum CaptionCues {
    public static let lineLength = 42
    public static let shortest = 1.0
    public static let longest = 7.0
    public static let charactersPerSecond = 20.0
    public static let gap = 0.08
    /// A silence this long between two words ends a cue (nothing shows over a pause).
    public static let pause = 0.7

    /// A silence at least this long between two words is a place a cue may end: the speech
    /// stops there, so the cue does with it.
    public static let breath = 0.15

    /// Cues for `words` (in script order: the alignment's) whose texts `script` gives. No cue
    /// is held past `until` (the end of the part of a take an export shows).
    public static func cues(for words: [ScriptAlignment.Word], script: [String], until: Double = .infinity) -> [CaptionCue] {
        var cues: [CaptionCue] = []
        var current: [ScriptAlignment.Word] = []
        for phrase in phrases(words, script: script) {
            if let first = current.first, let last = current.last, let next = phrase.last,
               !fits(current + phrase, script: script) || next.end - first.start > longest || phrase[0].start - last.end > pause
                || phrase[0].word != last.word + 1
                || endsSentence(script[last.word]) && last.end - first.start >= shortest {
                cues.append(cue(current, script: script))
                current = []
            }
            current += phrase
        }
        if !current.isEmpty { cues.append(cue(current, script: script)) }
        timeCues(&cues, until: until)
        return cues
    }

    /// The cues of consecutive parts of an export, each part's cues on the export's clock, as
    /// one list: where parts overlap (a dissolve), a cue ends `gap` before the next part's
    /// first cue starts.
    public static func joined(_ parts: [[CaptionCue]]) -> [CaptionCue] {
        var joined: [CaptionCue] = []
        for part in parts {
            if let first = part.first, let last = joined.last, last.end > first.start - gap {
                joined[joined.count - 1].end = Swift.max(last.start + 0.04, first.start - gap)
            }
            joined += part
        }
        return joined
    }

    private static func cue(_ group: [ScriptAlignment.Word], script: [String]) -> CaptionCue {
        CaptionCue(start: group[0].start, end: group[group.count - 1].end, lines: lines(group.map { script[$0.word] }),
                   words: group[0].word..<group[group.count - 1].word + 1)
    }

    /// The words in runs said without a breath (or a word left unheard) between them; a run
    /// too long for one cue is cut at its longest silence, or after a clause.
    static func phrases(_ words: [ScriptAlignment.Word], script: [String]) -> [[ScriptAlignment.Word]] {
        var runs: [[ScriptAlignment.Word]] = []
        for word in words {
            if let last = runs.last?.last, word.start - last.end < breath, word.word == last.word + 1 {
                runs[runs.count - 1].append(word)
            } else {
                runs.append([word])
            }
        }
        return runs.flatMap { split($0, script: script) }
    }

    /// `run` cut until each piece fits one cue: at its longest silence, a clause's end winning
    /// a near tie.
    private static func split(_ run: [ScriptAlignment.Word], script: [String]) -> [[ScriptAlignment.Word]] {
        guard run.count > 1, !fits(run, script: script) || run[run.count - 1].end - run[0].start > longest else { return [run] }
        let cut = (1..<run.count).max { a, b in
            func score(_ index: Int) -> Double {
                run[index].start - run[index - 1].end + (",;:.!?".contains(script[run[index - 1].word].last ?? " ") ? 0.05 : 0)
                    - abs(Double(index) / Double(run.count) - 0.5) * 0.01
            }
            return score(a) < score(b)
        } ?? run.count / 2
        return split(Array(run[..<cut]), script: script) + split(Array(run[cut...]), script: script)
    }

    /// Whether the words fit in two lines.
    private static func fits(_ group: [ScriptAlignment.Word], script: [String]) -> Bool {
        let laid = lines(group.map { script[$0.word] })
        return laid.count <= 2 && laid.allSatisfy { $0.count <= lineLength }
    }

    private static func length(_ group: [ScriptAlignment.Word], _ script: [String]) -> Int {
        group.reduce(-1) { $0 + script[$1.word].count + 1 }
    }

    private static func endsSentence(_ word: String) -> Bool {
        guard let last = word.last else { return false }
        return ".!?…。！？".contains(last)
    }

    /// The words on one line when they fit, else on two, broken at the space that best
    /// balances them, after a comma or a sentence where one is close to the middle.
    static func lines(_ words: [String]) -> [String] {
        let whole = words.joined(separator: " ")
        guard whole.count > lineLength, words.count > 1 else { return [whole] }
        var best: (score: Int, split: Int)?
        for split in 1..<words.count {
            let top = words[..<split].joined(separator: " ").count
            let bottom = words[split...].joined(separator: " ").count
            var score = abs(top - bottom)
            if let last = words[split - 1].last, ",;:.!?".contains(last) { score -= 8 }
            if top > lineLength || bottom > lineLength { score += 1000 }
            if best == nil || score < best!.score { best = (score, split) }
        }
        let split = best?.split ?? 1
        return [words[..<split].joined(separator: " "), words[split...].joined(separator: " ")]
    }

    /// Ends each cue `gap` before the next, and holds a cue shorter than `shortest` up to it
    /// where the next cue leaves room.
    private static func timeCues(_ cues: inout [CaptionCue], until: Double) {
        for index in cues.indices {
            let limit = index + 1 < cues.count ? cues[index + 1].start - gap : until
            let held = Swift.max(cues[index].end, cues[index].start + shortest)
            // The gap may take the last few milliseconds of a cue whose words run into the next.
            cues[index].end = Swift.max(Swift.min(held, limit), cues[index].start + 0.04)
        }
    }
}

/// Caption files: SubRip (`.srt`) and WebVTT (`.vtt`).
public enum CaptionFormat: String, Sendable, CaseIterable {
    case srt, vtt

    /// The file's text for `cues`, in WebVTT with `note` (one line) as a NOTE block after the
    /// header: SubRip has no comments, and writes none.
    public func text(_ cues: [CaptionCue], note: String? = nil) -> String {
        var text = self == .vtt ? "WEBVTT\n\n" + (note.map { "NOTE \($0)\n\n" } ?? "") : ""
        for (index, cue) in cues.enumerated() {
            if self == .srt { text += "\(index + 1)\n" }
            text += "\(stamp(cue.start)) --> \(stamp(cue.end))\n\(cue.text)\n\n"
        }
        return text
    }

    /// `HH:MM:SS,mmm` (SubRip) or `HH:MM:SS.mmm` (WebVTT).
    func stamp(_ seconds: Double) -> String {
        let milliseconds = Swift.max(0, Int((seconds * 1000).rounded()))
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let millis = milliseconds % 1000
        let digits = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
        let seconds = milliseconds / 1000
        return "\(two(seconds / 3600)):\(two(seconds / 60 % 60)):\(two(seconds % 60))\(self == .srt ? "," : ".")\(digits)"
    }
}
