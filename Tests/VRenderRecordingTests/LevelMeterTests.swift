import Testing
@testable import VRenderRecording

/// The status line's meter: the peak of the last second or so, and CLIP only for two seconds
/// after the device delivered a sample at full scale.
@Suite struct LevelMeterTests {
    func add(_ meter: inout LevelMeter, _ value: Float, count: Int = 960, clipped: Bool = false) {
        let samples = [Float](repeating: value, count: count)
        samples.withUnsafeBufferPointer { meter.add($0[...], clipped: clipped) }
    }

    /// A device that never clipped read CLIP from its first period on: the count of samples
    /// since a clip started at Int.max and wrapped negative when added to.
    @Test func aDeviceThatNeverClipsIsNeverClipping() {
        var meter = LevelMeter()
        for _ in 0..<500 { add(&meter, 0.891) }
        #expect(!meter.clippedRecently)
        #expect(abs(LevelMeter.decibels(meter.peak) + 1.0) < 0.01)
    }

    @Test func aClipShowsForFourWindowsThenGoes() {
        var meter = LevelMeter()
        add(&meter, 1, clipped: true)
        #expect(meter.clippedRecently)
        // Four windows of 48,000 interleaved samples (two seconds of 48 kHz stereo): 200 periods.
        for _ in 0..<199 { add(&meter, 0.1) }
        #expect(meter.clippedRecently)
        add(&meter, 0.1)
        #expect(!meter.clippedRecently)
    }
}
