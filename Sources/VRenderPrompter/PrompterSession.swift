import VRenderCore

/// A key's change to the prompter during a capture.
public enum PrompterCommand: Sendable, Equatable {
    /// Hold the scroll where it is, or let it go again.
    case toggleHold
    /// `PrompterSettings.speedStep` points per second slower or faster.
    case slower, faster
    /// `PrompterSettings.fontSizeStep` points smaller or larger text (laid out again).
    case smaller, larger
    /// Back to the top of the script (capture's r key), recording or not.
    case restart
}

/// The teleprompter during a capture: the script laid out at the font size, its scroll, and
/// what each take did with it (the `PrompterTakeRecord` takes.json keeps).
///
/// Times are seconds on the capture's clock (the one the capture loop times takes with), so a
/// take's anchors line up with its frames: the record's time 0 is the take's recording start,
/// its first frame after the pre-roll. Scrolling runs while a take records and is not held;
/// the next take resumes where the last one stopped.
///
/// ## Points to terminal rows
/// The terminal shows what the box shows, one row per laid-out line (`PrompterText.lines`,
/// wrapped to the box's width): the lines at least half in the box's text area (their middle
/// inside it), top to bottom, each marked when the box cuts it at its top or bottom edge. A
/// line less than half in view is a sliver in the picture, and no row. There are always
/// `max(2, ceil(viewportHeight / lineHeight))` rows, the most lines that can be half in view,
/// so the block keeps its height as the text moves; rows past the script's end, or left over
/// while a line is less than half in, are empty. A scroll of one line height moves the text
/// one row up.
public struct PrompterSession: Sendable {
    /// Lays the script out at a font size (points): the lines as wrapped in the box, their
    /// height and the scroll's content height, all in points.
    public typealias Layout = @Sendable (_ fontSize: Double) -> PrompterText
    /// Makes the session for a capture once its picture size is known (the box, and so the
    /// script's wrapping, follow it).
    public typealias Factory = @Sendable (_ frameWidth: Int, _ frameHeight: Int) -> PrompterSession

    /// The script's name as given (`--prompter FILE`), for takes.json.
    public let scriptName: String
    /// The script's text as shown, hashed (`PrompterScript.hash`), for takes.json; nil: not known.
    public var scriptHash: String?
    /// How the user starts the scroll over from the top, for the notice that says the session
    /// continues a folder's takes (capture's "press r to start over from the top"); nil: no way.
    public var restartHint: String?
    /// Height of the box's text area, points.
    public let viewportHeight: Double
    /// The script as laid out at the current font size.
    public private(set) var text: PrompterText
    public private(set) var scroll: PrompterScroll
    let layout: Layout
    /// The take recording now: where its scroll started and each change since.
    private var take: TakeInProgress?
    /// The place the last size change kept at the box's top and the offset it left: a second
    /// change before the scroll has moved keeps that same place, not the start of the line
    /// that holds it now (which, change after change, would creep back a line each time).
    private var keptPlace: (offset: Double, place: PrompterText.Place)?

    private struct TakeInProgress: Sendable {
        /// Capture time the take started recording at (its anchors' time 0).
        var start: Double
        var startOffset: Double
        var settings: PrompterSettings
        var anchors: [PrompterScroll.Anchor] = []
    }

    /// A session at the top of the script, not recording. `settings` are used as given: users'
    /// values go through `PrompterSettings.clamped` first.
    public init(scriptName: String, settings: PrompterSettings, viewportHeight: Double, layout: @escaping Layout) {
        self.scriptName = scriptName
        self.viewportHeight = viewportHeight
        self.layout = layout
        text = layout(settings.fontSize)
        scroll = PrompterScroll(settings: settings, contentHeight: text.contentHeight, viewportHeight: viewportHeight)
    }

    public var settings: PrompterSettings { scroll.settings }
    public var isRecording: Bool { take != nil }

    // MARK: - Takes

    /// A take starts recording at `time`: the scroll resumes from where the last take left it.
    public mutating func takeStarted(at time: Double) {
        if take != nil { _ = takeStopped(at: time) }
        scroll.startRecording(at: time)
        take = TakeInProgress(start: time, startOffset: scroll.anchor.offset, settings: scroll.settings)
        noteAnchor()
    }

