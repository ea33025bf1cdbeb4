import Testing
@testable import VRenderCapture

/// The V4L2 camera's timing, from the timestamps and sequence numbers a driver gives.
@Suite struct V4L2FrameClockTests {
    /// 30 fps, stamps from an arbitrary epoch (the monotonic clock's seconds).
    static let epoch = 5_000.0

    static func stamp(_ frame: Int) -> Double { epoch + Double(frame) / 30 }

    @Test func timesCountFromTheFirstFrameAndGapsAreDrops() {
        var clock = V4L2FrameClock(frameRate: 30)
        let frames = [(0, 0), (1, 1), (4, 4), (5, 5)].map { clock.frame(timestamp: Self.stamp($0.0), sequence: $0.1) }
        #expect(frames.map(\.droppedBefore) == [0, 0, 2, 0])
        #expect(frames.map(\.sequence) == [0, 1, 4, 5])
        for (frame, info) in zip([0, 1, 4, 5], frames) {
            #expect(abs(info.time - Double(frame) / 30) < 1e-9)
        }
        #expect(clock.droppedFrames == 2)
    }

    @Test func timeNeverRunsBackwards() {
        var clock = V4L2FrameClock(frameRate: 30)
        _ = clock.frame(timestamp: Self.epoch, sequence: 0)
        let late = clock.frame(timestamp: Self.epoch + 0.1, sequence: 1)
        let jumpedBack = clock.frame(timestamp: Self.epoch + 0.05, sequence: 2)
        let after = clock.frame(timestamp: Self.epoch + 0.2, sequence: 3)
        #expect(late.time == jumpedBack.time)
        #expect(abs(after.time - 0.2) < 1e-9)
        #expect(jumpedBack.droppedBefore == 0)
    }

    @Test func afterARestartTheGapIsEstimatedFromTime() {
        var clock = V4L2FrameClock(frameRate: 30)
        _ = clock.frame(timestamp: Self.stamp(0), sequence: 10)
        _ = clock.frame(timestamp: Self.stamp(1), sequence: 11)
        clock.streamRestarted()
        // The driver counts from 0 again; 5 periods later means 4 frames were lost.
        let resumed = clock.frame(timestamp: Self.stamp(6), sequence: 0)
        #expect(resumed.droppedBefore == 4)
        #expect(abs(resumed.time - 6.0 / 30) < 1e-9)
        // Only the first frame after the restart is estimated; then sequence numbers count again.
        #expect(clock.frame(timestamp: Self.stamp(7), sequence: 1).droppedBefore == 0)
        #expect(clock.droppedFrames == 4)
    }

    @Test func aRestartBeforeAnyFrameEstimatesNothing() {
        var clock = V4L2FrameClock(frameRate: 30)
        clock.streamRestarted()
        #expect(clock.frame(timestamp: Self.stamp(9), sequence: 0).droppedBefore == 0)
    }

    @Test func aNewStreamCountsTimeFromItsFirstFrame() {
        var clock = V4L2FrameClock(frameRate: 30)
        _ = clock.frame(timestamp: Self.stamp(0), sequence: 0)
        _ = clock.frame(timestamp: Self.stamp(30), sequence: 30)
        clock.startStream()
        let first = clock.frame(timestamp: Self.stamp(100), sequence: 0)
        #expect(first.time == 0 && first.droppedBefore == 0)
        #expect(clock.observedPeriod == nil)
        #expect(clock.droppedFrames == 29)   // kept over the camera's life
    }

    @Test func theStallTimeoutFollowsTheObservedPeriodAndBacksOff() {
        var clock = V4L2FrameClock(frameRate: 30)
        // Four periods of 1/30 s are under the 200 ms floor.
        #expect(clock.pollTimeoutMilliseconds(afterStalls: 0) == 200)
        #expect(clock.pollTimeoutMilliseconds(afterStalls: 2) == 800)
        #expect(clock.pollTimeoutMilliseconds(afterStalls: 9) == 10_000)   // never more than 10 s
        // A camera that slows to 2 fps in the dark: the period is observed, the wait lengthens.
        for frame in 0..<40 { _ = clock.frame(timestamp: Self.epoch + Double(frame) * 0.5, sequence: frame) }
        #expect(abs((clock.observedPeriod ?? 0) - 0.5) < 1e-6)
        #expect(clock.pollTimeoutMilliseconds(afterStalls: 0) == 2000)
    }

    @Test func oneLateFrameHardlyMovesTheObservedPeriod() {
        var clock = V4L2FrameClock(frameRate: 30)
        for frame in 0..<20 { _ = clock.frame(timestamp: Self.stamp(frame), sequence: frame) }
        // A frame whose sequence skipped 2: its interval is shared by the 3 periods it spans.
        _ = clock.frame(timestamp: Self.stamp(22), sequence: 22)
        #expect(abs((clock.observedPeriod ?? 0) - 1.0 / 30) < 1e-6)
        // A 5 s hole in time without a sequence gap counts at most 2 s, and only a quarter of it.
        _ = clock.frame(timestamp: Self.stamp(22) + 5, sequence: 23)
        #expect(abs((clock.observedPeriod ?? 0) - (0.75 / 30 + 0.25 * 2)) < 1e-6)
    }
}
