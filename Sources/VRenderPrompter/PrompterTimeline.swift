import VRenderImaging

/// The prompter's scroll over an export's takes: where it is at each moment of each take.
///
/// Scrolling follows each take's recording time: it stands still through the take's pre-roll,
/// scrolls while the take records and resumes on the next take where the last one left it, as
/// it did for the presenter. A take recorded with `--prompter` replays its recorded anchors
/// (speed changes, holds, size changes included); the others scroll with the export's settings.
package struct PrompterTimeline: Sendable {
    /// One take, as the export sees it.
    package struct Take: Sendable {
        /// Seconds of pre-roll before the take started recording.
        package var preroll: Double
        /// Seconds the take lasts in the export.
        package var duration: Double
        /// What takes.json recorded of the prompter during the take, if anything.
        package var record: PrompterTakeRecord?

        package init(preroll: Double, duration: Double, record: PrompterTakeRecord?) {
            self.preroll = preroll
            self.duration = duration
            self.record = record
        }
    }

    /// Where the scroll is on a frame: the offset (points) and the font size it is laid out at.
    package struct Position: Sendable, Equatable {
        package var offset: Double
        package var fontSize: Double

        package init(offset: Double, fontSize: Double) {
            self.offset = offset
            self.fontSize = fontSize
        }
    }

    private let takes: [Take]
    private let settings: PrompterSettings
    /// The scroll's end for a font size (the layout's content less the viewport), points.
    private let maxOffset: @Sendable (Double) -> Double
    /// Each take's anchors, times from the take's recording start.
    private let anchors: [[PrompterScroll.Anchor]]
    private let endings: [PrompterEnding]

    package init(takes: [Take], settings: PrompterSettings, maxOffset: @escaping @Sendable (Double) -> Double) {
        self.takes = takes
        self.settings = settings
        self.maxOffset = maxOffset
        var anchors: [[PrompterScroll.Anchor]] = []
        var endings: [PrompterEnding] = []
        var carried = PrompterScroll.Anchor(time: 0, offset: 0, speed: settings.speed, running: false,
                                            fontSize: settings.fontSize)
        for take in takes {
            let ending = take.record?.ending ?? settings.ending
            // A recorded take starts where it was recorded to start; the others where the
            // previous take left the scroll, with the export's speed and size.
            let takeAnchors = take.record?.anchors.isEmpty == false ? take.record!.anchors
                : [PrompterScroll.Anchor(time: 0, offset: carried.offset, speed: settings.speed, running: true,
                                         fontSize: settings.fontSize)]
            anchors.append(takeAnchors)
            endings.append(ending)
            let last = takeAnchors[takeAnchors.count - 1]
            let recordedLength = Swift.max(0, take.duration - take.preroll)
            carried.offset = PrompterScroll.offset(from: last, at: recordedLength, maxOffset: maxOffset(last.fontSize),
                                                   ending: ending)
        }
        self.anchors = anchors
        self.endings = endings
    }

    /// Where the scroll is `seconds` into take `take` (from the take's first frame, pre-roll
    /// included).
    package func position(take: Int, seconds: Double) -> Position {
        let recording = seconds - takes[take].preroll
        let takeAnchors = anchors[take]
        var anchor = takeAnchors[0]
        for next in takeAnchors.dropFirst() where next.time <= recording { anchor = next }
        if recording < anchor.time { anchor.running = false }  // the pre-roll: not yet scrolling
        let offset = PrompterScroll.offset(from: anchor, at: recording, maxOffset: maxOffset(anchor.fontSize),
                                           ending: endings[take])
        return Position(offset: offset, fontSize: anchor.fontSize)
    }
}

/// A script laid out for the prompter, in points: what the terminal shows and the scroll
/// model scrolls through. Made from a FreeType layout at the picture's scale
/// (`PrompterGeometry`), so the terminal's lines are the overlay's lines.
public struct PrompterText: Sendable, Equatable {
    /// The script's lines as wrapped to the box's width.
    public var lines: [String]
    /// Points from one line's top to the next's (font height plus the 4-point spacing).
    public var lineHeight: Double
    /// The scroll's content height, points: the text and, below it, room for the bottom fade,
    /// so that at the end the last line rests above the fade, readable.
    public var contentHeight: Double
    /// Where in the script each line begins (`TextLayout.Line.sourceStart`): the same words
    /// have the same number at every font size.
    public var lineStarts: [Int]

    /// `lineStarts` nil: counted from the lines themselves (their characters other than
    /// spaces), for layouts that keep no line feeds.
    public init(lines: [String], lineHeight: Double, contentHeight: Double, lineStarts: [Int]? = nil) {
        self.lines = lines
        self.lineHeight = lineHeight
        self.contentHeight = contentHeight
        var position = 0
        self.lineStarts = lineStarts ?? lines.map { line in
            defer { position += TextLayout.placeCount(line) }
            return position
        }
    }

    /// A place in the script as the box shows it: the script position where the line at the
    /// box's top begins, and how far into that line (0 to 1) the box has scrolled.
    public struct Place: Sendable, Equatable {
        public var start: Int
        public var into: Double
    }

    /// Where the box is at `offset` in this layout (nil without lines).
    public func place(at offset: Double) -> Place? {
        guard !lines.isEmpty, lineHeight > 0, lineStarts.count == lines.count else { return nil }
        let position = Swift.max(0, offset) / lineHeight
        let index = Swift.min(lines.count - 1, Int(position.rounded(.down)))
        return Place(start: lineStarts[index], into: Swift.min(1, position - Double(index)))
    }

    /// The offset that puts at the box's top the line of this layout holding `place`'s
    /// position, as far into it: the presenter's place, kept in words, not in points.
    public func offset(showing place: Place) -> Double {
        // The last line that starts at or before the place holds it.
        let line = lineStarts.lastIndex { $0 <= place.start } ?? 0
        return (Double(line) + place.into) * lineHeight
    }
}
