internal import CFriBidi

/// The Unicode bidirectional algorithm (UAX #9) for one line: GNU FriBidi gives each
/// character's embedding level; the line is cut into runs of one level, put in the order they
/// are read on screen (rule L2: from the highest level down to the lowest odd one, every
/// sequence of runs at that level or above is reversed).
enum Bidi {
    struct Run: Equatable {
        /// The characters, in logical (typed) order.
        var range: Range<Int>
        var rightToLeft: Bool
    }

    /// `scalars`' runs in visual order, left to right on screen.
    static func visualRuns(_ scalars: [Unicode.Scalar]) -> [Run] {
        guard !scalars.isEmpty else { return [] }
        let text = scalars.map(\.value)
        var levels = [UInt8](repeating: 0, count: text.count)
        let highest = vrender_bidi_levels(text, Int32(text.count), &levels)
        guard highest > 0 else { return [Run(range: 0..<text.count, rightToLeft: highest == 1)] }
        var runs: [(range: Range<Int>, level: UInt8)] = []
        for index in levels.indices {
            if let last = runs.last, last.level == levels[index] {
                runs[runs.count - 1].range = last.range.lowerBound..<index + 1
            } else {
                runs.append((index..<index + 1, levels[index]))
            }
        }
        let lowestOdd = runs.map(\.level).filter { $0 % 2 == 1 }.min() ?? UInt8(highest + 1)
        var level = UInt8(highest)
        while level >= lowestOdd {
            var start = 0
            while start < runs.count {
                guard runs[start].level >= level else { start += 1; continue }
                var end = start
                while end < runs.count, runs[end].level >= level { end += 1 }
                runs[start..<end].reverse()
                start = end
            }
            level -= 1
        }
        return runs.map { Run(range: $0.range, rightToLeft: $0.level % 2 == 1) }
    }
}
