import Foundation
import Testing
import VRenderCore
import VRenderFilters
import VRenderTestSupport
@testable import VRenderExport

/// Exports with `--transition` of takes made by ffmpeg (moving pictures at 25 fps, stereo sines
/// of different frequencies and phases), judged by ffmpeg: exact length in frames and samples,
/// no click at a join, the dissolve's pictures, chunks equal to one pass. FFV1 (lossless), so
/// decoded pictures can be compared level by level, in .mov (whose edit list trims the AAC
/// encoder's priming, so decoded sound counts exactly).
@Suite struct TransitionExportTests {
    let directory = TestMedia.scratchDirectory()

    /// A take of `seconds` at 25 fps, 160x120: `video` (a lavfi source) and a stereo sine of
    /// amplitude 0.5 at `frequency` Hz starting at `phase`, as PCM.
    private func take(_ name: String, seconds: Double, video: String, frequency: Int, phase: Double) -> String {
        let path = directory + "/" + name
        let sine = "0.5*sin(2*PI*\(frequency)*t+\(phase))"
        let run = ProgramRun.run("/usr/bin/ffmpeg", [
            "-v", "error", "-y", "-f", "lavfi", "-i", "\(video)=size=160x120:rate=25:duration=\(seconds)",
            "-f", "lavfi", "-i", "aevalsrc=\(sine)|\(sine):s=48000:d=\(seconds)",
            "-c:v", "libx264", "-preset", "ultrafast", "-g", "12", "-bf", "2", "-pix_fmt", "yuv420p",
            "-c:a", "pcm_s16le", path])
        #expect(run.status == 0, "\(run.standardError)")
        return path
    }

    /// Three takes: 2.0, 1.6 and 2.0 s (50, 40 and 50 frames).
    private func threeTakes() -> [String] {
        [take("a.mov", seconds: 2, video: "testsrc2", frequency: 440, phase: 0.3),
         take("b.mov", seconds: 1.6, video: "rgbtestsrc", frequency: 660, phase: 2.0),
         take("c.mov", seconds: 2, video: "smptebars", frequency: 550, phase: 4.0)]
    }

    private func export(_ takes: [String], _ transition: Transition, to name: String) throws -> (ExportSummary, ExportPlan, String) {
        var options = ExportOptions(inputs: takes, output: directory + "/" + name, codec: .encode(.ffv1))
        options.transition = transition
        var plans: [ExportPlan] = []
        let summary = try Exporter(options: options).export { plans.append($0) }
        return (summary, try #require(plans.first), options.output)
    }

    /// Output frame `index`, decoded as yuv420p bytes.
    private func picture(_ file: String, _ index: Int) -> [UInt8] {
        let path = directory + "/frame\(index)-\((file as NSString).lastPathComponent).yuv"
        let run = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-i", file, "-vf", "select=eq(n\\,\(index))",
                                                     "-frames:v", "1", "-pix_fmt", "yuv420p", "-f", "rawvideo", path])
        #expect(run.status == 0, "\(run.standardError)")
        return [UInt8]((try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data())
    }

