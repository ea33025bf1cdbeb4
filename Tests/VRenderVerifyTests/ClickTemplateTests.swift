import Foundation
import Testing
@testable import VRenderVerify

/// The matched click of `vrender sync` on made-up sound: a click is found at its onset, to the
/// sample, at any level and over a louder voice; noise as loud as a levelled sibilant, and a
/// steady 3 kHz tone, are not clicks.
@Suite struct ClickTemplateTests {
    /// The synthetic microphone's click (`SyntheticVoice`): a 3 kHz cosine at 48 kHz decaying
    /// by e every 0.75 ms, 3 ms long, its first sample the loudest.
    static func click(amplitude: Double, at onset: Int, into samples: inout [Float]) {
        for index in 0..<144 where onset + index < samples.count {
            samples[onset + index] += Float(amplitude * exp(-Double(index) / 36) * cos(2 * Double.pi * 3000 * Double(index) / 48_000))
        }
    }

    /// A deterministic noise, uniform in ±`amplitude`.
    static func noise(count: Int, amplitude: Float, seed: UInt64) -> [Float] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return amplitude * (Float(state >> 40) / Float(1 << 24) * 2 - 1)
        }
    }

    @Test(arguments: [0.891, 0.02, 0.0003])
    func aClickIsFoundAtItsOnsetAtAnyLevel(amplitude: Double) throws {
        var samples = [Float](repeating: 0, count: 1_000)
        // A voice a quarter as loud: two low harmonics, as the synthetic voice's formants.
        for index in samples.indices {
            let time = Double(index) / 48_000
            samples[index] = Float(amplitude / 4 * (sin(2 * Double.pi * 180 * time) + sin(2 * Double.pi * 700 * time)) / 2)
        }
        Self.click(amplitude: amplitude, at: 437, into: &samples)
        let found = try #require(ClickTemplate.best(onsets: 400..<448, in: samples, from: 0))
        #expect(found.onset == 437)
        #expect(abs(Double(found.amplitude) / amplitude - 1) < 0.15, "amplitude \(found.amplitude) for \(amplitude)")
        // Shifted by a base: the same onset on the file's count.
        #expect(ClickTemplate.best(onsets: 10_400..<10_448, in: samples, from: 10_000)?.onset == 10_437)
    }

    @Test func noiseAndASteadyToneAreNotClicks() {
        let hiss = Self.noise(count: 1_000, amplitude: 0.9, seed: 7)
        #expect(ClickTemplate.best(onsets: 0..<800, in: hiss, from: 0) == nil)
        let tone = (0..<1_000).map { Float(0.5 * sin(2 * Double.pi * 3000 * Double($0) / 48_000)) }
        #expect(ClickTemplate.best(onsets: 0..<800, in: tone, from: 0) == nil)
        #expect(ClickTemplate.best(onsets: 0..<800, in: [Float](repeating: 0, count: 1_000), from: 0) == nil)
    }
}
