// The CI gate's thresholds (`make bench-ci`). Only figures that stay put on a machine shared with
// other builds are gated:
//
// - allocation counts per frame/packet in steady state (the median iteration): they change when
//   the code does, not with the load;
// - frames in = frames out, and no dropped or damaged frames (every iteration);
// - costs relative to a memcpy of the same frame, both timed in CPU time within one iteration
//   (`time vs memcpy (%)` = 100 × work ÷ memcpy; see BenchmarkSupport/CPUCost.swift).
//
// Wall-clock times are printed, never gated. Every limit is "at most". To change one: run
// `make bench-ci` a few times on the CI machine, read the measured values the gate prints, and
// set the limit with the margin its comment explains (for costs: about 1.5× the worst clean
// value, well under the 3× a real regression of a kernel gives); say why in `why`.

import Benchmark
import BenchmarkSupport
import VRenderFilters

enum GateRules {
    /// The suites that must all have run.
    static let suites = ["FilterBenchmarks", "CaptureBenchmarks", "VulkanBenchmarks", "ExportBenchmarks"]

    static let rules: [GateRule] = filterRules + captureRules + vulkanRules + exportRules

    // MARK: CPU filter kernels

    /// The filter costs' limits depend on the row kernels this machine runs (`VRENDER_CPU` or
    /// the widest it has): the AVX-512 ones cost a third to a fifth of the portable ones, the
    /// AVX2 ones a third to a half. The gate checks the variant the suites ran, which `main`
    /// prints.
    static let kernels = RowInstructions.detected

    /// A filter cost's limit and its reason for `kernels`.
    static func costLimit(portable: (Int, String), avx2: (Int, String), avx512: (Int, String)) -> (limit: Int, why: String) {
        switch kernels {
        case .portable: return portable
        case .avx2: return avx2
        case .avx512: return avx512
        }
    }

    static let monoCost = costLimit(
        portable: (1_400, "clean runs measure 870-950 (a 320x240 mono frame costs ~9 memcpys of it), idle, loaded or "
                   + "beside memory-copying processes; 1,400 is 1.5x that, while a kernel 2x slower gives ~1,850"),
        avx2: (800, "AVX2 kernels: 415 measured on a loaded 2-vCPU Xeon (pair-table gathers; portable 516 and AVX-512 "
                + "163 in the same run); 800 is 1.9x that: AMD's Zen 2 and 3 gather more slowly than Intel"),
        avx512: (320, "AVX-512 kernels: 178 measured on a loaded 2-vCPU EPYC (the portable kernel ~900); 320 is 1.8x "
                  + "that, under the ~900 a fall back to the portable kernel gives"))
    static let chromeCost = costLimit(
        portable: (2_300, "clean runs measure 1,460-1,530 (colour looks: one more table lookup per chroma sample "
                   + "pair); 2,300 is 1.5x that"),
        avx2: (1_100, "AVX2 kernels: 569 measured (the chroma pair table gathered, 8 samples a gather; portable "
                  + "875 in the same run); 1,100 is 1.9x, for slower gathers"),
        avx512: (800, "AVX-512 kernels: 488 measured (the chroma matrix on 16 lanes; portable ~1,500); 800 is 1.6x"))
    static let processCost = costLimit(
        portable: (3_900, "clean runs measure 2,450-2,600 (per-block mean luma, then two tables); 3,900 is 1.5x that"),
        avx2: (1_700, "AVX2 kernels: 879 measured (block means, then two byte tables gathered; portable 1,411 in "
                  + "the same run); 1,700 is 1.9x, for slower gathers"),
        avx512: (1_050, "AVX-512 kernels: 647 measured (block means, then the matrix; portable ~2,500); 1,050 is 1.6x"))

    static let filterRules: [GateRule] = [
        GateRule(suite: "FilterBenchmarks", benchmark: "mono 1080p 1 thread", metric: .mallocCountTotal,
                 percentile: 50, limit: 1,
                 why: "one frame through FilterChain on one thread allocates exactly once: RowBands' "
                     + "array of bands; the kernels allocate nothing"),
        GateRule(suite: "FilterBenchmarks", benchmark: "mono 1080p all threads", metric: .mallocCountTotal,
                 percentile: 50, limit: 5,
                 why: "with 2+ threads Dispatch's concurrentPerform adds 3 or 4 (4-5 in all); more means "
                     + "allocations per band or per row"),
        GateRule(suite: "FilterBenchmarks", benchmark: "process 1080p 1 thread", metric: .mallocCountTotal,
                 percentile: 50, limit: 1,
                 why: "the kernel with scratch rows (block means) keeps them on the stack: RowBands' "
                     + "array is the frame's one allocation"),
        GateRule(suite: "FilterBenchmarks", benchmark: "cost mono 1 thread", metric: GateMetric.costVersusMemcpy,
                 percentile: 50, limit: monoCost.limit, why: monoCost.why),
        GateRule(suite: "FilterBenchmarks", benchmark: "cost chrome 1 thread", metric: GateMetric.costVersusMemcpy,
                 percentile: 50, limit: chromeCost.limit, why: chromeCost.why),
        GateRule(suite: "FilterBenchmarks", benchmark: "cost process 1 thread", metric: GateMetric.costVersusMemcpy,
                 percentile: 50, limit: processCost.limit, why: processCost.why),
    ]

    // MARK: Capture

