import Foundation
import Testing
import VRenderCore
import VRenderMedia
import VRenderTestSupport
@testable import VRenderExport

/// The join reads each chunk's header only (`ChunkJoinCheck.describe`: nothing decoded) and
/// still refuses, naming the file, a chunk of another plan, one cut short or damaged, and
/// chunks out of order, before the output exists. Takes: 2 s of 160x120 30 fps H.264, no sound.
@Suite struct ChunkJoinCheckTests {
    let directory = TestMedia.scratchDirectory()

    private func take(_ name: String, size: String) throws -> String {
        let path = directory + "/" + name
        let run = ProgramRun.run("/usr/bin/ffmpeg", [
            "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=\(size):rate=30:duration=2",
            "-c:v", "libx264", "-preset", "ultrafast", "-g", "15", "-pix_fmt", "yuv420p", path])
        try #require(run.status == 0, "\(run.standardError)")
        return path
    }

    /// The export of one take of `size` in `codec`, with `spans` of it rendered as chunk files
    /// named `name`-N.mov.
    private func rendered(_ codec: VideoCodecChoice, size: String = "160x120", spans: [Range<Int>], name: String)
        throws -> (exporter: Exporter, plan: ExportPlan, chunks: [RenderedChunk]) {
        let options = ExportOptions(inputs: [try take(name + ".mov", size: size)], output: directory + "/\(name)-out.mov",
                                    codec: .encode(codec))
        let exporter = Exporter(options: options)
        let plan = try ExportPlanner.plan(options)
        let chunks = try spans.enumerated().map { index, frames in
            let path = directory + "/\(name)-\(index).mov"
            _ = try exporter.run(plan, job: .chunk(frames: frames, keyframeInterval: 15), to: path)
            return RenderedChunk(path: path, firstFrame: frames.lowerBound, frameCount: frames.count)
        }
        return (exporter, plan, chunks)
    }

    /// The join of `chunks` fails with an error naming `file` and saying `words`; no output.
    private func expectRefused(_ chunks: [RenderedChunk], of run: (exporter: Exporter, plan: ExportPlan, chunks: [RenderedChunk]),
                               naming file: String, _ words: String) {
        do {
            _ = try run.exporter.run(run.plan, job: try .joining(chunks, sound: nil, of: run.plan))
            Issue.record("the join of \(chunks.map(\.path)) succeeded")
        } catch let error as VRenderError {
            #expect(error.subject == file && error.reason.contains(words), "\(error)")
        } catch {
            Issue.record("\(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: run.plan.output))
    }

    /// What the copy reads from a chunk's description (its stream, clock, start, length, rate,
    /// size and codec setup) is what a whole probe says; the join gives every frame.
    @Test(arguments: [VideoCodecChoice.h264, .ffv1])
    func aChunksHeaderGivesWhatAWholeProbeGives(codec: VideoCodecChoice) throws {
        let run = try rendered(codec, spans: [0..<30, 30..<60], name: codec.rawValue)
        for chunk in run.chunks {
            let header = try ChunkJoinCheck.describe(chunk.path).video, whole = try Probe.probe(chunk.path).video
            #expect(header.index == whole.index && header.timeBase == whole.timeBase && header.frameRate == whole.frameRate)
            #expect(header.startTime == whole.startTime && header.duration == whole.duration, "\(header) \(whole)")
            #expect(header.width == whole.width && header.height == whole.height && header.codecName == whole.codecName)
            #expect(header.extradata == whole.extradata && !header.extradata.isEmpty && header.codecTag == whole.codecTag)
        }
        _ = try run.exporter.run(run.plan, job: try .joining(run.chunks, sound: nil, of: run.plan))
        #expect(ProgramRun.decodedFrames(run.plan.output) == 60)
    }

    @Test func aChunkOfAnotherPlanIsRefusedByName() throws {
        let run = try rendered(.h264, spans: [0..<30, 30..<60], name: "mine")
        let other = try rendered(.h264, size: "320x240", spans: [30..<60], name: "other").chunks[0]
        expectRefused([run.chunks[0], other], of: run, naming: other.path, "is 320x240; the export's canvas is 160x120: it belongs to another plan")
    }

    @Test func aChunkCutShortIsRefusedByName() throws {
        let run = try rendered(.h264, spans: [0..<30, 30..<60], name: "short")
        let short = try rendered(.h264, spans: [30..<45], name: "part").chunks[0]
        let claimed = RenderedChunk(path: short.path, firstFrame: 30, frameCount: 30)
        expectRefused([run.chunks[0], claimed], of: run, naming: short.path, "holds 15 frame(s) where the plan gives it 30")
    }

    /// A chunk whose last half is gone (its header, first in the file, intact), and one that
    /// is no video at all.
    @Test func aDamagedChunkIsRefusedByName() throws {
        let run = try rendered(.h264, spans: [0..<30, 30..<60], name: "damaged")
        let path = run.chunks[1].path
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: path))
        expectRefused(run.chunks, of: run, naming: path, "where the plan gives it 30")
        try Data(repeating: 0x47, count: 4096).write(to: URL(fileURLWithPath: path))
        expectRefused(run.chunks, of: run, naming: path, "cannot be read as a video")
    }

    @Test func chunksOutOfOrderAreRefusedByName() throws {
        let run = try rendered(.h264, spans: [0..<30, 30..<60], name: "order")
        expectRefused([run.chunks[1], run.chunks[0]], of: run, naming: run.chunks[1].path, "the chunks do not cover the export in order")
    }

    @Test func chunksEncodedApartAreRefused() throws {
        let run = try rendered(.h264, spans: [0..<30, 30..<60], name: "h264")
        let lossless = try rendered(.ffv1, spans: [30..<60], name: "ffv1").chunks[0]
        expectRefused([run.chunks[0], lossless], of: run, naming: run.plan.output, "the chunks were not encoded alike")
    }
}
