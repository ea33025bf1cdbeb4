import Foundation
import Testing
import VRenderTestSupport

/// A chunked export's work folder as an attacker or an accident leaves it: vrender works and
/// deletes only in what it made, writes the join's output only where its own command line says,
/// never joins a chunk that is not the one rendered, and reads a crafted plan as an error.
@Suite struct ChunkedExportSafetyTests {
    let directory = TestMedia.scratchDirectory()
    let take = TestMedia.path("small_a.mov")

    func vrender(_ arguments: [String]) -> ProgramRun {
        ProgramRun.run(CommandLineTests.binary, arguments)
    }

    func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    /// `--work-dir wd2 -o wd2/out.mov` removed wd2 with the export and a file beside it; a work
    /// folder that is the takes folder went with the takes.
    @Test func aWorkDirHoldingSomethingElseIsRefusedAndKept() throws {
        let work = directory + "/wd2"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: URL(fileURLWithPath: work + "/unrelated"))
        let export = ["concat", take, "--codec", "ffv1", "--engine", "local", "--chunks", "2", "--work-dir", work, "--progress", "none"]
        let beside = vrender(export + ["-o", directory + "/out.mkv"])
        #expect(beside.status == 1 && beside.standardError.contains("is not empty and is not a vrender work folder"), "\(beside.standardError)")
        try FileManager.default.removeItem(atPath: work + "/unrelated")
        let inside = vrender(export + ["-o", work + "/out.mkv"])
        #expect(inside.status == 1 && inside.standardError.contains("holds the output"), "\(inside.standardError)")
        #expect(exists(work) && !exists(work + "/out.mkv"))

