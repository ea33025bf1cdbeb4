import Testing
import VRenderCapture
@testable import VRenderRecording

@Suite struct FrameRingTests {
    private func info(_ index: Int) -> CapturedFrameInfo { CapturedFrameInfo(time: Double(index) / 30, sequence: index) }

    @Test func liveCaptureNeverWaitsAndCountsDrops() throws {
        // Nobody drains the ring: a live source still gets a slot every time.
        let ring = try FrameRing(slotCount: 4, width: 16, height: 16, live: true, prerollFrames: 0)
        ring.beginTake(0, prerollSince: 0)
        for index in 0..<10 {
            let slot = try #require(ring.acquire())
            ring.commit(slot: slot, info: info(index), take: 0)
        }
        #expect(ring.dropped(take: 0) == 6)
        ring.endTake(0)
        ring.finish()
        var kept: [Int] = []
        while let item = ring.next() {
            if case .frame(let entry) = item {
                kept.append(entry.info.sequence)
                ring.release(entry.slot)
            }
        }
        #expect(kept == [6, 7, 8, 9])   // the newest survive, in order
    }

    @Test func prerollKeepsTheNewestFramesAndTakesThemIntoTheTake() throws {
        let ring = try FrameRing(slotCount: 8, width: 16, height: 16, live: false, prerollFrames: 3)
        for index in 0..<6 {   // idle: no take recording
            let slot = try #require(ring.acquire())
            ring.commit(slot: slot, info: info(index), take: nil)
        }
        let preroll = ring.beginTake(0, prerollSince: 4.0 / 30)
        #expect(preroll == 2)   // frames 4 and 5: within the pre-roll window and retained
        ring.endTake(0)
        ring.finish()
        var sequences: [Int] = []
        while let item = ring.next() {
            if case .frame(let entry) = item {
                sequences.append(entry.info.sequence)
                ring.release(entry.slot)
            }
        }
        #expect(sequences == [4, 5])
        #expect(ring.dropped(take: 0) == 0)
    }

    @Test func cancelReleasesAWaitingProducer() throws {
        let ring = try FrameRing(slotCount: 2, width: 16, height: 16, live: false, prerollFrames: 0)
        ring.beginTake(0, prerollSince: 0)
        for index in 0..<2 { ring.commit(slot: try #require(ring.acquire()), info: info(index), take: 0) }
        ring.cancel()
        #expect(ring.acquire() == nil)
        #expect(ring.next() == nil)
    }
}

extension FrameRing.Item: Equatable {
    public static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case let (.takeEnded(a), .takeEnded(b)): a == b
        case let (.frame(a), .frame(b)): a.slot == b.slot && a.info == b.info && a.take == b.take
        default: false
        }
    }
}
