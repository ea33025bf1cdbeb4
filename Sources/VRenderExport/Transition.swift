import Foundation
import VRenderCore

/// `vrender concat --transition`: what happens at each join between consecutive takes.
public enum Transition: Sendable, Equatable {
    /// A hard cut (today's behaviour, the default).
    case cut
    /// A cross-dissolve of the pictures and a linear cross-fade of the sound (gains adding up to one): the takes
    /// overlap by this many seconds (rounded to whole output frames), so the output is shorter.
    case fade(seconds: Double)
    /// The outgoing take fades to black and silence over half this time, the incoming one fades
    /// back in over the other half; nothing overlaps, so the length is unchanged.
    case dip(seconds: Double)

    /// The three kinds as `--transition` names them.
    static let kinds = ["cut", "fade", "dip"]

    /// Other names people give the three kinds (editors' words; ffmpeg's xfade).
    static let aliases: [String: String] = [
        "none": "cut", "hard": "cut", "dissolve": "fade", "crossfade": "fade", "cross-dissolve": "fade",
        "xfade": "fade", "mix": "fade", "black": "dip", "dip-to-black": "dip", "fadeblack": "dip",
    ]

    /// Parses `cut`, `fade:T` or `dip:T` (T a time as `ValueSyntax.seconds` reads it — `0.5`,
    /// `0.5s`, `500ms` — more than 0 and at most 10 s), with the aliases above for the names.
    public init(parsing text: String) throws {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let typed = parts[0].lowercased()
        let kind = Self.aliases[typed] ?? typed
        let seconds = parts.count == 2 ? ValueSyntax.seconds(parts[1]) : nil
        switch (kind, seconds) {
        case ("cut", _) where parts.count == 1: self = .cut
        case ("fade", let seconds?) where seconds > 0 && seconds <= 10: self = .fade(seconds: seconds)
        case ("dip", let seconds?) where seconds > 0 && seconds <= 10: self = .dip(seconds: seconds)
        default: throw Self.refusal(text, kind: kind, hasTime: parts.count == 2)
        }
    }

    private static func refusal(_ text: String, kind: String, hasTime: Bool) -> VRenderError {
        var message = "'\(text)' is not cut, fade:TIME or dip:TIME with TIME above 0 and at most 10 s "
            + "(e.g. fade:0.5, fade:500ms; dissolve means fade)"
        if (kind == "fade" || kind == "dip") && !hasTime {
            message += "; give \(kind) a length: \(kind):0.5"
        } else if !kinds.contains(kind) {
            message = Suggestion.appended(to: message, typed: kind, among: kinds + aliases.keys.sorted())
        }
        return VRenderError.option("--transition", message)
    }

    /// The option as it parses back (`init(parsing:)`), for chunk plans.
    public var specification: String {
        switch self {
        case .cut: return "cut"
        case .fade(let seconds): return "fade:\(seconds)"
        case .dip(let seconds): return "dip:\(seconds)"
        }
    }
}

/// The transitions of one export, in output frames: what the timeline, the pictures and the
/// sound do at each join. Also the `--json` summary's `transition` field. Transitions happen
/// only between takes: the joins between pieces of one take (`--cut-pauses`, `--cut-retakes`)
/// are cuts (`joinFrames` 0 there).
public struct TransitionPlan: Sendable, Equatable, Codable {
    public enum Kind: String, Sendable, Codable { case fade, dip }
    public var kind: Kind
    /// Frames each side of a join is treated over: the overlap (fade), or each half (dip).
    public var frames: Int
    /// Seconds the transition lasts after rounding to frames (fade: the overlap; dip: both halves).
    public var seconds: Double
    /// Joins between takes, where the transition happens (pieces of one take are not counted).
    public var joins: Int
    /// Seconds the output is longer than the takes end to end (negative: shorter).
    public var lengthChange: Double
    /// `frames` at each join between consecutive timeline pieces (join i: after piece i), 0
    /// where the pieces are of one take. Not in `--json`.
    package var joinFrames: [Int] = []

    private enum CodingKeys: String, CodingKey { case kind, frames, seconds, joins, lengthChange }