    /// The take stops at `time` (its first frame not recorded): what takes.json keeps of its
    /// scroll. Nil when no take was recording.
    public mutating func takeStopped(at time: Double) -> PrompterTakeRecord? {
        guard let take else { return nil }
        let endOffset = scroll.offset(at: time)
        scroll.stopRecording(at: time)
        self.take = nil
        return PrompterTakeRecord(script: scriptName, startOffset: take.startOffset, endOffset: endOffset,
                                  speed: take.settings.speed, fontSize: take.settings.fontSize,
                                  ending: take.settings.ending, anchors: take.anchors, scriptHash: scriptHash)
    }

    // MARK: - Keys

    /// Applies a key's command at `time`; returns a notice when a limit was reached.
    @discardableResult
    public mutating func perform(_ command: PrompterCommand, at time: Double) -> String? {
        switch command {
        case .toggleHold: toggleHold(at: time); return nil
        case .slower: return slower(at: time)
        case .faster: return faster(at: time)
        case .smaller: return smaller(at: time)
        case .larger: return larger(at: time)
        case .restart: move(to: 0, at: time); return nil
        }
    }

    /// Puts the box's top `offset` points into the script at `time` (up to its end): the top
    /// (`restart`), or where a folder's last take ended. A take recording keeps it as an anchor.
    public mutating func move(to offset: Double, at time: Double) {
        scroll.jump(to: offset, at: time)
        keptPlace = nil
        noteAnchor()
    }

    /// Holds the scroll where it is, or lets it go (recording or not: a hold lasts across takes).
    public mutating func toggleHold(at time: Double) {
        if scroll.isHeld { scroll.resume(at: time) } else { scroll.hold(at: time) }
        noteAnchor()
    }

    public mutating func faster(at time: Double) -> String? {
        setSpeed(settings.speed + PrompterSettings.speedStep, at: time)
    }

    public mutating func slower(at time: Double) -> String? {
        setSpeed(settings.speed - PrompterSettings.speedStep, at: time)
    }

    public mutating func larger(at time: Double) -> String? {
        setFontSize(settings.fontSize + PrompterSettings.fontSizeStep, at: time)
    }

    public mutating func smaller(at time: Double) -> String? {
        setFontSize(settings.fontSize - PrompterSettings.fontSizeStep, at: time)
    }

    /// The speed, clamped; at a limit nothing changes but the notice.
    private mutating func setSpeed(_ speed: Double, at time: Double) -> String? {
        var notices: [String] = []
        let clamped = PrompterSettings.clamp(speed, to: PrompterSettings.speedRange, option: "prompter speed",
                                             unit: "points per second", notices: &notices)
        if clamped != settings.speed {
            scroll.setSpeed(clamped, at: time)
            noteAnchor()
        }
        return notices.first
    }

    /// The font size, clamped, and the script laid out again at it. The line at the box's top
    /// stays at the top, as far into it as it was (the seed kept the offset in points, which
    /// jumped paragraphs at another size), up to the new end.
    private mutating func setFontSize(_ size: Double, at time: Double) -> String? {
        var notices: [String] = []
        var settings = settings
        settings.fontSize = PrompterSettings.clamp(size, to: PrompterSettings.fontSizeRange, option: "prompter font size",
                                                   unit: "points", notices: &notices)
        if settings.fontSize != self.settings.fontSize {
            let before = text, kept = keptPlace
            text = layout(settings.fontSize)
            var place: PrompterText.Place?
            scroll.relayout(settings: settings, contentHeight: text.contentHeight, viewportHeight: viewportHeight, at: time) {
                [text] reached in
                place = kept?.offset == reached ? kept?.place : before.place(at: reached)
                return place.map { text.offset(showing: $0) } ?? reached
            }
            keptPlace = place.map { (scroll.anchor.offset, $0) }
            noteAnchor()
        }
        return notices.first
    }

    /// Adds the scroll's new anchor to the take recording, its time from the take's start. A
    /// second change at the same moment replaces the first: only the last one ever shows.
    private mutating func noteAnchor() {
        guard var take else { return }
        var anchor = scroll.anchor
        anchor.time -= take.start
        if take.anchors.last?.time == anchor.time { take.anchors.removeLast() }
        take.anchors.append(anchor)
        self.take = take
    }

