import VRenderCore
import VRenderMedia

/// A take's speech features as the alignment walks through it, in memory of a few seconds
/// whatever the take's length: a thread of its own decodes the sound and turns it into
/// features, a second at a time, into a short queue; the aligner takes what it needs as it
/// needs it (`load`) and lets go of what lies behind it (`forget`). Frames are numbered from
/// the take's first picture, as `SpeechFeatures.time(ofFrame:)` counts them.
///
/// Used from one thread (the aligner's); only the queue is shared with the decoding thread.
final class TakeSound {
    /// Frames per piece handed over (one second).
    static let pieceFrames = 100
    /// Pieces decoded ahead at most.
    static let piecesAhead = 4
    /// Frames let go of in one go at least (removing from an array's front moves the rest).
    static let forgetAtLeast = 3_000

    private let pieces = BoundedQueue<SpeechFeatures>(capacity: TakeSound.piecesAhead)
    private let decoding = StageGroup()
    /// The frames held: from `first` on.
    private var held = SpeechFeatures()
    private var first = 0
    /// Frames whose clicks were removed (`SpeechFeatures.removeClicks`), from 0.
    private var declicked = 0
    /// Whether every frame of the take has been loaded.
    private(set) var ended = false

    init(_ take: AlignmentTake) {
        let pieces = self.pieces
        decoding.onCancel { pieces.cancel() }
        decoding.start("vrender-align-sound") {
            let extractor = try FeatureExtractor()
            try MonoSound.read(path: take.path, stream: take.audioStream, from: take.origin, rate: SpeechFeatures.rate,
                               block: SpeechFeatures.rate / 10) { block in
                extractor.append(block)
                if extractor.features.frameCount >= Self.pieceFrames, !pieces.push(extractor.takeFeatures()) {
                    throw VRenderError.cancelled
                }
            }
            extractor.finish()
            if extractor.features.frameCount > 0 { pieces.push(extractor.takeFeatures()) }
            pieces.finish()
        }
    }

    /// A sound whose features are all there already (a test's).
    init(loaded features: SpeechFeatures) {
        held = features
        ended = true
        declicked = features.frameCount
    }

    deinit {
        // An alignment done (or failed) before the take's end stops the decoding.
        decoding.cancel()
        try? decoding.wait()
    }

    /// Frames held now (what memory the sound takes).
    var heldFrames: Int { held.frameCount }

    /// The frame after the last one loaded.
    var loadedEnd: Int { first + held.frameCount }

    /// Loads frames up to `end` (or to the take's end): the end of what is loaded then, at most
    /// `end`. Throws what decoding the take's sound threw.
    @discardableResult
    func load(upTo end: Int) throws -> Int {
        while !ended, loadedEnd < end {
            guard let piece = pieces.pop() else {
                try decoding.wait()   // the decoding's error, if it failed
                ended = true
                break
            }
            held.append(piece)
        }
        // Clicks are found with `clickReach` frames on either side: those before the end wait.
        let ready = ended ? loadedEnd : loadedEnd - SpeechFeatures.clickReach
        if ready > declicked {
            held.removeClicks(in: (declicked - first)..<(ready - first))
            declicked = ready
        }
        return Swift.min(end, loadedEnd)
    }

    /// `frames` less what lies past the take's end (loading up to its end).
    func clamped(_ frames: Range<Int>) throws -> Range<Int> {
        let end = try load(upTo: frames.upperBound)
        let start = Swift.min(Swift.max(frames.lowerBound, first), end)
        return start..<end
    }

    /// Whether the take ends before frame `frame` (loading up to it to know).
    func ends(before frame: Int) throws -> Bool {
        try load(upTo: frame) < frame
    }

    /// The take's end in seconds when it comes before `time`, else nil.
    func end(before time: Double) throws -> Double? {
        try ends(before: SpeechFeatures.frame(at: time)) ? SpeechFeatures.time(ofFrame: loadedEnd) : nil
    }

    /// The features of `frames` (loaded and not forgotten: `clamped` gives such a range).
    func values(_ frames: Range<Int>) -> ArraySlice<Float> {
        held.values[(frames.lowerBound - first) * SpeechFeatures.count..<(frames.upperBound - first) * SpeechFeatures.count]
    }

    /// The loudness of `frames` (as `values`).
    func loudness(_ frames: Range<Int>) -> ArraySlice<Float> {
        held.loudness[(frames.lowerBound - first)..<(frames.upperBound - first)]
    }

    /// Lets go of the frames before `frame`: nothing looks there any more. (The frames a click
    /// may still be found next to are kept: they are its neighbours.)
    func forget(before frame: Int) {
        let count = Swift.min(frame, declicked - SpeechFeatures.clickReach) - first
        guard count >= Self.forgetAtLeast else { return }
        held.removeFirst(count)
        first += count
    }
}
