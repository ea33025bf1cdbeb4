import Foundation
import Testing
import VRenderTestSupport

/// `vrender concat --for web|archive`: what the preset writes, judged by ffprobe and ffmpeg (not
/// by vrender), the sound in sync without edit lists, and options given with it winning.
@Suite struct DeliveryCommandTests {
    let directory = TestMedia.scratchDirectory()
    /// 5 s in all: a take with stereo sound, one with mono sound at 44.1 kHz.
    let takes = ["small_a.mov", "hevc_640x480_25_aac44k_mono.mp4"].map(TestMedia.path)

    func concat(_ arguments: [String]) -> ProgramRun {
        ProgramRun.run(CommandLineTests.binary, ["concat"] + takes + arguments + ["--progress", "none"])
    }

    func probe(_ file: String, _ entries: String, stream: String) -> [String] {
        ProgramRun.run("/usr/bin/ffprobe", ["-v", "error", "-select_streams", stream, "-show_entries", entries,
                                            "-of", "csv=p=0", file]).standardOutput.split(separator: "\n").map(String.init)
    }

    /// The sound decoded as ffmpeg plays it: mono float samples.
    func sound(_ file: String) throws -> [Float] {
        let raw = file + ".f32"
        let run = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-i", file, "-map", "0:a", "-ac", "1", "-f", "f32le", raw])
        #expect(run.status == 0, "\(run.standardError)")
        return try Data(contentsOf: URL(fileURLWithPath: raw)).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// The shift of `a` against `b` (samples) that lines their sound up best, within ±`range`.
    func lag(_ a: [Float], _ b: [Float], range: Int) -> Int {
        let window = 48_000..<Swift.min(a.count, b.count) - range
        return (-range...range).max { left, right in
            score(a, b, left, window) < score(a, b, right, window)
        } ?? 0
    }

    private func score(_ a: [Float], _ b: [Float], _ shift: Int, _ window: Range<Int>) -> Float {
        stride(from: window.lowerBound, to: window.upperBound, by: 4).reduce(0) { $0 + a[$1] * b[$1 + shift] }
    }

    @Test func webWritesWhatPlatformsAskForInSync() throws {
        let web = directory + "/web.mp4", reference = directory + "/reference.mp4"
        let run = concat(["--for", "web", "-o", web])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardError.contains("plan: transcode: --for web encodes the video as h264"), "\(run.standardError)")
        #expect(run.standardError.contains("plan: for web: h264 high crf 20 capped at 1.0 Mb/s, a closed GOP of 15 frames, "
                                           + "2 B-frames, AAC 48 kHz, -14 LUFS, .mp4 with faststart and no edit lists; as given: -o"),
                "\(run.standardError)")
        #expect(probe(web, "stream=codec_name,profile,has_b_frames", stream: "v") == ["h264,High,2"])
        #expect(probe(web, "stream=codec_name,profile,sample_rate", stream: "a") == ["aac,LC,48000"])
        // A keyframe every 15 frames (30 fps: half a second), the first picture at 0.
        let keyframes = probe(web, "packet=pts_time,flags", stream: "v").filter { $0.contains("K") }
        #expect(keyframes.prefix(3).map { $0.split(separator: ",")[0] } == ["0.000000", "0.500000", "1.000000"], "\(keyframes)")
        // No edit list, and the index before the media (faststart).
        let boxes = ProgramRun.run("/usr/bin/ffprobe", ["-v", "trace", web]).standardError
        #expect(!boxes.contains("type:'elst'"))
        let moov = try #require(boxes.range(of: "type:'moov'")), mdat = try #require(boxes.range(of: "type:'mdat'"))
        #expect(moov.lowerBound < mdat.lowerBound)
        // In sync with the same export written with edit lists (which every player honours).
        let plain = concat(["--codec", "h264", "--loudness", "-14", "-o", reference])
        #expect(plain.status == 0, "\(plain.standardError)")
        let shift = lag(try sound(web), try sound(reference), range: 1_200)
        #expect(abs(shift) <= 2, "the web export's sound is \(shift) samples off (AAC priming is 1024)")
        // A Matroska file (-o given) keeps the priming before the pictures, which start 21 ms in
        // (as any .mkv export's do): nothing is held back there.
        let mkv = directory + "/web.mkv", plainMKV = directory + "/plain.mkv"
        #expect(concat(["--for", "web", "-o", mkv]).status == 0)
        #expect(concat(["--codec", "h264", "--loudness", "-14", "-o", plainMKV]).status == 0)
        let mkvShift = lag(try sound(mkv), try sound(plainMKV), range: 1_200)
        #expect(abs(mkvShift) <= 2, "the .mkv's sound is \(mkvShift) samples off an ordinary .mkv export's")
        #expect(probe(mkv, "stream=start_time", stream: "v") == probe(plainMKV, "stream=start_time", stream: "v"))
    }

    @Test func archiveIsLosslessAndOptionsGivenWinOverThePreset() throws {
        let archive = directory + "/master.mkv"
        let run = concat(["--for", "archive", "-o", archive])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(probe(archive, "stream=codec_name", stream: "v") == ["ffv1"])
        #expect(probe(archive, "stream=codec_name", stream: "a") == ["pcm_f32le"])
        let web = directory + "/web.mov"
        let given = concat(["--crf", "30", "--for", "web", "--loudness", "-16", "-o", web])
        #expect(given.status == 0, "\(given.standardError)")
        #expect(given.standardError.contains("crf 30 capped"), "\(given.standardError)")
        #expect(given.standardError.contains("-16 LUFS, .mov with faststart and no edit lists; as given: --crf, --loudness, -o"),
                "\(given.standardError)")
        // A chunked export cannot apply the preset yet: refused, never half applied.
        let chunked = concat(["--for", "web", "--engine", "local", "-o", directory + "/c.mp4"])
        #expect(chunked.status == 2 && chunked.standardError.contains("--for web with --engine: a chunked export cannot apply"),
                "\(chunked.standardError)")
        let planned = ProgramRun.run(CommandLineTests.binary, ["chunk", "plan"] + takes + ["-o", directory + "/p.mp4", "--for", "archive"])
        #expect(planned.status == 2 && planned.standardError.contains("--for archive with 'chunk plan'"), "\(planned.standardError)")
        let refused = concat(["--for", "youtub"])
        #expect(refused.status == 2 && refused.standardError.contains("--for 'youtub' is not web or archive; did you mean 'youtube'?"),
                "\(refused.standardError)")
    }
}
