import Foundation
import Testing
import VRenderTestSupport

/// `vrender concat --engine local` and `vrender chunk`: chunked exports judged by ffmpeg
/// against the same export made in one pass. The Slurm engine is tested against a real
/// single-node cluster by scripts/slurm-tests.sh.
@Suite struct ChunkedExportCommandTests {
    let directory = TestMedia.scratchDirectory()

    /// Three takes of three sizes and frame rates (30, 25 and 24 fps), one without audio: 5 s
    /// on a 320x240 canvas at 30 fps, 150 frames.
    let takes = ["small_a.mov", "hevc_640x480_25_aac44k_mono.mp4", "mpeg4_854x480_24_noaudio.mkv"].map(TestMedia.path)

    func vrender(_ arguments: [String]) -> ProgramRun {
        ProgramRun.run(CommandLineTests.binary, arguments)
    }

    func concat(_ arguments: [String]) -> ProgramRun { vrender(["concat"] + arguments) }

    /// framemd5 of every decoded picture, and the md5 of the decoded audio.
    func decoded(_ file: String) -> (video: [String], audio: String) {
        let video = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-i", file, "-map", "0:v", "-f", "framemd5", "-"])
        let audio = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-i", file, "-map", "0:a", "-f", "md5", "-"])
        let hashes = video.standardOutput.split(separator: "\n").filter { !$0.hasPrefix("#") }
            .compactMap { $0.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) } }
        return (hashes, audio.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test("lossless: the same pictures and audio as one pass, for 1, 3 and 7 chunks")
    func losslessChunksMatchOnePass() throws {
        let whole = directory + "/whole.mkv"
        let run = concat(takes + ["--codec", "ffv1", "-o", whole, "--progress", "none"])
        #expect(run.status == 0, "\(run.standardError)")
        let expected = decoded(whole)
        #expect(expected.video.count == 150 && Set(expected.video).count > 3 && !expected.audio.isEmpty)
        for chunks in [1, 3, 7] {
            let output = directory + "/chunks\(chunks).mkv"
            let chunked = concat(takes + ["--codec", "ffv1", "-o", output, "--engine", "local", "--chunks", "\(chunks)",
                                           "--workers", "2", "--progress", "none"])
            #expect(chunked.status == 0, "\(chunked.standardError)")
            #expect(chunked.standardError.contains("chunks: 150 frames in \(chunks) chunk(s)"), "\(chunked.standardError)")
            let got = decoded(output)
            #expect(got.video == expected.video, "\(chunks) chunks")
            #expect(got.audio == expected.audio, "\(chunks) chunks")
            #expect(!FileManager.default.fileExists(atPath: output + ".chunks"), "the work folder is removed after success")
        }
    }

    /// Chunks that start inside a long take read it from the keyframe before them (not from
    /// its start): B-frames and an open-GOP HEVC take give the same pictures as one pass.
    @Test func chunksInsideLongTakesStartAtKeyframes() throws {
        let h264 = directory + "/bframes.mp4", hevc = directory + "/opengop.mkv"
        for (file, codec) in [(h264, ["libx264", "-g", "30", "-bf", "3"]), (hevc, ["libx265", "-x265-params", "log-level=error:keyint=40"])] {
            let made = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30",
                                                          "-t", "6", "-c:v"] + codec + [file])
            #expect(made.status == 0, "\(made.standardError)")
        }
        let whole = directory + "/whole.mkv", chunked = directory + "/chunked.mkv"
        #expect(concat([h264, hevc, "--codec", "ffv1", "-o", whole, "--progress", "none"]).status == 0)
        let run = concat([h264, hevc, "--codec", "ffv1", "-o", chunked, "--engine", "local", "--chunks", "5"])
        #expect(run.status == 0, "\(run.standardError)")
        let expected = decoded(whole).video
        #expect(expected.count == 360)
        #expect(decoded(chunked).video == expected)
    }

    @Test("lossy: every frame, continuous timestamps, a keyframe at every chunk, audio as long as the video")
    func lossyChunksAreWhole() throws {
        let output = directory + "/lossy.mov"
        let run = concat(takes + ["--codec", "h264", "-o", output, "--engine", "local", "--chunks", "3", "--progress", "plain"])
        #expect(run.status == 0, "\(run.standardError)")
        expectChunkedProgress(run.standardError, total: 150)
        #expect(ProgramRun.decodedFrames(output) == 150)
        #expect(ProgramRun.decodeErrors(output).isEmpty)
        let packets = ProgramRun.run("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries",
                                                          "packet=pts,dts,flags", "-of", "csv=p=0", output]).standardOutput
        let rows = packets.split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
        let dts = rows.compactMap { Int($0[1]) }, pts = rows.compactMap { Int($0[0]) }.sorted()
        #expect(zip(dts, dts.dropFirst()).allSatisfy { $0 < $1 }, "decoding timestamps increase")
        #expect(Set(zip(pts, pts.dropFirst()).map { $1 - $0 }).count == 1, "one frame duration throughout")
        let keyframes = rows.enumerated().filter { $0.element[2].contains("K") }.map(\.offset)
        #expect(keyframes == [0, 60, 120], "a keyframe every 2 s, where the chunks start")
        let video = Double(ProgramRun.ffprobe(output, stream: "v", entries: "stream=duration")) ?? 0
        let audio = Double(ProgramRun.ffprobe(output, stream: "a", entries: "stream=duration")) ?? 0
        #expect(abs(video - 5) < 0.001 && abs(audio - video) < 0.020, "video \(video) s, audio \(audio) s")
    }

    /// `--progress plain` of a chunked export: key=value blocks for frames over all chunks, as
    /// a one-pass export prints, never going back, the last (progress=end) at the total and
    /// before the join's line.
    func expectChunkedProgress(_ standardError: String, total: Int) {
        let lines = standardError.split(separator: "\n").map(String.init)
        let frames = lines.filter { $0.hasPrefix("frame=") }.compactMap { Int($0.dropFirst("frame=".count)) }
        #expect(frames.count >= 2 && frames.last == total, "\(standardError)")
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $0 <= $1 }, "\(frames)")
        #expect(lines.contains("total_frames=\(total)"))
        let end = lines.firstIndex(of: "progress=end"), join = lines.firstIndex { $0.hasPrefix("chunks: joining") }
        #expect(end != nil && join != nil && end! < join!, "\(standardError)")
    }

    /// A chunk that cannot be written (a folder squats its file name) is tried `--max-tries`
    /// times, then the export fails naming the chunk and its log; the rendered chunks stay,
    /// and `--resume` renders only the one that failed.
    @Test func aFailingChunkIsRetriedReportedAndResumed() throws {
        let output = directory + "/out.mkv", work = directory + "/work"
        let plan = vrender(["chunk", "plan"] + takes + ["--codec", "ffv1", "-o", output, "--work-dir", work, "--chunks", "3"])
        #expect(plan.status == 0, "\(plan.standardError)")
        try FileManager.default.createDirectory(atPath: work + "/chunks/chunk_0001.mov", withIntermediateDirectories: true)
        let arguments = takes + ["--codec", "ffv1", "-o", output, "--engine", "local", "--work-dir", work, "--resume",
                                 "--max-tries", "2", "--progress", "none"]
        let failed = concat(arguments)
        #expect(failed.status == 1, "\(failed.standardError)")
        #expect(failed.standardError.contains("vrender: error: chunk 1: failed 2 time(s); its log is \(work)/logs/chunk_0001.try2.log"),
                "\(failed.standardError)")
        #expect(failed.standardError.contains("chunk 1 failed (attempt 1)") && failed.standardError.contains("trying again"))
        #expect(FileManager.default.fileExists(atPath: work + "/logs/chunk_0001.try1.log"))
        let log = (try? String(contentsOfFile: work + "/logs/chunk_0001.try2.log", encoding: .utf8)) ?? ""
        #expect(log.contains("vrender-worker: error: "), "the chunk ran in vrender-worker: \(log)")
        #expect(!FileManager.default.fileExists(atPath: output))
        let status = vrender(["chunk", "status", work])
        #expect(status.standardOutput.contains("2/3 chunk(s) rendered") && status.standardOutput.contains("missing: 1"),
                "\(status.standardOutput)")

        try FileManager.default.removeItem(atPath: work + "/chunks/chunk_0001.mov")
        let resumed = concat(arguments)
        #expect(resumed.status == 0, "\(resumed.standardError)")
        #expect(resumed.standardError.contains("resumed: 2 already rendered"), "\(resumed.standardError)")
        let started = resumed.standardError.split(separator: "\n").filter { $0.contains(" started") }
        #expect(started == ["chunks: chunk 1 started"], "only the missing chunk renders")
        #expect(ProgramRun.decodedFrames(output) == 150)
    }

    /// The sound is a job of its own: `chunk sound` encodes it beside the chunks, the join
    /// copies it (and refuses to run without it), and the output has the one pass's sound;
    /// every chunk's done record says when its worker's first frame came.
    @Test func theSoundIsEncodedBesideTheChunksAndCopiedByTheJoin() throws {
        let whole = directory + "/whole.mov", output = directory + "/steps.mov", work = directory + "/work"
        #expect(concat(takes + ["--codec", "ffv1", "-o", whole, "--progress", "none"]).status == 0)
        let plan = vrender(["chunk", "plan"] + takes + ["--codec", "ffv1", "-o", output, "--work-dir", work, "--chunks", "2"])
        #expect(plan.status == 0, "\(plan.standardError)")
        for chunk in 0..<2 {
            let render = vrender(["chunk", "render", work, "--chunk", "\(chunk)", "--progress", "none"])
            #expect(render.status == 0, "\(render.standardError)")
        }
        let early = vrender(["chunk", "join", work, "-o", output])
        #expect(early.status == 1 && early.standardError.contains("the sound is not encoded yet"), "\(early.standardError)")
        #expect(vrender(["chunk", "status", work]).standardOutput.contains("sound: not encoded yet"))
        let sound = vrender(["chunk", "sound", work])
        #expect(sound.status == 0 && sound.standardOutput.hasPrefix("sound: aac"), "\(sound.standardError)")
        let status = vrender(["chunk", "status", work]).standardOutput
        #expect(status.contains("  sound: aac,") && status.contains("every chunk is rendered"), "\(status)")
        #expect(FileManager.default.fileExists(atPath: work + "/chunks/sound.mp4"))
        let join = vrender(["chunk", "join", work, "-o", output])
        #expect(join.status == 0, "\(join.standardError)")
        let expected = decoded(whole), got = decoded(output)
        #expect(got.video == expected.video && got.audio == expected.audio && !got.audio.isEmpty)
        for chunk in 0..<2 {
            let data = try Data(contentsOf: URL(fileURLWithPath: work + "/done/chunk_000\(chunk).json"))
            let record = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect((record["startSeconds"] as? Double).map { $0 > 0 } == true, "\(record)")
        }
    }

    @Test func aChangedInputStopsAResume() throws {
        let take = directory + "/take.mov"
        try FileManager.default.copyItem(atPath: TestMedia.path("small_a.mov"), toPath: take)
        let output = directory + "/out.mkv", work = directory + "/work"
        let plan = vrender(["chunk", "plan", take, "--codec", "ffv1", "-o", output, "--work-dir", work])
        #expect(plan.status == 0, "\(plan.standardError)")
        let handle = try #require(FileHandle(forWritingAtPath: take))
        try handle.seekToEnd()
        handle.write(Data([0]))
        try handle.close()
        let resume = concat([take, "--codec", "ffv1", "-o", output, "--engine", "local", "--work-dir", work, "--resume"])
        #expect(resume.status == 1)
        #expect(resume.standardError.contains("vrender: error: \(take): changed since \(work)/plan.json was made"), "\(resume.standardError)")
        let render = vrender(["chunk", "render", work, "--chunk", "0"])
        #expect(render.status == 1 && render.standardError.contains("changed since"), "\(render.standardError)")
    }

    /// Ctrl-C stops the workers (none outlives vrender, no partial chunk stays), exits 130 and
    /// keeps the work folder, which --resume then finishes.
    @Test func ctrlCStopsTheWorkersAndKeepsTheFolder() throws {
        let take = directory + "/long.mp4", output = directory + "/out.mkv", work = directory + "/work"
        let made = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=30",
                                                      "-t", "8", "-c:v", "libx264", take])
        #expect(made.status == 0, "\(made.standardError)")
        let arguments = ["concat", take, "--codec", "ffv1", "-o", output, "--engine", "local", "--work-dir", work,
                         "--chunks", "24", "--workers", "1"]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLineTests.binary)
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // Waits for a condition (a chunk in the done-list), not for a time.
        var done: [String] = []
        for _ in 0..<6000 where process.isRunning && done.isEmpty {
            done = (try? FileManager.default.contentsOfDirectory(atPath: work + "/done")) ?? []
            usleep(10_000)
        }
        #expect(!done.isEmpty && process.isRunning, "the export should be between chunks")
        process.interrupt()
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        #expect(FileManager.default.fileExists(atPath: work + "/plan.json"))
        let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: work + "/chunks")) ?? []
        #expect(!leftovers.contains { $0.hasSuffix(".vrender-partial") }, "\(leftovers)")
        let workers = try FileManager.default.contentsOfDirectory(atPath: "/proc").filter { name in
            guard Int(name) != nil, let data = FileManager.default.contents(atPath: "/proc/\(name)/cmdline") else { return false }
            return String(decoding: data, as: UTF8.self).contains(work)
        }
        #expect(workers.isEmpty, "no chunk worker outlives vrender")
        let resumed = vrender(arguments + ["--resume"])
        #expect(resumed.status == 0, "\(resumed.standardError)")
        #expect(ProgramRun.decodedFrames(output) == 240)
    }

    @Test(arguments: [
        (["--chunks", "3"], "need --engine"),
        (["--engine", "local", "--chunks", "2", "--chunk-seconds", "3"], "not both"),
        (["--engine", "local", "--workers", "0"], "--workers must be"),
        (["--engine", "slurm", "--workers", "2"], "--workers is for --engine local"),
        (["--engine", "local", "--slurm-args", "-p x"], "--slurm-args is for --engine slurm"),
        (["--engine", "local", "--max-tries", "0"], "--max-tries must be"),
    ])
    func engineMistakesAreUsageErrors(extra: [String], mentions: String) {
        let run = vrender(["concat", TestMedia.path("small_a.mov"), "-o", directory + "/o.mov"] + extra)
        #expect(run.status == 2, "\(run.standardError)")
        #expect(run.standardError.contains(mentions), "\(run.standardError)")
    }

    @Test func aWorkFolderWithAPlanNeedsResume() {
        let output = directory + "/out.mkv", work = directory + "/work"
        #expect(vrender(["chunk", "plan", takes[0], "--codec", "ffv1", "-o", output, "--work-dir", work]).status == 0)
        let again = concat([takes[0], "--codec", "ffv1", "-o", output, "--engine", "local", "--work-dir", work])
        #expect(again.status == 1 && again.standardError.contains("holds a chunk plan already: add --resume"), "\(again.standardError)")
        let other = concat([takes[0], "--codec", "h264", "-o", output, "--engine", "local", "--work-dir", work, "--resume"])
        #expect(other.status == 1 && other.standardError.contains("its plan is for another export"), "\(other.standardError)")
    }
}