    private func sound(_ file: String) throws -> [Float] {
        let path = directory + "/sound-\((file as NSString).lastPathComponent).f32"
        let run = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-i", file, "-map", "0:a", "-af", "pan=mono|c0=c0",
                                                     "-f", "f32le", path])
        #expect(run.status == 0, "\(run.standardError)")
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    private func largestJump(_ samples: [Float], _ range: Range<Int>) -> Float {
        range.clamped(to: 1..<samples.count).reduce(0) { Swift.max($0, abs(samples[$1] - samples[$1 - 1])) }
    }

    /// The amplitude of `frequency` Hz over 40 ms centred on sample `centre` (one DFT bin
    /// under a Hann window, so the other takes' sines 110 Hz away do not leak in).
    private func amplitude(_ samples: [Float], _ frequency: Double, at centre: Int) -> Double {
        let range = centre - 960..<centre + 960
        var (re, im, weights) = (0.0, 0.0, 0.0)
        for index in range {
            let window = 0.5 - 0.5 * cos(2 * Double.pi * Double(index - range.lowerBound) / Double(range.count))
            let angle = 2 * Double.pi * frequency * Double(index) / 48_000
            re += window * Double(samples[index]) * cos(angle)
            im += window * Double(samples[index]) * sin(angle)
            weights += window
        }
        return 2 * (re * re + im * im).squareRoot() / weights
    }

    /// Audio samples the output's sound track holds (its length in the container, where the
    /// edit list cuts the AAC encoder's padding of the last packet).
    private func storedSamples(_ file: String) -> Int {
        Int(ProgramRun.ffprobe(file, stream: "a", entries: "stream=duration_ts")) ?? -1
    }

    @Test func fadeShortensByTheOverlapsExactlyAndDissolves() throws {
        let takes = threeTakes()
        let (summary, plan, output) = try export(takes, .fade(seconds: 0.6), to: "fade.mov")
        // 50 + 40 + 50 frames, two overlaps of 15: 110 frames, 4.4 s, 211200 samples.
        #expect(plan.transition?.description == "fade 0.60 s at 2 joins, -1.20 s")
        #expect(plan.reason == "transcode: --transition fade:0.6 changes the pictures at the joins")
        #expect(summary.frames == 110 && summary.transition?.frames == 15)
        #expect(ProgramRun.ffprobe(output, stream: "v", entries: "stream=nb_read_frames", countFrames: true) == "110")
        #expect(storedSamples(output) == 211_200)
        let sound = try sound(output)

        // The middle of the first dissolve (overlap frame 7 of 15, weight 8/16) is the average
        // of take a's frame 42 and take b's frame 7, within a level.
        let mixed = picture(output, 42), a = picture(takes[0], 42), b = picture(takes[1], 7)
        #expect(mixed.count == 160 * 120 * 3 / 2 && a.count == mixed.count && b.count == mixed.count)
        var error = 0
        for index in mixed.indices {
            let average = (Int(a[index]) + Int(b[index]) + 1) / 2
            error = Swift.max(error, abs(Int(mixed[index]) - average))
        }
        #expect(error <= 1, "largest difference from the average: \(error)")
        #expect(picture(output, 34) == picture(takes[0], 34))  // before the overlap: take a itself

        // No click: the largest step from one sample to the next across each join (the whole
        // overlap and 10 ms either side) against the larger of the two takes' own largest steps
        // (measured on the output away from joins and from the AAC stream's ends). The linear
        // cross-fade's gains add up to one, so no step is larger than the takes' own (a cut
        // between these takes steps 8 to 20 times as far).
        let own = [2048..<67_200, 96_000..<115_200, 144_000..<209_152].map { largestJump(sound, $0) }
        let joins = [67_200 - 480..<96_000 + 480, 115_200 - 480..<144_000 + 480].map { largestJump(sound, $0) }
        #expect(own.allSatisfy { $0 > 0.025 && $0 < 0.05 }, "own \(own)")
        for join in 0..<2 {
            let larger = Swift.max(own[join], own[join + 1])
            #expect(joins[join] <= larger, "join \(join): \(joins[join]), the takes' own \(larger)")
        }
        // Sync and the fade's gains: mid-overlap (1.7 s), each sine at half its level; after it
        // (2.2 s), take b's alone.
        let out = amplitude(sound, 440, at: 81_600), into = amplitude(sound, 660, at: 81_600)
        #expect(abs(out - 0.5 * 0.5) < 0.02 && abs(into - 0.5 * 0.5) < 0.02, "440 Hz \(out), 660 Hz \(into)")
        let after = (amplitude(sound, 440, at: 105_600), amplitude(sound, 660, at: 105_600))
        #expect(after.0 < 0.01 && abs(after.1 - 0.5) < 0.02, "after the overlap: 440 Hz \(after.0), 660 Hz \(after.1)")
    }

    @Test func dipKeepsTheLengthAndPassesThroughBlackAndSilence() throws {
        let takes = [take("da.mov", seconds: 1, video: "testsrc2", frequency: 440, phase: 1),
                     take("db.mov", seconds: 1, video: "rgbtestsrc", frequency: 660, phase: 2)]
        let (summary, plan, output) = try export(takes, .dip(seconds: 0.4), to: "dip.mov")
        #expect(plan.transition?.frames == 5 && summary.frames == 50)
        #expect(ProgramRun.ffprobe(output, stream: "v", entries: "stream=nb_read_frames", countFrames: true) == "50")
        #expect(storedSamples(output) == 96_000)
        let sound = try sound(output)
        // Take a's last frame is black; take b's first is a fifth of itself over black.
        let last = picture(output, 24)
        #expect(last.count == 28_800 && last[0..<19_200].allSatisfy { $0 == 16 } && last[19_200...].allSatisfy { $0 == 128 })
        let first = picture(output, 25), original = picture(takes[1], 0)
        var error = 0
        for index in 0..<19_200 {
            let faded = 16 + Double(Int(original[index]) - 16) / 5
            error = Swift.max(error, Int(abs(Double(first[index]) - faded).rounded(.up)))
        }
        #expect(error <= 1)
        // Silence at the join, no step above the sines' own, full level 0.2 s away.
        #expect(largestJump(sound, 48_000 - 48..<48_000 + 48) < 0.01)
        let own = Swift.max(largestJump(sound, 2048..<38_400), largestJump(sound, 57_600..<94_000))
        #expect(largestJump(sound, 38_400..<57_600) <= own, "join \(largestJump(sound, 38_400..<57_600)), own \(own)")
        #expect(abs(amplitude(sound, 660, at: 72_000) - 0.5) < 0.02)
    }

    @Test func chunksStartingInsideDissolvesGiveTheSamePictures() throws {
        let takes = threeTakes()
        let (_, _, whole) = try export(takes, .fade(seconds: 0.6), to: "whole.mov")
        // Dissolves at output frames 35..<50 and 60..<75; chunks start at 40 and 70.
        var options = ExportOptions(inputs: takes, output: directory + "/joined.mov", codec: .encode(.ffv1))
        options.transition = .fade(seconds: 0.6)
        let exporter = Exporter(options: options)
        let plan = try ExportPlanner.plan(options)
        var chunks: [RenderedChunk] = []
        for frames in [0..<40, 40..<70, 70..<110] {
            let path = directory + "/chunk\(frames.lowerBound).mov"
            _ = try exporter.run(plan, job: .chunk(frames: frames, keyframeInterval: 10), to: path)
            chunks.append(RenderedChunk(path: path, firstFrame: frames.lowerBound, frameCount: frames.count))
        }
        _ = try exporter.run(plan, job: try .joining(chunks, sound: nil, of: plan))
        let md5 = { (file: String) in
            ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-i", file, "-map", "0:v", "-f", "framemd5", "-"]).standardOutput
                .split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { $0.split(separator: ",").last }
        }
        let expected = md5(whole)
        #expect(expected.count == 110)
        #expect(md5(options.output) == expected)
    }
}
