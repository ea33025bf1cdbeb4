// Benchmarks of vrender's CPU work per frame, read as frames per second.
//
// - `mono 1080p 1 thread` / `mono 1080p all threads`, `process 1080p 1 thread`: FilterChain([MonoFilter()])
//   (or ProcessFilter) over one 1920x1080 4:2:0 picture, source to a separate destination, as the export pipeline runs it.
// - `memcpy 1080p 4:2:0 frame`: copying the same 3,110,400 bytes with memcpy, the memory-bandwidth
//   bound a per-pixel filter is compared with.
// - `BoundedQueue hand-off`: 1000 small items pushed by one thread and popped by another through a
//   BoundedQueue(capacity: 8), the queue between pipeline stages: cost per item handed over.
// - `cpu <filter> <size>`: every filter of FilterRegistry (default options) on the CPU, one
//   4:2:0 picture of 720p, 1080p or 2160p, source to a separate destination, all threads
//   (`Processors.active`), next to `memcpy <size> 4:2:0 frame` of the same bytes.
// - `cpu chain sepia,chrome,noir 1080p`: three fused colour filters in one chain, all threads.
// - `cost <filter> 1 thread` (CostBenchmarks.swift): what the CI gate checks, a kernel's CPU
//   time against a memcpy of its (small) frame in the same iteration. The gate also reads the
//   mallocs per frame of `mono 1080p 1 thread`, `mono 1080p all threads` and
//   `process 1080p 1 thread` (the kernel that needs scratch rows: block means).
//
// One iteration is one frame (scaling factor 1), so `Throughput (# / s)` is frames per second and
// `Time (wall clock)` is the time per frame. The queue benchmark uses 1000 items per iteration
// (scaling factor kilo): its throughput is items per second and its wall clock time is per item.
// ARC metrics are left out on purpose: they crash on Swift 6.3/Linux.

import Benchmark
import Dispatch
import Foundation
import VRenderCore
import VRenderFilters
import BenchmarkSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A consumer thread popping from a BoundedQueue until a negative sentinel arrives, at which
/// point it signals the producer. Started in the benchmark's setup, ended in its teardown.
final class HandOffRig: @unchecked Sendable {
    static let capacity = 8
    private(set) var queue = BoundedQueue<Int>(capacity: HandOffRig.capacity)
    let drained = DispatchSemaphore(value: 0)

    func start() {
        // A fresh queue for every run: `finish()` in `stop()` ends a queue for good.
        let queue = BoundedQueue<Int>(capacity: Self.capacity)
        self.queue = queue
        let drained = self.drained
        let consumer = Thread {
            var sum = 0
            while let item = queue.pop() {
                if item < 0 {
                    drained.signal()
                } else {
                    sum &+= item
                }
            }
            Benchmark.blackHole(sum)
        }
        consumer.name = "bench-consumer"
        consumer.start()
    }

    func stop() { queue.finish() }

    /// One iteration: `count` items through the queue, then wait until the consumer has taken
    /// them all (the sentinel is the only extra item: 1 in 1001).
    @inline(never)
    func handOff(_ items: Range<Int>) {
        let queue = self.queue
        for item in items { queue.push(item) }
        queue.push(-1)
        drained.wait()
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = RunLength.suiteDefault()

    let width = 1920, height = 1080
    let source = Picture420(width: width, height: height)
    let destination = Picture420(width: width, height: height)
    let mono = FilterChain([MonoFilter()])
    let allThreads = Processors.active

    let withMallocs = Benchmark.Configuration(metrics: [.throughput, .wallClock, .mallocCountTotal])
    Benchmark("mono 1080p 1 thread", configuration: withMallocs) { benchmark in
        for _ in benchmark.scaledIterations {
            mono.run(source: source.image, destination: destination.image, threads: 1)
        }
        Benchmark.blackHole(destination.bytes)
    }

    Benchmark("mono 1080p all threads",
              configuration: .init(metrics: withMallocs.metrics, tags: ["threads": "\(allThreads)"])) { benchmark in
        for _ in benchmark.scaledIterations {
            mono.run(source: source.image, destination: destination.image, threads: allThreads)
        }
        Benchmark.blackHole(destination.bytes)
    }

    // The costliest look's kernel (per-block mean luma, the chroma matrix): allocations per frame.
    let process = FilterChain([ProcessFilter()])
    Benchmark("process 1080p 1 thread", configuration: withMallocs) { benchmark in
        for _ in benchmark.scaledIterations {
            process.run(source: source.image, destination: destination.image, threads: 1)
        }
        Benchmark.blackHole(destination.bytes)
    }

    Benchmark("memcpy 1080p 4:2:0 frame") { benchmark in
        for _ in benchmark.scaledIterations {
            memcpy(destination.bytes, source.bytes, source.byteCount)
        }
        Benchmark.blackHole(destination.bytes)
    }

    // Every filter × size, all threads, each size next to its own memcpy baseline. The
    // pictures are made once here (not per benchmark) so setup stays out of the numbers.
    let sizes = [("720p", 1280, 720), ("1080p", width, height), ("2160p", 3840, 2160)]
    for (label, sizeWidth, sizeHeight) in sizes {
        let sizedSource = label == "1080p" ? source : Picture420(width: sizeWidth, height: sizeHeight)
        let sizedDestination = label == "1080p" ? destination : Picture420(width: sizeWidth, height: sizeHeight)
        for name in FilterRegistry.names {
            let chain = FilterChain([FilterRegistry.filter(named: name)!])
            Benchmark("cpu \(name) \(label)",
                      configuration: .init(tags: ["threads": "\(allThreads)"])) { benchmark in
                for _ in benchmark.scaledIterations {
                    chain.run(source: sizedSource.image, destination: sizedDestination.image, threads: allThreads)
                }
                Benchmark.blackHole(sizedDestination.bytes)
            }
        }
        if label != "1080p" {   // the 1080p memcpy is the benchmark above
            Benchmark("memcpy \(label) 4:2:0 frame") { benchmark in
                for _ in benchmark.scaledIterations {
                    memcpy(sizedDestination.bytes, sizedSource.bytes, sizedSource.byteCount)
                }
                Benchmark.blackHole(sizedDestination.bytes)
            }
        }
    }

    registerCostBenchmarks()

    let fusedChain = FilterChain([SepiaFilter(), ChromeFilter(), NoirFilter()])
    Benchmark("cpu chain sepia,chrome,noir 1080p",
              configuration: .init(tags: ["threads": "\(allThreads)"])) { benchmark in
        for _ in benchmark.scaledIterations {
            fusedChain.run(source: source.image, destination: destination.image, threads: allThreads)
        }
        Benchmark.blackHole(destination.bytes)
    }

    let rig = HandOffRig()
    Benchmark("BoundedQueue hand-off",
              configuration: .init(scalingFactor: .kilo, maxIterations: 100_000),
              closure: { benchmark in
                  rig.handOff(benchmark.scaledIterations)
              },
              setup: { rig.start() },
              teardown: { rig.stop() })
}
