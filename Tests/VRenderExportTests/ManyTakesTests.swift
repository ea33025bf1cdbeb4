import Foundation
import Synchronization
import Testing
import VRenderCore
import VRenderMedia
import VRenderTestSupport
@testable import VRenderExport

/// Many takes: a copy holds one take's file open at a time, and probing on several threads
/// gives what probing one after another gives. (Time and memory are measured by
/// Benchmarks/many-takes.sh, not here.)
@Suite struct ManyTakesTests {
    let directory = TestMedia.scratchDirectory()

    /// `count` copies of small_a.mov (1 s, 30 frames, H.264 + AAC) under their own names.
    private func takes(_ count: Int) throws -> [String] {
        try (1...count).map { index in
            let path = directory + "/take\(index).mov"
            try FileManager.default.copyItem(atPath: TestMedia.path("small_a.mov"), toPath: path)
            return URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        }
    }

    /// Which of `paths` this process has open now, each once (a demuxer holds its input twice:
    /// the descriptor it checked, and FFmpeg's open of it through `/proc/self/fd`), in order.
    private static func open(_ paths: Set<String>) -> [String] {
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        let open = descriptors.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0) }
            .filter(paths.contains)
        return open.reduce(into: []) { unique, path in if !unique.contains(path) { unique.append(path) } }
    }

    @Test("a stream copy of many takes opens each take once, and one at a time")
    func copyOpensOneTakeAtATime() throws {
        let paths = try takes(6)
        let plan = try ExportPlanner.plan(ExportOptions(inputs: paths, output: directory + "/out.mov", codec: .copy))
        #expect(plan.mode == .streamCopy)
        #expect(Self.open(Set(paths)).isEmpty, "planning closed every take it probed")
        // A report at every frame: what is open while each frame is copied.
        let seen = Mutex<[[String]]>([])
        let progress = ProgressThrottle(total: plan.timeline.totalSlots, frameRate: 30, interval: 0) { _ in
            seen.withLock { $0.append(Self.open(Set(paths))) }
        }
        let output = try OutputFile(path: plan.output, inputs: paths, overwrite: false)
        let copied = try StreamCopy(plan: plan, output: output, damage: DamageLog(), cancellation: ExportCancellation(),
                                    progress: progress).run()
        try output.commit()
        let samples = seen.withLock { $0 }
        #expect(samples.count == 6 * 30 + 1)
        #expect(samples.allSatisfy { $0.count <= 1 }, "never two takes open at once")
        #expect(samples.dropLast().allSatisfy { $0.count == 1 } && samples.last == [], "the last take closed before the end")
        // Take i is open while frames 30(i-1)+1 ... 30i are copied: opened in order, each once.
        let order = samples.dropLast().map { $0[0] }
        #expect(order == paths.flatMap { Array(repeating: $0, count: 30) })
        #expect(copied.frames == 180)
        #expect(ProgramRun.ffprobe(plan.output, stream: "v", entries: "stream=nb_read_frames", countFrames: true) == "180")
        #expect(ProgramRun.decodeErrors(plan.output).isEmpty)
    }

    @Test("probing on several threads gives the takes in order, as probing one after another")
    func parallelProbingKeepsOrder() throws {
        let names = ["small_a.mov", "same_1.mov", "hevc_640x480_25_aac44k_mono.mp4", "mjpeg_422_full.mkv", "small_b.mov"]
        let paths = names.map(TestMedia.path)
        let serial = try InOrderMap.map(paths.count, threads: 1) { try Probe.probe(paths[$0]) }
        let parallel = try InOrderMap.map(paths.count, threads: 3) { try Probe.probe(paths[$0]) }
        #expect(parallel.map(\.path) == paths)
        #expect(parallel.map(\.duration) == serial.map(\.duration))
        #expect(parallel.map(\.video.codecName) == serial.map(\.video.codecName))
    }

    @Test("of several unusable inputs, the first in order is the error, whichever thread met it first")
    func firstFailureInOrderIsReported() throws {
        let begun = Mutex<Set<Int>>([])
        let error = #expect(throws: VRenderError.self) {
            _ = try InOrderMap.map(40, threads: 4) { index -> Int in
                begun.withLock { _ = $0.insert(index) }
                if index == 7 || index == 3 || index == 12 { throw VRenderError.input("take\(index)", "unusable") }
                return index
            }
        }
        #expect(error?.description.contains("take3") == true)
        let started = begun.withLock { $0 }
        #expect(started.isSuperset(of: 0...3), "every input before the failing one was read")
        #expect(try InOrderMap.map(40, threads: 4) { $0 * 2 } == (0..<40).map { $0 * 2 })
    }
}
