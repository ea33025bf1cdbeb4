/// What the synthetic presenter said during one take (`"presenter"` in its takes.json entry):
/// the true time of every word it spoke, from the synthesizer's own word events. It is the
/// ground truth caption alignment is measured against; a human presenter leaves none.
///
/// Times are seconds from the moment the take started recording (after its pre-roll), as the
/// prompter's anchors are.
public struct PresenterTakeRecord: Sendable, Equatable, Codable {
    public struct Word: Sendable, Equatable, Codable {
        /// The script's word (`ScriptWords`), from 0.
        public var word: Int
        public var text: String
        /// When its sound begins (its word event) and ends (`SpokenPhrase.Word.end`).
        public var start: Double
        public var end: Double
        /// Spoken in a reading the presenter broke off and started again (`flub`): a retake
        /// cut removes it. Absent when false.
        public var flubbed: Bool?

        public init(word: Int, text: String, start: Double, end: Double, flubbed: Bool = false) {
            self.word = word
            self.text = text
            self.start = start
            self.end = end
            self.flubbed = flubbed ? true : nil
        }

        public var isFlubbed: Bool { flubbed == true }
    }

    /// The espeak-ng voice (`en`, `de`).
    public var voice: String
    /// In the order spoken.
    public var words: [Word]
    /// The script's words the presenter passed over (`skip`), in script order.
    public var skipped: [Int]

    public init(voice: String, words: [Word], skipped: [Int]) {
        self.voice = voice
        self.words = words
        self.skipped = skipped
    }
}
