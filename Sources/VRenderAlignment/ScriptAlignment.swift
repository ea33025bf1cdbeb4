import VRenderCore
import VRenderPrompter

/// Where each word of a script was said in one take: the result of `ScriptAligner.align`.
public struct ScriptAlignment: Sendable, Equatable {
    public struct Word: Sendable, Equatable {
        /// The script's word (`ScriptWords`).
        public var word: Int
        /// Seconds from the take's first picture.
        public var start: Double
        public var end: Double
        /// 1 for a line that matched the script's reading as well as a synthetic voice can,
        /// falling to 0 at the cost past which a line counts as unread.
        public var confidence: Double
    }

    /// A stretch of the script aligned as one: a prompter line (or, without a prompter, a
    /// piece of a paragraph).
    public struct Line: Sendable, Equatable {
        public var words: Range<Int>
        /// Where it was said (nil: never read in this take).
        public var start: Double?
        public var end: Double?
        /// The mean feature distance along the match (lower is better).
        public var cost: Double
        /// The cost against the window's typical one (`SubsequenceMatch.contrast`).
        public var contrast: Double = 1
    }

    /// The words of the lines read, in script order.
    public var words: [Word]
    /// Every line the take could have read, in script order.
    public var lines: [Line]
    /// Lines begun, broken off and read again, in the take's order.
    public var retakes: [Retake] = []

    /// Lines looked for and not found.
    public var unread: [Line] { lines.filter { $0.start == nil } }
}
