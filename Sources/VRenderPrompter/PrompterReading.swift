/// The order a presenter comes to the prompter's lines during a take, and when: a line is due
/// when the scroll brings its top to the box's top (the reading line). Lines that never get
/// there because a `pause` script stops with its end in view are due, one after another, when
/// the scroll stops; a `loop` script's lines come round again after it jumps back to the top.
///
/// A pure sequence from the scroll's anchor at the take's start, in the scroll's own closed
/// form (`PrompterScroll.offset(from:at:maxOffset:ending:)`'s 60 Hz ticks), so every caller
/// that asks gets the same times. It follows the anchor it is given: a hold, speed or size
/// change later in the take is not foreseen.
public struct PrompterReading: Sendable, IteratorProtocol {
    public struct Due: Sendable, Equatable {
        /// The laid-out line (`PrompterText.lines`).
        public var line: Int
        /// When it reaches the reading line, on the anchor's clock.
        public var time: Double

        public init(line: Int, time: Double) {
            self.line = line
            self.time = time
        }
    }

    private let lineCount: Int
    private let lineHeight: Double
    private let anchor: PrompterScroll.Anchor
    private let maxOffset: Double
    private let ending: PrompterEnding
    private let step: Double
    private var line: Int
    /// Ticks from the anchor at which the pass in progress started (0 for the first).
    private var passStart: Int = 0
    private var firstPass = true

    /// From `anchor` (at the take's start) on a layout of `text` scrolling to `maxOffset`:
    /// the first line due is the one at least half in the box's top row then.
    public init(text: PrompterText, anchor: PrompterScroll.Anchor, maxOffset: Double, ending: PrompterEnding) {
        lineCount = text.lines.count
        lineHeight = text.lineHeight
        self.anchor = anchor
        self.maxOffset = Swift.max(0, maxOffset)
        self.ending = ending
        step = anchor.speed / PrompterSettings.tickRate
        let start = Swift.min(Swift.max(0, anchor.offset), self.maxOffset)
        line = lineHeight > 0 ? Int((start / lineHeight).rounded(.toNearestOrAwayFromZero)) : 0
    }

    public mutating func next() -> Due? {
        guard lineHeight > 0, lineCount > 0 else { return nil }
        if line >= lineCount {
            // A loop script starts again from its top line when the scroll jumps back.
            guard ending == .loop, anchor.running, step > 0 else { return nil }
            passStart = ticksToEnd()
            firstPass = false
            line = 0
        }
        defer { line += 1 }
        guard anchor.running, step > 0 else {
            // A scroll that does not move brings no line after the first.
            return firstPass && line == Int((anchorStart / lineHeight).rounded(.toNearestOrAwayFromZero))
                ? Due(line: line, time: anchor.time) : nil
        }
        return Due(line: line, time: anchor.time + Double(ticks(toReach: Double(line) * lineHeight)) / PrompterSettings.tickRate)
    }

    private var anchorStart: Double { Swift.min(Swift.max(0, anchor.offset), maxOffset) }

    /// Ticks from the anchor until the scroll reaches `offset` in the pass in progress (its end
    /// when the offset is past it; a loop leaves the end on the tick it reaches it, so a line
    /// past it is due the tick before).
    private func ticks(toReach offset: Double) -> Int {
        let base = firstPass ? anchorStart : 0
        let end = ticksToEnd() - passStart
        guard offset > base else { return passStart }
        let reach = offset >= maxOffset ? end : PrompterScroll.ticksToReach(offset, from: base, step: step)
        return passStart + (ending == .loop ? Swift.min(reach, end - 1) : Swift.min(reach, end))
    }

    /// Ticks from the anchor until the pass in progress reaches the end.
    private func ticksToEnd() -> Int {
        let base = firstPass ? anchorStart : 0
        guard maxOffset > base else { return passStart + (ending == .loop ? 1 : 0) }
        return passStart + PrompterScroll.ticksToReach(maxOffset, from: base, step: step)
    }
}
