import Foundation
import Testing
import VRenderCore
import VRenderMedia
import VRenderTestSupport
@testable import VRenderExport

/// Export correctness 3: an AVI states no presentation time for a reordered stream's I- and
/// P-frames, and a copy of XVID with B-frames into .mov/.mp4 got its pictures' times from their
/// decoding times (0, 0.067, …, the last two both at 0.967), as `ffmpeg -c copy` does. Read with
/// `-fflags +genpts`'s filling in, every frame has its own time, one frame apart, from 0 with
/// the sound (as the file states its start).
@Suite struct DecodingTimesOnlyTests {
    let directory = TestMedia.scratchDirectory()

    /// 1 s of XVID (MPEG-4 part 2) 320x240 30 fps with two B-frames and MP3, in AVI.
    private func xvidTake() throws -> String {
        let path = directory + "/xvid.avi"
        let run = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30:duration=1",
                                                      "-f", "lavfi", "-i", "sine=sample_rate=44100:duration=1",
                                                      "-c:v", "mpeg4", "-vtag", "XVID", "-bf", "2", "-c:a", "libmp3lame", path])
        try #require(run.status == 0, "\(run.standardError)")
        return path
    }

    /// The presentation times ffprobe gives the decoded frames, in order.
    private func frameTimes(_ path: String) -> [Double] {
        let run = ProgramRun.run("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "frame=pts_time",
                                                      "-of", "csv=p=0", path])
        return run.standardOutput.split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
    }

    private func startOf(_ path: String, _ stream: String) -> Double {
        Double(ProgramRun.ffprobe(path, stream: stream, entries: "stream=start_time")) ?? .nan
    }

    @Test(arguments: ["mov", "mp4", "mkv"])
    func anXVIDCopyShowsEachFrameAtItsOwnTime(container: String) throws {
        let input = try xvidTake()
        let options = ExportOptions(inputs: [input], output: directory + "/out." + container)
        var plans: [ExportPlan] = []
        let summary = try Exporter(options: options).export { plans.append($0) }
        #expect(plans.first?.mode == .streamCopy)
        #expect(ProgramRun.decodeErrors(options.output) == "")
        let times = frameTimes(options.output)
        #expect(times.count == 30 && summary.frames == 30, "\(times.count) frames, \(summary.frames) said")
        let steps = zip(times, times.dropFirst()).map { $1 - $0 }
        #expect(steps.allSatisfy { abs($0 - 1.0 / 30) < 0.002 }, "frame times \(times)")
        // Where the file states its pictures start, with its sound (not a reorder delay later).
        #expect(abs((times.first ?? 1) - startOf(options.output, "a")) < 0.002, "frame times \(times)")
    }
}
