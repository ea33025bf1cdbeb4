// Benchmarks of the synthetic camera: the cost of producing one captured frame, read as frames
// per second.
//
// - `synthetic 1080p frame` / `synthetic 720p frame`: `SyntheticCamera.nextFrame(into:)` at
//   1920x1080 / 1280x720 with the default camera (back, wide lens 1x, torch off: static rows
//   copied, moving shapes and the timecode strip painted), all processors.
// - `synthetic 1080p frame, front camera`: the same with every row mirrored.
// - `synthetic 1080p frame, digital zoom 1.5x + torch`: the expensive path: every row of the
//   lens image composed through the tone tables and enlarged bilinearly.
// - `synthetic 1080p frame, 1 render thread`: the default frame on one thread, whose mallocs
//   per frame the CI gate checks (with more threads Dispatch adds a varying few).
// - `memcpy 1080p 4:2:0 frame (capture)`: copying the same 3,110,400 bytes, the bandwidth bound,
//   in this executable so the ratio comes from one run.
// - `cost synthetic frame 1 thread`: what the CI gate checks, a default 320x240 frame rendered
//   on one thread against a memcpy of a frame of the same size, both in this thread's CPU time
//   (`GateMetric.costVersusMemcpy`; the size keeps it steady under load, `CPUCost.frameSize`).
//
// One iteration is one frame (scaling factor 1), so `Throughput (# / s)` is frames per second.
// The static layers are rendered in setup (a camera renders them the first time a lens is used),
// so the numbers are the steady state of a take. ARC metrics are left out: they crash on Swift
// 6.3/Linux.

import Benchmark
import BenchmarkSupport
import Foundation
import VRenderCapture
import VRenderMedia

#if canImport(Glibc)
import Glibc
#endif

/// A synthetic camera and a frame to render into, made in a benchmark's setup.
// @unchecked Sendable: one benchmark uses it, and its setup, iterations and teardown run in turn.
final class CameraRig: @unchecked Sendable {
    let width: Int
    let height: Int
    let controls: [CameraControl]
    /// Render threads; nil keeps the camera's default (the processors online).
    let renderThreads: Int?
    private(set) var camera: SyntheticCamera?
    private(set) var frame: Frame?
    /// The memcpy's source and destination, of the frame's size (cost benchmark only: made by
    /// its first iteration, a warm-up one).
    private var copyPictures: (source: Picture420, destination: Picture420)?

    init(width: Int, height: Int, controls: [CameraControl] = [], renderThreads: Int? = nil) {
        self.width = width
        self.height = height
        self.controls = controls
        self.renderThreads = renderThreads
    }

    func setUp() throws {
        let camera = try SyntheticCamera(specification: "synthetic:seed=1",
                                         request: CaptureRequest(size: (width, height)))
        for control in controls { _ = camera.apply(control, at: 0) }
        if let renderThreads { camera.renderThreads = renderThreads }
        let frame = try Frame.picture(width: width, height: height)
        camera.start()
        _ = try camera.nextFrame(into: frame)   // renders the lens's static layer
        self.camera = camera
        self.frame = frame
    }

    func tearDown() {
        camera?.stop()
        camera = nil
        frame = nil
        copyPictures = nil
    }

    @inline(never)
    func renderFrames(_ count: Range<Int>) throws {
        guard let camera, let frame else { return }
        for _ in count { _ = try camera.nextFrame(into: frame) }
        Benchmark.blackHole(frame)
    }

    /// Frames against memcpys of a picture of the same size, in this thread's CPU time
    /// (`CPUCost.recordVersusMemcpy`).
    @inline(never)
    func renderFrameVersusMemcpy(_ benchmark: Benchmark) throws {
        if copyPictures == nil {
            copyPictures = (Picture420(width: width, height: height), Picture420(width: width, height: height))
        }
        guard let camera, let frame, let (source, destination) = copyPictures else { return }
        var failure: (any Error)?
        CPUCost.recordVersusMemcpy(
            benchmark,
            memcpy: { memcpy(destination.bytes, source.bytes, source.byteCount) },
            work: {
                do { _ = try camera.nextFrame(into: frame) } catch { failure = error }
            })
        if let failure { throw failure }
        Benchmark.blackHole(frame)
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = RunLength.suiteDefault(warmupIterations: 10)

    let threads = ProcessInfo.processInfo.activeProcessorCount
    let rigs: [(String, CameraRig)] = [
        ("synthetic 1080p frame", CameraRig(width: 1920, height: 1080)),
        ("synthetic 720p frame", CameraRig(width: 1280, height: 720)),
        ("synthetic 1080p frame, front camera", CameraRig(width: 1920, height: 1080, controls: [.flip])),
        ("synthetic 1080p frame, digital zoom 1.5x + torch",
         CameraRig(width: 1920, height: 1080, controls: [.zoom(1.5), .torch(level: 1)])),
        ("synthetic 1080p frame, 1 render thread", CameraRig(width: 1920, height: 1080, renderThreads: 1)),
    ]
    for (name, rig) in rigs {
        let configuration = Benchmark.Configuration(metrics: [.throughput, .wallClock, .mallocCountTotal],
                                                    tags: ["threads": "\(rig.renderThreads ?? threads)"])
        // The gated one renders the same 100 frames every short run (their shapes differ).
        let gated = rig.renderThreads == 1
        Benchmark(name, configuration: gated ? RunLength.fixedInShortRun(configuration, iterations: 100) : configuration,
                  closure: { benchmark in try rig.renderFrames(benchmark.scaledIterations) },
                  setup: { try rig.setUp() },
                  teardown: { rig.tearDown() })
    }

    let costRig = CameraRig(width: CPUCost.frameSize.width, height: CPUCost.frameSize.height, renderThreads: 1)
    Benchmark("cost synthetic frame 1 thread",
              configuration: .init(metrics: [.wallClock, GateMetric.costVersusMemcpy]),
              closure: { benchmark in try costRig.renderFrameVersusMemcpy(benchmark) },
              setup: { try costRig.setUp() },
              teardown: { costRig.tearDown() })

    let byteCount = 1920 * 1080 * 3 / 2
    let source = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: 64)
    let destination = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: 64)
    source.initializeMemory(as: UInt8.self, repeating: 128, count: byteCount)
    nonisolated(unsafe) let buffers = (source, destination)
    registerRingBenchmarks()

    Benchmark("memcpy 1080p 4:2:0 frame (capture)") { benchmark in
        for _ in benchmark.scaledIterations { memcpy(buffers.1, buffers.0, byteCount) }
        Benchmark.blackHole(buffers.1)
    }
}
