/// What takes.json keeps of the prompter during one take (`"prompter"` in its entry), so an
/// export can show what the presenter saw.
///
/// Times are seconds from the moment the take started recording (after its pre-roll), offsets
/// points from the top of the script. `anchors` replays the scroll exactly: every start, hold,
/// resume, speed or size change made a new one (`PrompterScroll.Anchor`).
public struct PrompterTakeRecord: Sendable, Equatable, Codable {
    /// The script's file name, as given to `--prompter`.
    public var script: String
    /// The script's text as shown (`PrompterScript.hash`): which script the take read, whatever
    /// its file's name. Nil in takes.json written before it was kept: the name is all there is.
    public var scriptHash: String?
    /// Offset when the take started recording, and when it stopped.
    public var startOffset: Double
    public var endOffset: Double
    /// Speed (points per second) and font size (points) when the take started.
    public var speed: Double
    public var fontSize: Double
    public var ending: PrompterEnding
    /// The scroll from the take's start on, the first at time 0.
    public var anchors: [PrompterScroll.Anchor]

    public init(script: String, startOffset: Double, endOffset: Double, speed: Double, fontSize: Double,
                ending: PrompterEnding, anchors: [PrompterScroll.Anchor], scriptHash: String? = nil) {
        self.script = script
        self.scriptHash = scriptHash
        self.startOffset = startOffset
        self.endOffset = endOffset
        self.speed = speed
        self.fontSize = fontSize
        self.ending = ending
        self.anchors = anchors
    }
}
