import Testing
import VRenderCapture
import VRenderCore
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

    @Test func aLiveRingGrowsToItsLimitBeforeItDrops() throws {
        // A writer that stalls (an encoder opening, the codecs being measured): nothing drained.
        let ring = try FrameRing(slotCount: 4, maxSlotCount: 6, width: 16, height: 16, live: true, prerollFrames: 0)
        ring.beginTake(0, prerollSince: 0)
        for index in 0..<6 {
            ring.commit(slot: try #require(ring.acquire()), info: info(index), take: 0)
        }
        #expect(ring.slotCount == 6)
        #expect(ring.dropped(take: 0) == 0)
        for index in 6..<9 { ring.commit(slot: try #require(ring.acquire()), info: info(index), take: 0) }
        #expect(ring.slotCount == 6)          // at the limit: the oldest frames give way
        #expect(ring.dropped(take: 0) == 3)
        ring.endTake(0)
        ring.finish()
        var kept: [Int] = []
        var frames = Set<ObjectIdentifier>()
        while let item = ring.next() {
            if case .frame(let entry) = item {
                kept.append(entry.info.sequence)
                frames.insert(ObjectIdentifier(ring.frame(entry.slot)))
                ring.release(entry.slot)
            }
        }
        #expect(kept == [3, 4, 5, 6, 7, 8])
        #expect(frames.count == 6)            // every slot its own frame
    }

    @Test func aBatchRingNeverGrowsItWaits() throws {
        let ring = try FrameRing(slotCount: 2, maxSlotCount: 10, width: 16, height: 16, live: false, prerollFrames: 0)
        #expect(ring.maxSlotCount == 2)
    }

    @Test func ringSizesFollowTheRateTheFrameSizeAndTheMachinesMemory() {
        func format(_ width: Int, _ height: Int, _ fps: Int) -> NegotiatedFormat {
            NegotiatedFormat(pixelFormat: .yuv420p, width: width, height: height, frameRate: Rational(fps, 1), reason: "")
        }
        let gigabyte = 1 << 30
        // Half a second to start with; five seconds more to grow into.
        #expect(RingSizing(format: format(640, 480, 25), prerollFrames: 0, physicalMemory: 16 * gigabyte)
                == RingSizing(initialSlots: 13, maxSlots: 13 + 125))
        // 1080p: 256 MiB of growth at most (86 frames of 3.1 MB), after a second of pre-roll.
        #expect(RingSizing(format: format(1920, 1080, 30), prerollFrames: 30, physicalMemory: 16 * gigabyte)
                == RingSizing(initialSlots: 45, maxSlots: 45 + 86))
        // A 1 GiB VM: an eighth of its memory, 97 frames of 720p.
        #expect(RingSizing(format: format(1280, 720, 60), prerollFrames: 0, physicalMemory: gigabyte)
                == RingSizing(initialSlots: 30, maxSlots: 30 + 97))
        // No memory figure: no growth, never fewer than 8 slots.
        #expect(RingSizing(format: format(320, 240, 5), prerollFrames: 0, physicalMemory: 0)
                == RingSizing(initialSlots: 8, maxSlots: 8))
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
