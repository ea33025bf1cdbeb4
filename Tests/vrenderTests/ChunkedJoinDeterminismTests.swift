import Foundation
import Testing
import VRenderTestSupport

/// A chunked `.mkv` export is the same file on every run, and starts as the one-pass export
/// does: the video at 0.021 s after the AAC priming, the audio at 0. The join copies video far
/// faster than it encodes audio; its timestamps used to depend on which of the two reached the
/// muxer first (`MuxOrder` explains why they no longer can), and Matroska's random UIDs made
/// every file differ anyway.
@Suite struct ChunkedJoinDeterminismTests {
    func ffprobe(_ arguments: [String]) -> String {
        ProgramRun.run("/usr/bin/ffprobe", ["-v", "error"] + arguments).standardOutput
    }

    func starts(_ file: String) -> String {
        ffprobe(["-show_entries", "stream=codec_type,start_time", "-of", "csv=p=0", file])
    }

    @Test func twoChunkedRunsGiveTheSameBytesAndTheOnePassStart() throws {
        let folder = TestMedia.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Two 6 s takes with AAC: 12 s, past the 10 s FFmpeg's interleaver buffers per stream.
        let takes = try (1...2).map { index in
            let take = "\(folder)/take\(index).mov"
            let made = ProgramRun.run("/usr/bin/ffmpeg", [
                "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=30:duration=6",
                "-f", "lavfi", "-i", "sine=frequency=\(300 * index):sample_rate=48000:duration=6",
                "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", take])
            try #require(made.status == 0, "\(made.standardError)")
            return take
        }
        let options = ["--filter", "mono", "--preset", "ultrafast", "--progress", "none"]
        var outputs: [String] = []
        for run in 1...2 {
            let output = "\(folder)/chunked\(run).mkv"
            let chunked = ProgramRun.run(CommandLineTests.binary, ["concat"] + takes + options
                                         + ["-o", output, "--engine", "local", "--chunks", "3"])
            try #require(chunked.status == 0, "\(chunked.standardError)")
            outputs.append(output)
        }
        let onePass = "\(folder)/one-pass.mkv"
        let whole = ProgramRun.run(CommandLineTests.binary, ["concat"] + takes + options + ["-o", onePass])
        try #require(whole.status == 0, "\(whole.standardError)")

        #expect(FileManager.default.contents(atPath: outputs[0]) == FileManager.default.contents(atPath: outputs[1]),
                "two runs of the same chunked export give the same file")
        #expect(starts(outputs[0]) == "video,0.021000\naudio,0.000000\n")
        #expect(starts(outputs[0]) == starts(onePass))
    }
}