    static let captureRules: [GateRule] = [
        GateRule(suite: "CaptureBenchmarks", benchmark: "synthetic 1080p frame, 1 render thread",
                 metric: .mallocCountTotal, percentile: 50, limit: 25,
                 why: "the same 100 frames (fixed in the short run) allocate 22-25 times each, median 25: "
                     + "SceneRenderer.composers' arrays (per moving shape) and the timecode text"),
        GateRule(suite: "CaptureBenchmarks", benchmark: "cost synthetic frame 1 thread",
                 metric: GateMetric.costVersusMemcpy, percentile: 50, limit: 2_700,
                 why: "clean runs measure 1,700-1,820 (a default 320x240 frame costs ~18 memcpys of it); "
                     + "2,700 is 1.5x that"),
        GateRule(suite: "CaptureBenchmarks", benchmark: "FrameRing hand-off 1080p", metric: .mallocCountTotal,
                 percentile: 50, limit: 0,
                 why: "handing a captured frame to the writer moves a slot number: nothing to allocate"),
        GateRule(suite: "CaptureBenchmarks", benchmark: "FrameRing hand-off 1080p", metric: GateMetric.framesDropped,
                 percentile: 100, limit: 0,
                 why: "the writer takes every frame before the next is captured, so a live ring never "
                     + "needs to drop one"),
    ]

    // MARK: Vulkan (lavapipe in CI; skipped with no Vulkan device)

    static let vulkanRules: [GateRule] = [
        GateRule(suite: "VulkanBenchmarks", benchmark: "vulkan mono 1080p, 1 in flight", metric: .mallocCountTotal,
                 percentile: 50, limit: 2_163,
                 why: "2,163 per synchronous 1080p frame, the same every frame, nearly all lavapipe's "
                     + "(Mesa 22.3.6): one more means our host code allocates per frame. A Mesa upgrade "
                     + "moves it: then set the new count",
                 optional: true),
    ]

    // MARK: Export

    static let exportRules: [GateRule] = [
        GateRule(suite: "ExportBenchmarks", benchmark: "export demux 1080p H.264+AAC per packet",
                 metric: .mallocCountTotal, percentile: 90, limit: 7,
                 why: "av_read_frame allocates 7 times per video packet, 3 per audio packet (61 % of the "
                     + "packets, hence the 90th percentile: the video packets')"),
        GateRule(suite: "ExportBenchmarks", benchmark: "export mux .mov per packet", metric: .mallocCountTotal,
                 percentile: 50, limit: 1,
                 why: "av_interleaved_write_frame queues each packet in one list entry"),
        GateRule(suite: "ExportBenchmarks", benchmark: "export copy 1080p H.264+AAC to .mov per packet",
                 metric: .mallocCountTotal, percentile: 90, limit: 8,
                 why: "demux + mux of a video packet: 7 + 1 (audio packets 3 + 1)"),
        GateRule(suite: "ExportBenchmarks", benchmark: "export decode 1080p H.264 per frame 1 thread",
                 metric: .mallocCountTotal, percentile: 50, limit: 32,
                 why: "FFmpeg 5.1's H.264 decoder allocates 32 times per frame on one thread (buffer "
                     + "references, side data); the wrapper reuses its frame shell and adds none"),
        GateRule(suite: "ExportBenchmarks", benchmark: "export normalize 1080p to 720p per frame",
                 metric: .mallocCountTotal, percentile: 50, limit: 3,
                 why: "FrameNormalizer allocates 3 times per frame (an array in Planes.layout, for the "
                     + "canvas rectangle's planes); its staging frames are reused"),
        GateRule(suite: "ExportBenchmarks", benchmark: "cost normalize 288x162 to 192x108",
                 metric: GateMetric.costVersusMemcpy, percentile: 50, limit: 4_600,
                 why: "clean runs measure 2,320-3,110, at two levels from one build to the next (swscale's "
                     + "bilinear 2/3 downscale of a small frame costs 23-31 memcpys of it); 4,600 is 1.5x "
                     + "the higher"),
        GateRule(suite: "ExportBenchmarks", benchmark: "export encode 720p H.264 ultrafast per frame 1 thread",
                 metric: .mallocCountTotal, percentile: 50, limit: 6,
                 why: "libx264 ultrafast on one thread, one packet per frame: 6 allocations per frame "
                     + "(the packet's buffer and side data); the wrapper reuses its packet"),
        GateRule(suite: "ExportBenchmarks", benchmark: "export whole stream copy 2 takes 1080p",
                 metric: GateMetric.framesLost, percentile: 100, limit: 0,
                 why: "a stream copy writes every frame it reads: 60 in, 60 out"),
        GateRule(suite: "ExportBenchmarks", benchmark: "export whole stream copy 2 takes 1080p",
                 metric: GateMetric.damagedFrames, percentile: 100, limit: 0,
                 why: "the takes are clean, so no frame may be reported damaged"),
        GateRule(suite: "ExportBenchmarks",
                 benchmark: "export whole transcode 2 takes 1080p to 720p mono H.264 ultrafast",
                 metric: GateMetric.framesLost, percentile: 100, limit: 0,
                 why: "same frame rate in and out: every decoded frame is encoded, 60 in, 60 out"),
        GateRule(suite: "ExportBenchmarks",
                 benchmark: "export whole transcode 2 takes 1080p to 720p mono H.264 ultrafast",
                 metric: GateMetric.damagedFrames, percentile: 100, limit: 0,
                 why: "the takes are clean, so no frame may be reported damaged"),
        GateRule(suite: "ExportBenchmarks", benchmark: "chunk render 1 of 2, 2 takes 1080p to 320x180 FFV1",
                 metric: GateMetric.takesProbed, percentile: 100, limit: 0,
                 why: "a chunk worker plans from the takes its plan carries (ChunkPlan.takes): probing each "
                     + "take again cost every chunk ~0.1 s per few takes (issue 26)"),
    ]
}
