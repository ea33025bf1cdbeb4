/// The teleprompter's scroll, as a pure value: times and recording state in, offset out.
///
/// The seed scrolls with a 60 Hz timer that adds `speed × Δt` to the offset on every tick
/// and, on reaching the end, stops there (`pause`) or jumps back to 0 (`loop`). This model
/// gives exactly those ticks in closed form, so an offset is the same whether asked for on
/// every frame of a capture or once for a frame in the middle of an hour-long export, and
/// whatever the caller's frame rate.
///
/// Times are seconds on any clock that only moves forward (a capture's wall clock, a take's
/// recording time in an export). Offsets are points from the top of the script: 0 shows the
/// first line at the top of the viewport; `maxOffset` shows the end of the script.
///
/// Scrolling runs while a take records and the user has not held it; it keeps its offset when
/// recording stops, and the next take resumes from there (`startRecording`).
public struct PrompterScroll: Sendable, Equatable {
    /// Where the scroll was, and how it moves from there: the state every change starts
    /// anew. A take's anchors are what takes.json keeps of its scroll (`PrompterTakeRecord`).
    public struct Anchor: Sendable, Equatable, Codable {
        /// Seconds on the caller's clock.
        public var time: Double
        /// Points from the top of the script at `time`.
        public var offset: Double
        /// Points per second while `running`.
        public var speed: Double
        /// Whether the offset moves from `time` on (recording and not held by the user).
        public var running: Bool
        /// The font size from `time` on, points (the text's layout, and so its end, follow it).
        public var fontSize: Double

        public init(time: Double, offset: Double, speed: Double, running: Bool, fontSize: Double) {
            self.time = time
            self.offset = offset
            self.speed = speed
            self.running = running
            self.fontSize = fontSize
        }
    }

    public private(set) var settings: PrompterSettings
    /// Height of the laid-out script (and the room below its last line), points.
    public private(set) var contentHeight: Double
    /// Height of the box's text area, points.
    public private(set) var viewportHeight: Double
    public private(set) var anchor: Anchor
    public private(set) var isRecording = false
    /// Held by the user (a key); scrolling resumes on `resume`.
    public private(set) var isHeld = false

    public init(settings: PrompterSettings, contentHeight: Double, viewportHeight: Double, offset: Double = 0) {
        self.settings = settings
        self.contentHeight = Swift.max(0, contentHeight)
        self.viewportHeight = Swift.max(0, viewportHeight)
        anchor = Anchor(time: 0, offset: 0, speed: settings.speed, running: false, fontSize: settings.fontSize)
        anchor.offset = Swift.min(Swift.max(0, offset), maxOffset)
    }

    /// The offset at which the script's end is in view.
    public var maxOffset: Double { Swift.max(0, contentHeight - viewportHeight) }

    /// The offset at `time` (not before the last change).
    public func offset(at time: Double) -> Double {
        Self.offset(from: anchor, at: time, maxOffset: maxOffset, ending: settings.ending)
    }

    /// True when a `pause` script has reached its end at `time`: it stays there.
    public func isAtEnd(at time: Double) -> Bool { offset(at: time) >= maxOffset }

    // MARK: - Changes (each starts a new anchor at the offset reached)

    /// A take starts recording: scrolling resumes from where the last take left it.
    public mutating func startRecording(at time: Double) {
        reanchor(at: time) { $0.isRecording = true }
    }

    /// The take stops: the offset is kept for the next take.
    public mutating func stopRecording(at time: Double) {
        reanchor(at: time) { $0.isRecording = false }
    }

    /// The user holds the scroll (it stays put while the take goes on)…
    public mutating func hold(at time: Double) {
        reanchor(at: time) { $0.isHeld = true }
    }

    /// …and lets it go.
    public mutating func resume(at time: Double) {
        reanchor(at: time) { $0.isHeld = false }
    }

    /// The scroll goes to `offset` (clamped to the script) at `time`, moving on from there as
    /// it moved before.
    public mutating func jump(to offset: Double, at time: Double) {
        reanchor(at: time) { _ in }
        anchor.offset = Swift.min(Swift.max(0, offset), maxOffset)
    }

    /// A new speed, clamped to the seed's range; returns the notice when it had to be.
    @discardableResult
    public mutating func setSpeed(_ speed: Double, at time: Double, option: String = "speed") -> String? {
        var notices: [String] = []
        let clamped = PrompterSettings.clamp(speed, to: PrompterSettings.speedRange, option: option,
                                             unit: "points per second", notices: &notices)
        reanchor(at: time) { $0.settings.speed = clamped }
        return notices.first
    }

    /// New heights after the text was laid out again (another font size, another box): the
    /// offset reached by `time` becomes `moved(offset)` (the same words' place in the new
    /// layout: `PrompterText.offset(_:relaidAs:)`), up to the new end.
    public mutating func relayout(settings: PrompterSettings, contentHeight: Double, viewportHeight: Double, at time: Double,
                                  moved: (Double) -> Double = { $0 }) {
        reanchor(at: time) { scroll in
            scroll.settings = settings
            scroll.contentHeight = Swift.max(0, contentHeight)
            scroll.viewportHeight = Swift.max(0, viewportHeight)
        }
        anchor.offset = Swift.min(moved(anchor.offset), maxOffset)
    }

    /// Applies `change` at `time`, starting the new anchor at the offset reached by then.
    private mutating func reanchor(at time: Double, _ change: (inout PrompterScroll) -> Void) {
        let reached = offset(at: Swift.max(time, anchor.time))
        change(&self)
        anchor = Anchor(time: Swift.max(time, anchor.time), offset: reached, speed: settings.speed,
                        running: isRecording && !isHeld, fontSize: settings.fontSize)
    }

    // MARK: - The seed's ticks, in closed form

    /// The offset `anchor` reaches by `time`: one step of `speed / 60` points per whole tick of
    /// 1/60 s since the anchor; at the end it stays (`pause`) or, on the tick that reaches it,
    /// goes back to 0 and scrolls on (`loop`).
    public static func offset(from anchor: Anchor, at time: Double, maxOffset: Double, ending: PrompterEnding) -> Double {
        let start = Swift.min(Swift.max(0, anchor.offset), maxOffset)
        guard anchor.running, time > anchor.time, anchor.speed > 0 else { return start }
        let ticks = Int(((time - anchor.time) * PrompterSettings.tickRate + 1e-9).rounded(.down))
        guard ticks > 0 else { return start }
        let step = anchor.speed / PrompterSettings.tickRate
        switch ending {
        case .pause:
            return Swift.min(start + Double(ticks) * step, maxOffset)
        case .loop:
            let first = ticksToReach(maxOffset, from: start, step: step)
            if ticks < first { return start + Double(ticks) * step }
            // From 0, the end is reached (and left for 0 again) every `period` ticks.
            let period = ticksToReach(maxOffset, from: 0, step: step)
            return Double((ticks - first) % period) * step
        }
    }

    /// The first tick (≥ 1) at which `start + ticks × step` reaches `end`.
    static func ticksToReach(_ end: Double, from start: Double, step: Double) -> Int {
        var ticks = Swift.max(1, Int(((end - start) / step).rounded(.up)))
        // Rounding in the division can be off by one either way: settle it with the sums the
        // seed's timer would have made.
        while ticks > 1 && start + Double(ticks - 1) * step >= end { ticks -= 1 }
        while start + Double(ticks) * step < end { ticks += 1 }
        return ticks
    }
}
