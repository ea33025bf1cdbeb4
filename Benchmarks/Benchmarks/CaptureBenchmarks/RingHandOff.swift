// `FrameRing hand-off 1080p`: the latency from capture committing a frame to the ring until the
// writer thread has it (and gives the slot back), one frame per iteration, so the wall-clock
// percentiles (p50, p99) are the hand-off latency itself. The writer here does no encoding.
// The CI gate checks its mallocs per frame and that the ring drops nothing (`frames dropped`).

import Benchmark
import BenchmarkSupport
import Foundation
import VRenderCapture
import VRenderRecording

/// A ring with a writer thread that takes each frame and signals back.
// @unchecked Sendable: the benchmark's thread drives it; the writer thread only touches the ring
// (itself thread-safe) and the semaphores.
final class RingRig: @unchecked Sendable {
    private var ring: FrameRing?
    private let handedOff = DispatchSemaphore(value: 0)
    private let writerDone = DispatchSemaphore(value: 0)
    private var sequence = 0

    func setUp() throws {
        let ring = try FrameRing(slotCount: 8, width: 1920, height: 1080, live: true, prerollFrames: 0)
        ring.beginTake(0, prerollSince: 0)
        self.ring = ring
        Thread { [handedOff, writerDone] in
            while let item = ring.next() {
                if case .frame(let entry) = item {
                    ring.release(entry.slot)
                    handedOff.signal()
                }
            }
            writerDone.signal()
        }.start()
    }

    func tearDown() {
        ring?.finish()
        writerDone.wait()
        ring = nil
    }

    @inline(never)
    func handOff(_ benchmark: Benchmark) {
        guard let ring else { return }
        let droppedBefore = ring.dropped(take: 0)
        for _ in benchmark.scaledIterations {
            guard let slot = ring.acquire() else { return }
            ring.commit(slot: slot, info: CapturedFrameInfo(time: Double(sequence) / 30, sequence: sequence), take: 0)
            sequence += 1
            handedOff.wait()
        }
        benchmark.measurement(GateMetric.framesDropped, ring.dropped(take: 0) - droppedBefore)
    }
}

func registerRingBenchmarks() {
    let rig = RingRig()
    Benchmark("FrameRing hand-off 1080p",
              configuration: .init(metrics: [.wallClock, .throughput, .mallocCountTotal, GateMetric.framesDropped],
                                   maxDuration: RunLength.maxDuration(.seconds(3)), maxIterations: 100_000),
              closure: { benchmark in rig.handOff(benchmark) },
              setup: { try rig.setUp() },
              teardown: { rig.tearDown() })
}
