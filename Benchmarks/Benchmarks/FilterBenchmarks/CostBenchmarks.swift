// `cost <filter> 1 thread`: the figures the CI gate checks for the CPU kernels. Each iteration
// copies a 320x240 4:2:0 frame with memcpy 8 times and then runs the filter over it 8 times (one
// thread, separate source and destination, as an export runs it), both timed in this thread's
// CPU time: `GateMetric.costVersusMemcpy` is 100 × filter ÷ memcpy, which a busy neighbour
// barely moves while a slower kernel moves it in proportion (the frame size is chosen for that:
// `CPUCost.frameSize`). One filter per speed class of `ColorKernel.swift`: a monochrome look,
// a colour look, and `process` (per-block mean luma).

import Benchmark
import BenchmarkSupport
import VRenderFilters

#if canImport(Glibc)
import Glibc
#endif

func registerCostBenchmarks() {
    let source = Picture420(width: CPUCost.frameSize.width, height: CPUCost.frameSize.height)
    let destination = Picture420(width: CPUCost.frameSize.width, height: CPUCost.frameSize.height)
    for name in ["mono", "chrome", "process"] {
        guard let filter = FilterRegistry.filter(named: name) else { fatalError("no filter '\(name)'") }
        let chain = FilterChain([filter])
        Benchmark("cost \(name) 1 thread", configuration: .init(metrics: [.wallClock, GateMetric.costVersusMemcpy])) { benchmark in
            for _ in benchmark.scaledIterations {
                CPUCost.recordVersusMemcpy(
                    benchmark,
                    memcpy: { memcpy(destination.bytes, source.bytes, source.byteCount) },
                    work: { chain.run(source: source.image, destination: destination.image, threads: 1) })
            }
            Benchmark.blackHole(destination.bytes)
        }
    }
}