    /// The plan for `transition` between `takes` whose timeline without transitions is `cuts`;
    /// nil for cuts or a single take. A take shorter than its transitions need is refused,
    /// named: shortening the transition for one take would make the joins uneven.
    static func make(_ transition: Transition, cuts: Timeline, paths: [String]) throws -> TransitionPlan? {
        let rate = cuts.frameRate.doubleValue
        let joins = cuts.takeJoins
        var plan: TransitionPlan
        switch transition {
        case .cut:
            return nil
        case _ where joins == 0:
            return nil
        case .fade(let seconds):
            let frames = Int((seconds * rate).rounded())
            plan = TransitionPlan(kind: .fade, frames: frames, seconds: Double(frames) / rate, joins: joins,
                                  lengthChange: -Double(frames * joins) / rate)
        case .dip(let seconds):
            let frames = Int((seconds * rate / 2).rounded())
            plan = TransitionPlan(kind: .dip, frames: frames, seconds: Double(2 * frames) / rate, joins: joins, lengthChange: 0)
        }
        plan.joinFrames = cuts.takes.dropFirst().map { $0.continuesTake ? 0 : plan.frames }
        guard plan.frames > 0 else {
            let needed = plan.kind == .fade ? "one frame" : "two frames (one to black, one back)"
            throw VRenderError.option("--transition", "\(transition.specification) s is shorter than \(needed) at "
                                      + "\(CopyCompatibility.fps(cuts.frameRate)) fps")
        }
        for (index, take) in cuts.takes.enumerated() {
            let sides = (plan.headFrames(ofTake: index) > 0 ? 1 : 0) + (plan.tailFrames(ofTake: index) > 0 ? 1 : 0)
            if take.slotCount < sides * plan.frames {
                let lasts = String(format: "%.2f", Double(take.slotCount) / rate)
                throw VRenderError.option("--transition", "\(paths[index]) lasts \(lasts) s (\(take.slotCount) frames), "
                                          + "shorter than the \(sides * plan.frames) frames its \(sides == 2 ? "two transitions need" : "transition needs"): "
                                          + "use a shorter \(plan.kind.rawValue) or leave the take out")
            }
        }
        return plan
    }

    /// Frames of timeline piece `index`'s start in the transition from the piece before (0: a cut).
    func headFrames(ofTake index: Int) -> Int {
        index > 0 && index - 1 < joinFrames.count ? joinFrames[index - 1] : 0
    }

    /// Frames of timeline piece `index`'s end in the transition to the next piece (0: a cut).
    func tailFrames(ofTake index: Int) -> Int {
        index < joinFrames.count ? joinFrames[index] : 0
    }

    /// The overlap the timeline gets (fades only).
    var overlapSlots: Int { kind == .fade ? frames : 0 }

    /// The plan line's text: "fade 0.50 s at 3 joins, -1.50 s".
    public var description: String {
        let joinsText = "\(joins) join\(joins == 1 ? "" : "s")"
        switch kind {
        case .fade:
            return String(format: "fade %.2f s at %@, %+.2f s",
                          seconds, joinsText, lengthChange)
        case .dip:
            return String(format: "dip %.2f s at %@, %+.2f s (%d frames to black and silence, %d back; no overlap)",
                          seconds, joinsText, lengthChange, frames, frames)
        }
    }

    // MARK: - Weights, one home for the pictures' and the sound's

    /// The incoming take's weight in overlap frame `index` (0..<frames) of a dissolve:
    /// (index+1)/(frames+1), so neither take is ever shown alone inside the overlap and an odd
    /// overlap's middle frame is the exact average.
    func dissolveWeight(_ index: Int) -> Double {
        Double(index + 1) / Double(frames + 1)
    }

    /// The brightness of frame `index` (0..<frames) of a dip's fade-out: (frames-1-index)/frames,
    /// so the outgoing take's last frame is black; the fade-in mirrors it ((index+1)/frames).
    func dipOutGain(_ index: Int) -> Double {
        Double(frames - 1 - index) / Double(frames)
    }

    func dipInGain(_ index: Int) -> Double {
        Double(index + 1) / Double(frames)
    }
}
