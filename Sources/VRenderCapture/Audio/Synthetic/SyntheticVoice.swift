import Foundation

/// The synthetic microphone's sound as a function of scene time: a voice-like signal (syllables
/// of a few harmonics shaped by two formants) and the clapper's click. Pure: the same seed and
/// time give the same sample.
struct SyntheticVoice: Sendable {
    /// The voice never exceeds −12 dBFS, so a click (−1 dBFS) is the only thing over half scale
    /// and a measuring tool finds its onset by a threshold.
    static let peak = 0.25
    static let clickPeak = 0.891
    static let clickSeconds = 0.003
    static let clickHertz = 3000.0
    /// About four syllables a second: each slot holds one syllable or a pause.
    static let syllableSeconds = 0.25
    static let harmonics = 8

    struct Syllable: Sendable {
        var fundamental: Double
        /// Fraction of the slot the syllable lasts; the rest is silence between syllables.
        var length: Double
        /// Normalized so the weights sum to `peak`: the sum of sines can never pass it.
        var weights: [Double]
    }

    let seed: UInt64

    /// The voice at scene time `time` (seconds), −`peak`...`peak`.
    func voice(at time: Double, cache: inout (slot: Int, syllable: Syllable?)?) -> Double {
        let slot = Int((time / Self.syllableSeconds).rounded(.down))
        if cache?.slot != slot { cache = (slot, syllable(slot)) }
        guard let syllable = cache?.syllable else { return 0 }
        let position = time / Self.syllableSeconds - Double(slot)
        guard position < syllable.length else { return 0 }
        // A raised-sine envelope: no clicks at the syllable's edges.
        let envelope = sin(Double.pi * position / syllable.length)
        var sum = 0.0
        for (index, weight) in syllable.weights.enumerated() {
            sum += weight * sin(2 * Double.pi * Double(index + 1) * syllable.fundamental * time)
        }
        return envelope * envelope * sum
    }

    /// Sample `index` (0 at the onset) of the click: a decaying 3 kHz cosine, so the very first
    /// sample is the loudest and a threshold finds the onset to the sample.
    static func click(sample index: Int, rate: Double) -> Double {
        let decay = clickSeconds * rate / 4
        return clickPeak * exp(-Double(index) / decay) * cos(2 * Double.pi * clickHertz * Double(index) / rate)
    }

    /// Samples a click lasts at `rate`.
    static func clickLength(rate: Double) -> Int { Swift.max(1, Int((clickSeconds * rate).rounded())) }

    private func syllable(_ slot: Int) -> Syllable? {
        var hash = Self.Hash(seed: seed, index: slot)
        // One slot in five is a pause between words.
        guard hash.next() % 5 != 0 else { return nil }
        let fundamental = 120 + 100 * hash.unit()
        let length = 0.6 + 0.3 * hash.unit()
        let formants = (300 + 500 * hash.unit(), 900 + 1300 * hash.unit())
        func bump(_ frequency: Double, _ formant: Double) -> Double {
            let distance = (frequency - formant) / 150
            return 1 / (1 + distance * distance)
        }
        var weights = (1...Self.harmonics).map { harmonic -> Double in
            let frequency = Double(harmonic) * fundamental
            return 1 / Double(harmonic) + 1.5 * bump(frequency, formants.0) + bump(frequency, formants.1)
        }
        let total = weights.reduce(0, +)
        weights = weights.map { $0 / total * Self.peak }
        return Syllable(fundamental: fundamental, length: length, weights: weights)
    }

    /// SplitMix64 over (seed, index): cheap, well mixed, and the same everywhere.
    struct Hash {
        private var state: UInt64

        init(seed: UInt64, index: Int) {
            state = seed &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(bitPattern: Int64(index)) &* 0xBF58_476D_1CE4_E5B9
        }

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var value = state
            value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
            value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
            return value ^ (value >> 31)
        }

        /// Uniform in 0..<1 (53 bits).
        mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
    }
}
