import VRenderCore
import VRenderImaging
import VRenderPrompter

/// What `ScriptAligner` looks for in a take: the script's words in lines, each with the moment
/// it reached the reader when the take's prompter scroll is known.
public struct ScriptPlan: Sendable {
    public struct Line: Sendable, Equatable {
        public var words: Range<Int>
        /// Seconds from the take's first picture when the line reached the top of the box, and
        /// when the line after it did (nil: not known).
        public var due: Double?
        public var nextDue: Double?
    }

    /// Without a prompter, lines are paragraphs cut into pieces of at most this many words.
    static let wordsPerPiece = 12

    public let words: ScriptWords
    public let lines: [Line]

    /// The script's paragraphs in pieces, in order, with no times: a take recorded without
    /// vrender's prompter (`--script FILE`).
    public static func unprompted(script: String) -> ScriptPlan {
        let words = ScriptWords(script)
        var lines: [Line] = []
        var start = 0
        while start < words.count {
            let paragraph = words.words[start].paragraph
            var end = start
            while end < words.count, end - start < wordsPerPiece, words.words[end].paragraph == paragraph { end += 1 }
            lines.append(Line(words: start..<end, due: nil, nextDue: nil))
            start = end
        }
        return ScriptPlan(words: words, lines: lines)
    }

    /// The prompter's lines as the take showed them (the script wrapped in the box of a
    /// `width`×`height` picture at the recorded font size) from the one at the top when the
    /// take started recording to the last one that reached the top before it ended, each with
    /// the moment it did. `preroll` and `duration`: the take's, seconds.
    public static func prompted(script: String, record: PrompterTakeRecord, preroll: Double, duration: Double,
                                width: Int, height: Int, font: TextFont) -> ScriptPlan {
        let words = ScriptWords(script)
        let geometry = PrompterGeometry(pictureWidth: width, pictureHeight: height)
        var layouts: [Double: PrompterText] = [:]
        func layout(_ size: Double) -> PrompterText {
            if let known = layouts[size] { return known }
            let text = geometry.prompterText(geometry.layout(script, fontSize: size, font: font))
            layouts[size] = text
            return text
        }
        let sizes = Set(record.anchors.map(\.fontSize) + [record.fontSize])
        let ends = Dictionary(uniqueKeysWithValues: sizes.map { ($0, Swift.max(0, layout($0).contentHeight - geometry.viewportPoints)) })
        let timeline = PrompterTimeline(takes: [PrompterTimeline.Take(preroll: preroll, duration: duration, record: record)],
                                        settings: PrompterSettings(speed: record.speed, fontSize: record.fontSize, ending: record.ending),
                                        maxOffset: { ends[$0] ?? 0 })
        let text = layout(record.fontSize)
        let due = dueTimes(starts: text.lineStarts, duration: duration, preroll: preroll) { seconds in
            let position = timeline.position(take: 0, seconds: seconds)
            return (topPlace(layout(position.fontSize), offset: position.offset), position.offset)
        }
        var lines: [Line] = []
        for index in text.lineStarts.indices {
            guard let time = due[index] else { continue }
            let range = words.words(onLine: index, of: text)
            guard !range.isEmpty else { continue }
            lines.append(Line(words: range, due: time, nextDue: nil))
        }
        for index in lines.indices.dropLast() { lines[index].nextDue = lines[index + 1].due }
        return ScriptPlan(words: words, lines: lines)
    }

    /// The place of the line mostly in the box's top row at `offset`.
    private static func topPlace(_ text: PrompterText, offset: Double) -> Int {
        guard let place = text.place(at: offset) else { return 0 }
        guard place.into >= 0.5, let line = text.lineStarts.firstIndex(of: place.start), line + 1 < text.lineStarts.count else {
            return place.start
        }
        return text.lineStarts[line + 1]
    }

    /// For each line starting at `starts[i]`, when the top place first reached it, sampled every
    /// 20 ms of the recording: nil for lines passed before it started or not reached by its end.
    /// Lines still below the top when the scroll stopped at the script's end are due then.
    /// `top` gives the top place and the scroll's offset at a time.
    private static func dueTimes(starts: [Int], duration: Double, preroll: Double, top: (Double) -> (place: Int, offset: Double)) -> [Double?] {
        var due = [Double?](repeating: nil, count: starts.count)
        let first = top(preroll)
        var reached = starts.lastIndex { $0 <= first.place } ?? 0
        due[reached] = preroll
        // The scroll, not the top place: at a slow speed one line takes seconds to pass.
        var lastOffset = first.offset
        var stillSince = preroll
        for seconds in stride(from: preroll, through: duration, by: 0.02) {
            let (place, offset) = top(seconds)
            if offset != lastOffset { stillSince = seconds }
            lastOffset = offset
            while reached + 1 < starts.count, starts[reached + 1] <= place {
                reached += 1
                due[reached] = seconds
            }
        }
        // The scroll stopped with lines below the top (the end of a paused script): they are
        // read one after another from then.
        if reached + 1 < starts.count, duration - stillSince > 1 {
            for index in reached + 1..<starts.count { due[index] = stillSince }
        }
        return due
    }
}
