// Benchmarks of the export paths (VRenderMedia's stages and VRenderExport's `Exporter`), on
// 1080p30 H.264 + AAC takes made by the ffmpeg CLI (ExportInputs.swift).
//
// - `export demux|mux|copy ... per packet` (PacketLoopRig.swift): the stream-copy path per
//   packet, video and audio packets alike: reading, writing a .mov, and both.
// - `export decode|normalize|encode ... per frame` (CodecRigs.swift): the transcode stages per
//   frame on one thread. The filter stage is FilterBenchmarks' `cpu <filter> 720p`.
// - `cost normalize 288x162 to 192x108`: what the CI gate checks for the normalizer, its CPU
//   time against a memcpy of its source in the same iteration (1080p → 720p's scale on a
//   picture small enough to stay in cache, so the ratio holds under load: `CPUCost.frameSize`).
// - `export whole ...` (WholeExportRig.swift): a whole `Exporter` run of two takes (60 frames),
//   stream copy and transcode, with the frames that came out checked against those that went in.
//
// One packet, frame or export per iteration (scaling factor 1): `Throughput (# / s)` is packets,
// frames or exports per second. `Malloc (total)` is per packet/frame, FFmpeg's allocations
// included (the interposer sees the whole process). Inputs are made in setup on the first run
// (a few seconds), not at registration: every benchmark runs in a process of its own, which
// registers them all.

import Benchmark
import BenchmarkSupport
import VRenderExport
import VRenderFilters

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = RunLength.suiteDefault(
        metrics: [.throughput, .wallClock, .mallocCountTotal], warmupIterations: 10)

    for (name, stage) in [("export demux 1080p H.264+AAC per packet", PacketLoopRig.Stage.demux),
                          ("export mux .mov per packet", .mux),
                          ("export copy 1080p H.264+AAC to .mov per packet", .copy)] {
        let rig = PacketLoopRig(stage: stage)
        Benchmark(name,
                  closure: { benchmark in try rig.nextPacket(benchmark) },
                  setup: { try rig.setUp() },
                  teardown: { try rig.tearDown() })
    }

    let decode = DecodeRig()
    // Two passes over the take's 30 frames in the short run: the same I, P and B frames every time.
    Benchmark("export decode 1080p H.264 per frame 1 thread",
              configuration: RunLength.fixedInShortRun(Benchmark.defaultConfiguration, iterations: 60),
              closure: { _ in try decode.decodeNextPacket() },
              setup: { try decode.setUp() },
              teardown: { decode.tearDown() })

    let normalize = NormalizeRig(canvasSize: (1280, 720))
    Benchmark("export normalize 1080p to 720p per frame",
              closure: { _ in try normalize.normalize() },
              setup: { try normalize.setUp() },
              teardown: { normalize.tearDown() })
    let normalizeCost = NormalizeRig(sourceSize: (288, 162), canvasSize: (192, 108))
    Benchmark("cost normalize 288x162 to 192x108",
              configuration: .init(metrics: [.wallClock, GateMetric.costVersusMemcpy]),
              closure: { benchmark in try normalizeCost.normalizeVersusMemcpy(benchmark) },
              setup: { try normalizeCost.setUp() },
              teardown: { normalizeCost.tearDown() })

    let encode = EncodeRig()
    Benchmark("export encode 720p H.264 ultrafast per frame 1 thread",
              closure: { _ in try encode.encodeNextFrame() },
              setup: { try encode.setUp() },
              teardown: { encode.tearDown() })

    // One export per iteration (~0.1 s for the copy, ~1 s for the transcode on 2 cores).
    let wholeExport = Benchmark.Configuration(
        metrics: [.wallClock, GateMetric.framesLost, GateMetric.damagedFrames],
        warmupIterations: 1, maxDuration: .seconds(10), maxIterations: RunLength.maxIterations(20, short: 2))
    let copy = WholeExportRig(outputName: "whole-copy.mov") { options in options.codec = .copy }
    Benchmark("export whole stream copy 2 takes 1080p",
              configuration: wholeExport,
              closure: { benchmark in try copy.exportOnce(benchmark) },
              setup: { try copy.setUp() },
              teardown: { copy.tearDown() })
    let transcode = WholeExportRig(outputName: "whole-transcode.mp4") { options in
        options.codec = .encode(.h264)
        options.preset = "ultrafast"
        options.size = (1280, 720)
        options.filter = FilterChain([MonoFilter()])
        options.gpu = .cpu
    }
    Benchmark("export whole transcode 2 takes 1080p to 720p mono H.264 ultrafast",
              configuration: wholeExport,
              closure: { benchmark in try transcode.exportOnce(benchmark) },
              setup: { try transcode.setUp() },
              teardown: { transcode.tearDown() })

    let chunkJob = ChunkJobRig()
    Benchmark("chunk render 1 of 2, 2 takes 1080p to 320x180 FFV1",
              configuration: .init(metrics: [.wallClock, GateMetric.takesProbed], warmupIterations: 1,
                                   maxDuration: .seconds(10), maxIterations: RunLength.maxIterations(10, short: 2)),
              closure: { benchmark in try chunkJob.renderChunk(benchmark) },
              setup: { try chunkJob.setUp() },
              teardown: { chunkJob.tearDown() })
}