    // MARK: - The terminal's view

    /// The rows the box shows at `time` (see "Points to terminal rows").
    public func view(at time: Double) -> PrompterView {
        let offset = scroll.offset(at: time)
        let lineHeight = text.lineHeight > 0 ? text.lineHeight : 1
        let rows = Self.rows(offset: offset, viewportHeight: viewportHeight, lineHeight: lineHeight, lines: text.lines)
        let topLine = Swift.max(0, Int((offset / lineHeight + 1e-9).rounded(.down)))
        return PrompterView(rows: rows, firstLine: topLine, lineCount: text.lines.count, state: state(at: time),
                            speed: settings.speed, fontSize: settings.fontSize, offset: offset, maxOffset: scroll.maxOffset,
                            lines: text.lines, lineHeight: lineHeight)
    }

    /// The rows for a box `viewportHeight` points high scrolled `offset` points: the lines whose
    /// middle is in view, then empty rows up to `rowCount`.
    static func rows(offset: Double, viewportHeight: Double, lineHeight: Double, lines: [String]) -> [PrompterView.Row] {
        let count = rowCount(viewportHeight: viewportHeight, lineHeight: lineHeight), tolerance = 1e-9 * lineHeight
        // The first line whose middle ((i + 0.5) * lineHeight) is at or below the box's top.
        let first = Swift.max(0, Int((offset / lineHeight - 0.5 - 1e-9).rounded(.up)))
        return (first..<first + count).map { index in
            let top = Double(index) * lineHeight
            guard index < lines.count, top + lineHeight / 2 < offset + viewportHeight else { return PrompterView.Row(text: "", isCut: false) }
            let cut = top < offset - tolerance || top + lineHeight > offset + viewportHeight + tolerance
            return PrompterView.Row(text: lines[index], isCut: cut)
        }
    }

    /// The most lines that can be half in the box's text area (their middles a line height
    /// apart): at least two, as the box is never smaller.
    public static func rowCount(viewportHeight: Double, lineHeight: Double) -> Int {
        Swift.max(2, Int((viewportHeight / lineHeight - 1e-9).rounded(.up)))
    }

    private func state(at time: Double) -> PrompterView.State {
        if !scroll.isRecording { return .stopped }
        if scroll.isHeld { return .held }
        if settings.ending == .pause && scroll.isAtEnd(at: time) { return .atEnd }
        return .scrolling
    }
}

/// What the terminal shows of the prompter at a moment: the rows of the box, top to bottom,
/// and a header that says how it scrolls.
public struct PrompterView: Sendable, Equatable {
    public enum State: String, Sendable {
        case scrolling, held, stopped
        case atEnd = "at end"
    }

    /// A line of the script as the terminal shows it.
    public struct Row: Sendable, Equatable {
        /// "" for an empty row (past the script's end, or no line half in view).
        public var text: String
        /// The box cuts the line at its top or bottom edge: part of it is out of view.
        public var isCut: Bool

        public init(text: String, isCut: Bool) {
            self.text = text
            self.isCut = isCut
        }
    }

    /// The laid-out lines at least half in view, the top one first, then empty rows.
    public var rows: [Row]
    /// The index of the line at the box's top (cut or not): the place a size change keeps.
    public var firstLine: Int
    /// Lines in the laid-out script.
    public var lineCount: Int
    public var state: State
    /// Points per second, and the font size in points.
    public var speed: Double
    public var fontSize: Double
    /// Points from the top of the script, and the offset that shows its end.
    public var offset: Double
    public var maxOffset: Double
    /// The whole script as laid out, and points from one line's top to the next's: what a
    /// screen that scrolls smoothly (the studio's page) draws, moved up by `offset`.
    public var lines: [String]
    public var lineHeight: Double

    /// How far through the script the scroll is, whole percent (100 when it all fits).
    public var percent: Int {
        maxOffset > 0 ? Int((Swift.min(offset, maxOffset) / maxOffset * 100).rounded(.down)) : 100
    }

    /// "prompter: 24 pt/s 28 pt scrolling  12%".
    public var header: String {
        "prompter: \(ValueSyntax.text(speed)) pt/s \(ValueSyntax.text(fontSize)) pt \(state.rawValue)  \(percent)%"
    }
}
