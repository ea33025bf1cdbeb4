import Foundation
import VRenderCore
import VRenderMedia

/// The sound side of `vrender sync`: a file's first audio track mixed to mono at 48 kHz, placed
/// by its timestamps as a player places it (`MonoSound`), summed up in 1 ms windows small
/// enough to keep for an hour of sound (16 bytes a window).
///
/// A clapper click is a 3 kHz cosine decaying over 0.75 ms whose first sample is its loudest.
/// Each window keeps its loudest sample (`peak`, for silence) and the click that best matches
/// the click's own shape from an onset in it (`ClickTemplate`: its amplitude in `match`, its
/// onset in `matchAt`; none where the shape does not fit). Matching the shape, not a level,
/// finds clicks whatever gain levelling gave the file (`concat --loudness` raises or lowers it,
/// and its limiter squeezes click and voice alike) and keeps a sibilant of synthetic speech,
/// as loud at 3 kHz as a click once levelled, from passing for one. The template is tried only
/// where the 3 kHz band over the next 2 ms reaches a fifth of the loudest band so far.
struct SyncSound {
    static let rate = 48_000
    static let windowSamples = 48
    /// The band's window: 2 ms, a whole number of 3 kHz periods (16 samples each).
    static let bandSamples = 96
    static let period = 16
    static let gate: Float = 0.2

    /// Seconds on the file's clock of sample 0.
    let origin: Double
    /// The loudest sample of each window.
    private(set) var peak: [Float] = []
    /// The amplitude of the best-fitting click with its onset in each window (0: none), and its onset.
    private(set) var match: [Float] = []
    private(set) var matchAt: [Int] = []

    /// Reads audio stream `stream` of `path` from `origin` seconds on the file's clock.
    static func read(path: String, stream: Int, from origin: Double) throws -> SyncSound {
        var sound = SyncSound(origin: origin)
        var state = ReadState()
        try VRenderError.attributing(to: path, as: .input) {
            try MonoSound.read(path: path, stream: stream, from: origin, rate: rate, block: windowSamples) { window in
                sound.append(window, state: &state)
            }
        }
        sound.finish(state: &state)
        return sound
    }

    /// Seconds on the file's clock of sample `index`.
    func time(ofSample index: Int) -> Double { origin + Double(index) / Double(Self.rate) }

    /// The window holding the instant `seconds` on the file's clock (may lie outside the sound).
    func window(at seconds: Double) -> Int { Int(((seconds - origin) * 1000).rounded(.down)) }

    /// The band's running sums, the band of the last windows, and the recent samples.
    private struct ReadState {
        var real = 0.0, imaginary = 0.0
        var position = 0
        /// Samples from `recentStart` on: the last few windows, for the template.
        var recent: [Float] = []
        var recentStart = 0
        var bands: [Float] = []
        var loudestBand: Float = 0
        static let cosines = (0..<SyncSound.period).map { cos(2 * Double.pi * Double($0) / Double(SyncSound.period)) }
        static let sines = (0..<SyncSound.period).map { sin(2 * Double.pi * Double($0) / Double(SyncSound.period)) }

        func sample(_ index: Int) -> Float {
            index >= recentStart && index < recentStart + recent.count ? recent[index - recentStart] : 0
        }
    }

    private mutating func append(_ window: UnsafeBufferPointer<Float>, state: inout ReadState) {
        var bandMax: Float = 0, peakMax: Float = 0
        for sample in window {
            let phase = state.position % Self.period
            // The sample leaving the band's window had the same phase (96 is a multiple of 16).
            let change = Double(sample - state.sample(state.position - Self.bandSamples))
            state.recent.append(sample)
            state.real += change * ReadState.cosines[phase]
            state.imaginary -= change * ReadState.sines[phase]
            let amplitude = 2 * (state.real * state.real + state.imaginary * state.imaginary).squareRoot() / Double(Self.bandSamples)
            bandMax = max(bandMax, Float(amplitude))
            peakMax = max(peakMax, abs(sample))
            state.position += 1
        }
        peak.append(peakMax)
        state.bands.append(bandMax)
        state.loudestBand = max(state.loudestBand, bandMax)
        // The window 3 ms back has its onsets' whole template (2 ms) in hand now.
        if peak.count > 3 { matchWindow(peak.count - 4, state: &state) }
        if state.recent.count > 8 * Self.windowSamples {
            let drop = state.recent.count - 6 * Self.windowSamples
            state.recent.removeFirst(drop)
            state.recentStart += drop
        }
        if state.bands.count > 8 { state.bands.removeFirst(state.bands.count - 8) }
    }

    /// The best click from an onset in window `index`, if the band after it is loud enough.
    private mutating func matchWindow(_ index: Int, state: inout ReadState) {
        let following = state.bands.suffix(peak.count - index).max() ?? 0
        let start = index * Self.windowSamples
        var found: (amplitude: Float, onset: Int)?
        if following > Self.gate * state.loudestBand, following > SyncSound.floor {
            found = ClickTemplate.best(onsets: start..<(start + Self.windowSamples), in: state.recent, from: state.recentStart)
        }
        match.append(found?.amplitude ?? 0)
        matchAt.append(found?.onset ?? start)
    }

    /// The last windows, whose templates run past the end of the sound (silence there).
    private mutating func finish(state: inout ReadState) {
        while match.count < peak.count { matchWindow(match.count, state: &state) }
    }
}
