// Benchmarks of the Vulkan filter backend (VRenderVulkan), read as frames per second, on the
// device `--gpu vulkan` picks (lavapipe, a software device, on the development VM and in CI).
//
// - `vulkan <program> <size>`: one 4:2:0 frame through `VulkanFilterEngine` with 3 frames in
//   flight, in the steady state of an export: each iteration collects the oldest frame (waits
//   for its fence, copies it out to a host picture) and submits the next (copies a host picture
//   in, submits the recorded command buffer). Upload and download are included.
// - `vulkan <program> <size>, 1 in flight`: `process(source:into:)`, one frame at a time with
//   no overlap, for comparison.
// - `memcpy <size> 4:2:0 frame (vulkan)`: copying the same frame's bytes, the bandwidth bound,
//   in this executable so the ratio comes from one run.
// - `vulkan mono 1080p` and `vulkan mono 1080p, 1 in flight` also count mallocs per frame
//   (nearly all the driver's); the CI gate checks the second's.
//
// Programs: every registered filter's (`none` included: the identity program), so the table
// reads like the CPU one; the shader does the same work for every program.
// Sizes: 720p (1280x720), 1080p (1920x1080), 2160p (3840x2160).
//
// One iteration is one frame (scaling factor 1): `Throughput (# / s)` is frames per second.
// The engine is made in setup (pipeline compilation is not measured) and drained in teardown.
// With no Vulkan device the vulkan benchmarks are not registered. ARC metrics are left out:
// they crash on Swift 6.3/Linux.

import Benchmark
import Foundation
import VRenderCore
import VRenderFilters
import VRenderVulkan
import BenchmarkSupport

#if canImport(Glibc)
import Glibc
#endif

/// An engine and the frames in flight, made in a benchmark's setup and used only from the
/// benchmark's own thread (hence `@unchecked Sendable`: the harness's closures are `@Sendable`,
/// the engine is confined, never shared).
final class EngineRig: @unchecked Sendable {
    let width: Int
    let height: Int
    let programs: [ColorProgram]
    let depth: Int
    private var engine: VulkanFilterEngine?
    private var tickets: [VulkanFilterEngine.Ticket] = []
    private var source: Picture420?
    private var destination: Picture420?

    init(width: Int, height: Int, programs: [ColorProgram], depth: Int) {
        self.width = width
        self.height = height
        self.programs = programs
        self.depth = depth
    }

    func setUp() throws {
        let source = Picture420(width: width, height: height)
        engine = try VulkanFilterEngine(preference: .any, geometry: VulkanFrameGeometry(of: source.image),
                                        programs: programs, depth: depth)
        self.source = source
        destination = Picture420(width: width, height: height)
    }

    func tearDown() throws {
        if let engine, let destination {
            for ticket in tickets { try engine.collect(ticket, into: destination.image) }
        }
        tickets = []
        engine = nil
        source = nil
        destination = nil
    }

    /// One steady-state frame: collect the oldest when every slot is busy, submit the next.
    @inline(never)
    func pipelinedFrame() throws {
        guard let engine, let source, let destination else { return }
        if engine.isFull { try engine.collect(tickets.removeFirst(), into: destination.image) }
        tickets.append(try engine.submit(source: source.image))
    }

    /// One frame with nothing else in flight.
    @inline(never)
    func synchronousFrame() throws {
        guard let engine, let source, let destination else { return }
        try engine.process(source: source.image, into: destination.image)
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = RunLength.suiteDefault()

    let sizes = [("720p", 1280, 720), ("1080p", 1920, 1080), ("2160p", 3840, 2160)]
    for (label, width, height) in sizes {
        let source = Picture420(width: width, height: height)
        let destination = Picture420(width: width, height: height)
        Benchmark("memcpy \(label) 4:2:0 frame (vulkan)") { benchmark in
            for _ in benchmark.scaledIterations {
                memcpy(destination.bytes, source.bytes, source.byteCount)
            }
            Benchmark.blackHole(destination.bytes)
        }
    }

    let devices = VulkanDevices.list()
    guard let device = devices.first else {
        print("VulkanBenchmarks: no Vulkan device; only memcpy is measured")
        return
    }
    let deviceTag = ["device": device.name]
    let defaultMetrics = Benchmark.defaultConfiguration.metrics
    let withMallocs = defaultMetrics + [.mallocCountTotal]
    // Every registered filter, as `--filter NAME --gpu vulkan` runs it.
    let programs = FilterRegistry.all.compactMap { filter -> (String, ColorProgram)? in
        (filter as? any ColorProgramFilter).map { (filter.descriptor.name, $0.program) }
    }
    for (label, width, height) in sizes {
        for (name, program) in programs {
            // The synchronous variant only for mono at 1080p: enough to show what overlap buys.
            let depths = label == "1080p" && name == "mono" ? [VulkanFilterEngine.defaultDepth, 1] : [VulkanFilterEngine.defaultDepth]
            for depth in depths {
                let rig = EngineRig(width: width, height: height, programs: [program], depth: depth)
                let title = depth == 1 ? "vulkan \(name) \(label), 1 in flight" : "vulkan \(name) \(label)"
                let countsMallocs = name == "mono" && label == "1080p"
                Benchmark(title,
                          configuration: .init(metrics: countsMallocs ? withMallocs : defaultMetrics, tags: deviceTag),
                          closure: { benchmark in
                              for _ in benchmark.scaledIterations {
                                  if depth == 1 { try rig.synchronousFrame() } else { try rig.pipelinedFrame() }
                              }
                          },
                          setup: { try rig.setUp() },
                          teardown: { try rig.tearDown() })
            }
        }
    }
}
