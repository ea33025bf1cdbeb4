import Testing
import VRenderCore
@testable import VRenderExport

@Suite struct TimelineTests {
    @Test func slotsAndSamplesFollowTheTakes() {
        let timeline = Timeline(durations: [3, 2, 2, 2], frameRate: Rational(30, 1))
        #expect(timeline.takes.map(\.slotCount) == [90, 60, 60, 60])
        #expect(timeline.takes.map(\.firstSlot) == [0, 90, 150, 210])
        #expect(timeline.takes.map(\.sampleCount) == [144_000, 96_000, 96_000, 96_000])
        #expect(timeline.totalSlots == 270)
        #expect(timeline.duration == 9)
    }

    @Test func roundingNeverAccumulates() {
        // 30 takes of 1/7 s at 25 fps: each alone would round to 4 frames (0.16 s, +12%).
        let durations = Array(repeating: 1.0 / 7.0, count: 30)
        let timeline = Timeline(durations: durations, frameRate: Rational(25, 1))
        let exact = durations.reduce(0, +)
        #expect(abs(timeline.duration - exact) <= 0.5 / 25)
    }

    @Test func audioBoundariesSitOnVideoFrameBoundaries() {
        let timeline = Timeline(durations: [1.01, 2.37, 0.5], frameRate: Rational(30000, 1001))
        for take in timeline.takes {
            let frameStart = Double(take.firstSlot) * 1001 / 30000
            #expect(abs(Double(take.firstSample) / 48_000 - frameStart) < 1.0 / 48_000)
        }
        #expect(timeline.totalSamples == Int((Double(timeline.totalSlots) * 48_000 * 1001 / 30000).rounded()))
    }

    @Test func nearestSlotForATime() {
        let timeline = Timeline(durations: [1], frameRate: Rational(30, 1))
        #expect(timeline.slot(forSecondsIntoTake: 0) == 0)
        #expect(timeline.slot(forSecondsIntoTake: 0.04) == 1)     // a 25 fps frame
        #expect(timeline.slot(forSecondsIntoTake: 0.999) == 30)
    }
}

@Suite struct SlotAssignerTests {
    /// Feeds frames at `inputRate` for one second into a 30-slot take; returns slots per frame.
    private func counts(inputRate: Double, frames: Int, slots: Int = 30, firstAt: Double = 0) -> [Int] {
        let timeline = Timeline(durations: [Double(slots) / 30], frameRate: Rational(30, 1))
        var assigner = SlotAssigner(slotCount: slots)
        var result: [Int] = []
        for index in 0..<frames {
            let seconds = firstAt + Double(index) / inputRate
            if let previous = assigner.arrive(slot: timeline.slot(forSecondsIntoTake: seconds)) { result.append(previous.count) }
        }
        if let last = assigner.finish() { result.append(last.count) }
        return result
    }

    @Test func sameRateShowsEachFrameOnce() {
        #expect(counts(inputRate: 30, frames: 30) == Array(repeating: 1, count: 30))
    }

    @Test func slowerInputRepeatsFrames() {
        let result = counts(inputRate: 25, frames: 25)
        #expect(result.reduce(0, +) == 30)
        #expect(result.allSatisfy { $0 == 1 || $0 == 2 })
    }

    @Test func fasterInputDropsFrames() {
        let result = counts(inputRate: 60, frames: 60)
        #expect(result.reduce(0, +) == 30)
        #expect(result.filter { $0 == 0 }.count == 30)
    }

    @Test func aLateFirstFrameStillCoversTheStart() {
        let result = counts(inputRate: 30, frames: 29, firstAt: 1.0 / 30)
        #expect(result.first == 2)
        #expect(result.reduce(0, +) == 30)
    }

    @Test func framesPastTheEndAreTrimmedAndAShortTakeIsHeld() {
        #expect(counts(inputRate: 30, frames: 40).reduce(0, +) == 30)   // longer than its slots
        #expect(counts(inputRate: 30, frames: 20).last == 11)           // last frame held
    }
}
