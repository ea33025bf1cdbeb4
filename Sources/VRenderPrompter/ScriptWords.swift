/// A prompter script's words, numbered from 0 in reading order: what captions are made of and
/// what the synthetic presenter's record and an alignment name a word by.
///
/// A word is a run of characters between whitespace ("don't", "3.5", "—" alike). Its place is
/// counted as `TextLayout.Line.sourceStart` counts: the characters other than whitespace, and
/// the line feeds, before it. So a laid-out line's `sourceStart` finds its words at any font
/// size, and a position in a line's text finds the word it falls in.
public struct ScriptWords: Sendable, Equatable {
    public struct Word: Sendable, Equatable {
        public var text: String
        /// Its first character's place.
        public var place: Int
        /// Places it covers (its characters: none of them is whitespace).
        public var length: Int
        /// The paragraph (run of text between line feeds) it is in, from 0.
        public var paragraph: Int
    }

    public let words: [Word]

    public init(_ script: String) {
        var words: [Word] = []
        var place = 0
        var paragraph = 0
        var current: (scalars: String.UnicodeScalarView, place: Int)?
        func finish() {
            guard let word = current else { return }
            words.append(Word(text: String(word.scalars), place: word.place, length: word.scalars.count, paragraph: paragraph))
            current = nil
        }
        for scalar in script.unicodeScalars {
            if scalar.properties.isWhitespace {
                finish()
                if scalar == "\n" {
                    place += 1
                    paragraph += 1
                }
                continue
            }
            if current == nil { current = (String.UnicodeScalarView(), place) }
            current?.scalars.append(scalar)
            place += 1
        }
        finish()
        self.words = words
    }

    public var count: Int { words.count }

    /// The word holding `place`, nil when a line feed is there (or nothing).
    public func word(at place: Int) -> Int? {
        // The last word starting at or before the place holds it when the place is inside it.
        let next = firstWord(startingAfter: place)
        guard next > 0 else { return nil }
        let candidate = words[next - 1]
        return place < candidate.place + candidate.length ? next - 1 : nil
    }

    /// The words whose first place is in `places`.
    public func words(startingIn places: Range<Int>) -> Range<Int> {
        firstWord(startingAfter: places.lowerBound - 1)..<Swift.max(firstWord(startingAfter: places.lowerBound - 1),
                                                                   firstWord(startingAfter: places.upperBound - 1))
    }

    /// The first word whose place is after `place` (binary search: places only grow).
    private func firstWord(startingAfter place: Int) -> Int {
        var low = 0
        var high = words.count
        while low < high {
            let middle = (low + high) / 2
            if words[middle].place <= place { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The words that start on laid-out line `line` of `text` (a layout of this script).
    public func words(onLine line: Int, of text: PrompterText) -> Range<Int> {
        let from = text.lineStarts[line]
        let to = line + 1 < text.lineStarts.count ? text.lineStarts[line + 1] : Int.max
        return words(startingIn: from..<Swift.max(from, to))
    }

    /// The place of the scalar at `offset` in `line`, a laid-out line whose first place is
    /// `lineStart`: what a synthesizer's character position in the line's text becomes.
    public static func place(ofScalar offset: Int, in line: String, lineStart: Int) -> Int {
        var place = lineStart
        for (index, scalar) in line.unicodeScalars.enumerated() {
            if index >= offset { break }
            if !scalar.properties.isWhitespace { place += 1 }
        }
        return place
    }
}