        let takes = directory + "/takes"
        try FileManager.default.createDirectory(atPath: takes, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: take, toPath: takes + "/a.mov")
        let overTakes = vrender(["concat", takes, "--codec", "ffv1", "--engine", "local", "--work-dir", takes,
                                 "-o", directory + "/t.mkv", "--progress", "none"])
        #expect(overTakes.status == 1, "\(overTakes.standardError)")
        #expect(exists(takes + "/a.mov"), "the takes folder is kept")
    }

    /// An empty folder given as --work-dir is emptied after success, not removed; one vrender made is.
    @Test func anEmptyWorkDirGivenStaysEmpty() throws {
        let work = directory + "/wd3", output = directory + "/o3.mkv"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let run = vrender(["concat", take, "--codec", "ffv1", "--engine", "local", "--chunks", "2", "--work-dir", work,
                           "-o", output, "--progress", "none"])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: work) == [])
        #expect(ProgramRun.decodedFrames(output) == 30)
    }

    /// A plan, both chunks and its sound rendered, by hand.
    func renderedPlan(output: String, work: String) {
        let plan = vrender(["chunk", "plan", take, "--codec", "ffv1", "-o", output, "--work-dir", work, "--chunks", "2"])
        #expect(plan.status == 0, "\(plan.standardError)")
        for chunk in ["0", "1"] {
            let render = vrender(["chunk", "render", work, "--chunk", chunk, "--progress", "none"])
            #expect(render.status == 0, "\(render.standardError)")
        }
        let sound = vrender(["chunk", "sound", work])
        #expect(sound.status == 0, "\(sound.standardError)")
    }

    /// The join wrote wherever recipe.output named (over a chunk, or over a file outside with
    /// overwrite: true); now it writes only the -o given to it, which must be the plan's.
    @Test func chunkJoinWritesOnlyTheOutputOnItsCommandLine() throws {
        let output = directory + "/j.mkv", work = directory + "/w"
        renderedPlan(output: output, work: work)
        #expect(vrender(["chunk", "join", work]).status == 2, "-o is required")
        let other = vrender(["chunk", "join", work, "-o", directory + "/other.mkv"])
        #expect(other.status == 1 && other.standardError.contains("is not the output the plan in"), "\(other.standardError)")
        let overChunk = vrender(["chunk", "join", work, "-o", work + "/chunks/chunk_0001.mov"])
        #expect(overChunk.status == 1, "\(overChunk.standardError)")

        let victim = directory + "/victim.mkv"
        try Data("precious".utf8).write(to: URL(fileURLWithPath: victim))
        let planPath = work + "/plan.json"
        let original = try Data(contentsOf: URL(fileURLWithPath: planPath))
        var plan = try #require(try JSONSerialization.jsonObject(with: original) as? [String: Any])
        var recipe = try #require(plan["recipe"] as? [String: Any])
        recipe["output"] = victim
        recipe["overwrite"] = true
        plan["recipe"] = recipe
        try JSONSerialization.data(withJSONObject: plan).write(to: URL(fileURLWithPath: planPath))
        #expect(vrender(["chunk", "join", work, "-o", output]).status == 1)
        #expect(vrender(["chunk", "join", work, "-o", victim]).status == 1, "exists: needs --overwrite given here")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious")

        try original.write(to: URL(fileURLWithPath: planPath))
        let joined = vrender(["chunk", "join", work, "-o", output, "--progress", "none"])
        #expect(joined.status == 0, "\(joined.standardError)")
        #expect(ProgramRun.decodedFrames(output) == 30)
        #expect(vrender(["chunk", "join", work, "-o", output]).status == 1, "an existing output needs --overwrite")
        #expect(vrender(["chunk", "join", work, "-o", output, "--overwrite", "--progress", "none"]).status == 0)
    }

    /// chunk_0000 copied over chunk_0001, the size in its done record fixed: the join and
    /// --resume exited 0 with frames 0-14 twice.
    @Test func aSwappedChunkIsNeverJoined() throws {
        let output = directory + "/s.mkv", work = directory + "/w", whole = directory + "/whole.mkv"
        renderedPlan(output: output, work: work)
        let chunk0 = work + "/chunks/chunk_0000.mov", chunk1 = work + "/chunks/chunk_0001.mov"
        try FileManager.default.removeItem(atPath: chunk1)
        try FileManager.default.copyItem(atPath: chunk0, toPath: chunk1)
        let recordPath = work + "/done/chunk_0001.json"
        var record = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: recordPath))) as? [String: Any])
        record["bytes"] = try FileManager.default.attributesOfItem(atPath: chunk1)[.size] as? Int
        try JSONSerialization.data(withJSONObject: record).write(to: URL(fileURLWithPath: recordPath))

        let join = vrender(["chunk", "join", work, "-o", output])
        #expect(join.status == 1 && join.standardError.contains("chunk 1 is not the file its done record describes"), "\(join.standardError)")
        #expect(!exists(output))
        let resume = vrender(["concat", take, "--codec", "ffv1", "-o", output, "--engine", "local", "--work-dir", work,
                              "--resume", "--progress", "none"])
        #expect(resume.status == 0, "\(resume.standardError)")
        let started = resume.standardError.split(separator: "\n").filter { $0.contains(" started") }
        #expect(started == ["chunks: chunk 1 started"], "the swapped chunk is rendered again: \(resume.standardError)")
        #expect(vrender(["concat", take, "--codec", "ffv1", "-o", whole, "--progress", "none"]).status == 0)
        #expect(Self.frameHashes(output) == Self.frameHashes(whole))
    }

    static func frameHashes(_ file: String) -> [Substring] {
        ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-i", file, "-map", "0:v", "-f", "framemd5", "-"])
            .standardOutput.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { $0.split(separator: ",").last }
    }

    /// Each of these killed `chunk render`, `chunk join` and `concat --resume` with SIGILL.
    @Test(arguments: ["canvas", "chunks[0].frameCount", "frameRate"])
    func aCraftedPlanIsAnErrorNamingTheField(field: String) throws {
        let output = directory + "/c.mkv", work = directory + "/w"
        renderedPlan(output: output, work: work)
        let planPath = work + "/plan.json"
        var plan = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: planPath))) as? [String: Any])
        switch field {
        case "canvas": plan["canvas"] = [Int]()
        case "frameRate": plan["frameRate"] = ["numerator": 1, "denominator": 0]
        default: plan["chunks"] = [["index": 0, "firstFrame": 0, "frameCount": -50]]
        }
        try JSONSerialization.data(withJSONObject: plan).write(to: URL(fileURLWithPath: planPath))
        for run in [vrender(["chunk", "render", work, "--chunk", "0"]), vrender(["chunk", "join", work, "-o", output]),
                    vrender(["concat", take, "--codec", "ffv1", "-o", output, "--engine", "local", "--work-dir", work, "--resume"])] {
            #expect(run.status == 1, "\(run.standardError)")
            #expect(run.standardError.contains("plan.json: field '\(field)'"), "\(run.standardError)")
        }
    }

    /// The plan carries the takes' probes, so no worker probes a take; a plan whose probes lie
    /// is caught where a worker opens the take (a stream that is not the video), and, for a lie
    /// only a probe shows (the colour matrix), by the join, which probes again while it copies:
    /// no output, and its error rather than a damaged chunk's.
    @Test func workersProbeNothingAndAPlanLyingAboutItsTakesIsCaught() throws {
        let output = directory + "/p.mkv", work = directory + "/w"
        renderedPlan(output: output, work: work)
        for job in ["chunk_0000", "chunk_0001", "sound"] {
            let record = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: work + "/done/\(job).json"))) as? [String: Any])
            #expect(record["probes"] as? Int == 0, "\(job): \(record)")
        }
        let planPath = work + "/plan.json"
        let original = try Data(contentsOf: URL(fileURLWithPath: planPath))
        func planWithVideo(_ change: (inout [String: Any]) -> Void) throws {
            var plan = try #require(try JSONSerialization.jsonObject(with: original) as? [String: Any])
            var takes = try #require(plan["takes"] as? [[String: Any]])
            var video = try #require(takes[0]["video"] as? [String: Any])
            change(&video)
            takes[0]["video"] = video
            plan["takes"] = takes
            try JSONSerialization.data(withJSONObject: plan).write(to: URL(fileURLWithPath: planPath))
        }
        try planWithVideo { $0["index"] = 1 }
        let render = vrender(["chunk", "render", work, "--chunk", "0", "--progress", "none"])
        #expect(render.status == 1 && render.standardError.contains("small_a.mov: is not the file the export was planned from: its stream 1 is audio, aac, not video"),
                "\(render.standardError)")
        try planWithVideo { $0["colour"] = ["primaries": 6, "transfer": 6, "matrix": 6, "fullRange": true] }
        let join = vrender(["chunk", "join", work, "-o", output, "--progress", "none"])
        #expect(join.status == 1 && join.standardError.contains("plan.json: its probe of take 1 (\(take)) is not what the take holds now (video differ"),
                "\(join.standardError)")
        #expect(!exists(output))
        // The takes are probed again while the chunks are checked and copied: a chunk that
        // fails too gives way to the takes, the cause.
        let chunkPath = work + "/chunks/chunk_0001.mov", chunk = try Data(contentsOf: URL(fileURLWithPath: chunkPath))
        try Data("damaged".utf8).write(to: URL(fileURLWithPath: chunkPath))
        let both = vrender(["chunk", "join", work, "-o", output, "--progress", "none"])
        #expect(both.status == 1 && both.standardError.contains("plan.json: its probe of take 1"), "\(both.standardError)")
        #expect(!exists(output))
        try chunk.write(to: URL(fileURLWithPath: chunkPath))
        try original.write(to: URL(fileURLWithPath: planPath))
        #expect(vrender(["chunk", "join", work, "-o", output, "--progress", "none"]).status == 0)
        #expect(ProgramRun.decodedFrames(output) == 30)
    }

    /// A plan made from a relative take name stored that name in its probes, and every worker
    /// (in the same folder or not) refused the plan as edited.
    @Test func aPlanMadeFromRelativeNamesRendersFromAnywhere() throws {
        try FileManager.default.copyItem(atPath: take, toPath: directory + "/a.mov")
        let plan = ProgramRun.run(CommandLineTests.binary, ["chunk", "plan", "a.mov", "--codec", "ffv1", "-o", "r.mkv", "--work-dir", "w",
                                                            "--chunks", "2"], currentDirectory: directory)
        #expect(plan.status == 0, "\(plan.standardError)")
        for job in [["render", directory + "/w", "--chunk", "1"], ["sound", directory + "/w"]] {
            let run = ProgramRun.run(CommandLineTests.binary, ["chunk"] + job + ["--progress", "none"], currentDirectory: "/")
            #expect(run.status == 0, "\(run.standardError)")
        }
        let render = vrender(["chunk", "render", directory + "/w", "--chunk", "0", "--progress", "none"])
        #expect(render.status == 0, "\(render.standardError)")
        let join = ProgramRun.run(CommandLineTests.binary, ["chunk", "join", "w", "-o", "r.mkv", "--progress", "none"], currentDirectory: directory)
        #expect(join.status == 0, "\(join.standardError)")
        #expect(ProgramRun.decodedFrames(directory + "/r.mkv") == 30)
    }

    /// Killing `concat --engine local` (SIGKILL: no chance to stop anything) left its `chunk
    /// render` children running; now each stops, unfinished, as soon as the engine is gone.
    @Test func workersDieWithTheEngine() throws {
        let long = directory + "/long.mp4", work = directory + "/work"
        let made = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=30",
                                                      "-t", "8", "-c:v", "libx264", "-preset", "ultrafast", long])
        #expect(made.status == 0, "\(made.standardError)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLineTests.binary)
        process.arguments = ["concat", long, "--codec", "h264", "--preset", "veryslow", "-o", directory + "/out.mp4",
                             "--engine", "local", "--work-dir", work, "--chunks", "1", "--workers", "1"]
        process.standardError = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // Waits for conditions (a worker running, then none), never for a time.
        var workers: [String] = []
        for _ in 0..<6000 where workers.isEmpty { workers = Self.workers(of: work); usleep(10_000) }
        #expect(!workers.isEmpty, "a worker should be rendering")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        for _ in 0..<6000 where !Self.workers(of: work).isEmpty { usleep(10_000) }
        #expect(Self.workers(of: work).isEmpty, "no chunk worker outlives the engine")
        #expect(try FileManager.default.contentsOfDirectory(atPath: work + "/done") == [], "the worker stopped before finishing its chunk")
    }

    /// Processes whose command line names `work` (`vrender chunk render WORK ...`).
    static func workers(of work: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).filter { name in
            guard Int(name) != nil, let data = FileManager.default.contents(atPath: "/proc/\(name)/cmdline") else { return false }
            let words = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            return words.contains("render") && words.contains(work)
        }
    }
}
