import Foundation
import Testing
import VRenderCore
import VRenderMedia
import VRenderTestSupport
@testable import VRenderScale

/// The files of a work folder as vrender reads them back: every field checked as it loads, so a
/// crafted or damaged folder is an error naming the file and the field, never a crash.
@Suite struct WorkFolderFileTests {
    let directory = TestMedia.scratchDirectory()

    /// A plan as `chunk plan` writes it: two 15-frame FFV1 chunks of a 30-frame export.
    static func planJSON() -> [String: Any] {
        [
            "version": ChunkPlan.currentVersion, "canvas": [320, 240], "chunkContainer": "mov", "videoCodec": "ffv1",
            "chunks": [["index": 0, "firstFrame": 0, "frameCount": 15], ["index": 1, "firstFrame": 15, "frameCount": 15]],
            "frameRate": ["numerator": 30, "denominator": 1], "totalFrames": 30, "keyframeInterval": 1,
            "inputs": [["path": "/takes/a.mov", "bytes": 100, "modifiedNanoseconds": 1]],
            "recipe": ["codec": "ffv1", "filter": "none", "filterThreads": 0, "gpu": "auto", "inputs": ["/takes/a.mov"],
                       "output": "/out/j.mkv", "overwrite": false],
            "takes": [takeJSON()],
        ]
    }

    /// The plan's probe of /takes/a.mov: one second of 320x240 H.264 at 30 fps and stereo AAC.
    static func takeJSON() -> [String: Any] {
        let video: [String: Any] = [
            "index": 0, "codecName": "h264", "width": 320, "height": 240, "pixelFormat": "yuv420p",
            "timeBase": ["numerator": 1, "denominator": 15360], "frameRate": ["numerator": 30, "denominator": 1],
            "rotation": 0, "extradata": [1, 100, 0, 13], "startTime": 0, "duration": 1,
            "colour": ["primaries": 1, "transfer": 1, "matrix": 1, "fullRange": false], "bitDepth": 8, "codecTag": "avc1",
            "profile": 100, "damagedTimestamps": 0, "decodingTimesStored": true, "mirrored": false,
            "sampleAspect": ["numerator": 1, "denominator": 1], "hiddenFrames": 0,
        ]
        let audio: [String: Any] = [
            "index": 1, "codecName": "aac", "sampleRate": 48000, "channels": 2, "sampleFormat": "fltp",
            "timeBase": ["numerator": 1, "denominator": 48000], "extradata": [17, 144], "startTime": 0, "duration": 1,
        ]
        return ["path": "/takes/a.mov", "container": "mov,mp4,m4a,3gp,3g2,mj2", "video": video, "audioTracks": [audio],
                "side": ["subtitles": [Any](), "chapters": [Any](), "others": [Any]()]]
    }

    /// The plan with field `path` of its take's video (or, with `audio`, of its sound) set to `value`.
    static func takeChanged(_ path: String, to value: Any, audio: Bool = false) -> [String: Any] {
        var json = planJSON(), take = takeJSON()
        var stream = (audio ? (take["audioTracks"] as! [[String: Any]])[0] : take["video"]) as! [String: Any]
        stream[path] = value
        if audio { take["audioTracks"] = [stream] } else { take["video"] = stream }
        json["takes"] = [take]
        return json
    }

    static func load(_ json: [String: Any]) throws -> ChunkPlan {
        try ChunkPlan.load(try JSONSerialization.data(withJSONObject: json), file: "/w/plan.json")
    }

    static func recipe(_ json: inout [String: Any], _ change: (inout [String: Any]) -> Void) {
        var recipe = json["recipe"] as! [String: Any]
        change(&recipe)
        json["recipe"] = recipe
    }

    /// The plan with `field` out of range, as an attacker or a damaged disk would leave it.
    static func broken(_ field: String) -> [String: Any] {
        var json = planJSON()
        switch field {
        case "canvas": json["canvas"] = [Int]()
        case "recipe.size": recipe(&json) { $0["size"] = [2] }
        case "chunks[0].frameCount": json["chunks"] = [["index": 0, "firstFrame": 0, "frameCount": -50]]
        case "frameRate": json["frameRate"] = ["numerator": 1, "denominator": 0]
        case "recipe.prompter.box":
            recipe(&json) { $0["prompter"] = ["script": "/s.txt", "settings": ["speed": 24, "fontSize": 28, "ending": "pause"], "box": [1]] }
        case "recipe.frameRate": recipe(&json) { $0["frameRate"] = ["numerator": 30, "denominator": 0] }
        case "recipe.crf": recipe(&json) { $0["crf"] = 99 }
        case "recipe.output": recipe(&json) { $0["output"] = "chunks/chunk_0001.mov" }
        case "recipe.codec": recipe(&json) { $0["codec"] = "copy" }
        case "chunks[1].firstFrame":
            json["chunks"] = [["index": 0, "firstFrame": 0, "frameCount": 15], ["index": 1, "firstFrame": 0, "frameCount": 30]]
        case "chunks": json["chunks"] = [["index": 0, "firstFrame": 0, "frameCount": 15]]
        case "totalFrames": json["totalFrames"] = -1
        case "keyframeInterval": json["keyframeInterval"] = 0
        case "inputs": json["inputs"] = [[String: Any]]()
        case "sound": json["sound"] = "../../etc/x"
        case "takes": json["takes"] = [Any]()
        case "takes[0].path":
            var take = takeJSON()
            take["path"] = "/elsewhere/b.mov"
            json["takes"] = [take]
        case "takes[0].video.width": json = takeChanged("width", to: 1 << 40)
        case "takes[0].video.timeBase": json = takeChanged("timeBase", to: ["numerator": 1, "denominator": 0])
        case "takes[0].video.frameRate": json = takeChanged("frameRate", to: ["numerator": 1_000_000, "denominator": 1])
        case "takes[0].video.duration": json = takeChanged("duration", to: 1e300)
        case "takes[0].video.startTime": json = takeChanged("startTime", to: -1e300)
        case "takes[0].video.index": json = takeChanged("index", to: -1)
        case "takes[0].video.displayMatrix": json = takeChanged("displayMatrix", to: [1, 2])
        case "takes[0].video.sampleAspect": json = takeChanged("sampleAspect", to: ["numerator": 1000, "denominator": 1])
        case "takes[0].video.extradata": json = takeChanged("extradata", to: [Int](repeating: 7, count: (1 << 18) + 1))
        case "takes[0].audioTracks[0].channels": json = takeChanged("channels", to: 0, audio: true)
        case "takes[0].video.label":
            json = takeChanged("label", to: ["language": String(repeating: "x", count: 100), "title": "", "dispositions": [String]()])
        case "takes[0].audioTracks[0].label":
            json = takeChanged("label", to: ["language": "eng", "title": "", "dispositions": ["default", "rm -rf"]], audio: true)
        case "takes[0].audioTracks[0].sampleRate": json = takeChanged("sampleRate", to: -48000, audio: true)
        default: Issue.record("no way to break \(field)")
        }
        return json
    }

    /// Each was a SIGILL in `chunk render`, `chunk join` or `concat --resume` (an index out of
    /// range, an invalid range, a Double -> Int of infinity), or a plan accepted that should not be.
    @Test(arguments: ["canvas", "recipe.size", "chunks[0].frameCount", "frameRate", "recipe.prompter.box", "recipe.frameRate",
                      "recipe.crf", "recipe.output", "recipe.codec", "chunks[1].firstFrame", "chunks", "totalFrames",
                      "keyframeInterval", "inputs", "sound", "takes", "takes[0].path", "takes[0].video.width",
                      "takes[0].video.timeBase", "takes[0].video.frameRate", "takes[0].video.duration",
                      "takes[0].video.startTime", "takes[0].video.index", "takes[0].video.displayMatrix",
                      "takes[0].video.sampleAspect", "takes[0].video.extradata", "takes[0].audioTracks[0].channels",
                      "takes[0].audioTracks[0].sampleRate", "takes[0].video.label", "takes[0].audioTracks[0].label"])
    func aPlanWithAFieldOutOfRangeIsRefusedNamingIt(field: String) throws {
        _ = try Self.load(Self.planJSON())   // the unchanged plan loads
        let error = try #require(throws: VRenderError.self) { try Self.load(Self.broken(field)) }
        #expect(error.kind == .input && "\(error)".contains("/w/plan.json") && "\(error)".contains("'\(field)'"), "\(error)")
    }

    /// A plan written before takes carried labels (no "label" anywhere) loads, its takes
    /// unlabelled; a label in a plan loads as it was written.
    @Test func labelsAreOptionalInAPlan() throws {
        #expect(try Self.load(Self.planJSON()).takes[0].audioTracks[0].label == TrackLabel())
        let label: [String: Any] = ["language": "deu", "title": "Commentary", "dispositions": ["forced"]]
        let plan = try Self.load(Self.takeChanged("label", to: label, audio: true))
        #expect(plan.takes[0].audioTracks[0].label == TrackLabel(language: "deu", title: "Commentary", dispositions: ["forced"]))
    }

    /// The fuzzer's seed plan (and the valid plan its harness puts beside a fuzzed done record)
    /// is one this vrender reads: a seed of an older version only exercises the refusal.
    @Test func theFuzzSeedPlanIsCurrent() throws {
        let seed = TestMedia.repositoryRoot + "/testdata/fuzz/chunk-plan/plan.json"
        let plan = try ChunkPlan.load(try Data(contentsOf: URL(fileURLWithPath: seed)), file: seed)
        #expect(plan.takes.count == 1 && plan.sound == "mp4" && plan.takes[0].side.chapters.count == 1)
    }

    /// 20000 one-frame chunks: more than `maxChunks` (a plan of a million was accepted).
    @Test func tooManyChunksAreRefused() throws {
        var json = Self.planJSON()
        json["totalFrames"] = 20_000
        json["chunks"] = (0..<20_000).map { ["index": $0, "firstFrame": $0, "frameCount": 1] }
        let error = try #require(throws: VRenderError.self) { try Self.load(json) }
        #expect("\(error)".contains("has 20000 chunk(s), not 1 to 10000"), "\(error)")
    }

    @Test func aPlanThatIsNotJSONNamesTheMissingField() throws {
        var json = Self.planJSON()
        json["canvas"] = nil
        let error = try #require(throws: VRenderError.self) { try Self.load(json) }
        #expect("\(error)".contains("field 'canvas' is missing"), "\(error)")
    }

    @Test func sha256IsFFmpegsAndRight() throws {
        let file = directory + "/abc"
        try Data("abc".utf8).write(to: URL(fileURLWithPath: file))
        let descriptor = open(file, O_RDONLY)
        defer { close(descriptor) }
        #expect(try ChunkHash.sha256(descriptor: descriptor, file: file) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(ChunkHash.isWellFormed("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"))
        #expect(!ChunkHash.isWellFormed("BA7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"))
    }

    /// Chunk `chunk`'s done record in `folder`, read, changed by `change` and written back: what
    /// a hand on the shared folder does.
    static func editRecord(of chunk: Int, in folder: WorkFolder, _ change: (inout ChunkRecord) -> Void) throws {
        let url = URL(fileURLWithPath: folder.path + "/done/chunk_\(String(format: "%04d", chunk)).json")
        var record = try JSONDecoder().decode(ChunkRecord.self, from: Data(contentsOf: url))
        change(&record)
        try JSONEncoder().encode(record).write(to: url)
    }

    /// A work folder holding the plan above, with both chunks "rendered" (files of bytes).
    func renderedFolder() throws -> (WorkFolder, ChunkPlan) {
        let folder = WorkFolder(path: directory + "/work")
        let plan = try Self.load(Self.planJSON())
        try folder.create()
        try folder.save(plan)
        for index in 0..<2 {
            try Data(repeating: UInt8(index), count: 1000 + index).write(to: URL(fileURLWithPath: try folder.chunkFileForWriting(index, plan: plan)))
            _ = try folder.markDone(index, plan: plan) {
                ChunkRecord(index: index, frames: 15, bytes: $0, sha256: $1, seconds: 1, host: "h", encoder: "ffv1",
                            damagedFrames: [:], warnings: [])
            }
        }
        return (folder, plan)
    }

    /// Chunk 0 copied over chunk 1, its record's size fixed: joined twice before, silently.
    @Test func aSwappedChunkIsNotDoneAndTheJoinNamesIt() throws {
        let (folder, plan) = try renderedFolder()
        #expect(try folder.doneChunks(plan) == [0, 1])
        let chunk1 = try folder.chunkFileForWriting(1, plan: plan)
        try FileManager.default.removeItem(atPath: chunk1)
        try FileManager.default.copyItem(atPath: try folder.chunkFileForWriting(0, plan: plan), toPath: chunk1)
        try Self.editRecord(of: 1, in: folder) { $0.bytes = 1000 }
        #expect(try folder.doneChunks(plan) == [0], "rendered again on resume")
        let error = try #require(throws: VRenderError.self) { try folder.renderedChunks(plan) }
        #expect("\(error)".contains("chunk_0001.mov: chunk 1 is not the file its done record describes"), "\(error)")
    }

    /// A FIFO or a link put where a chunk was is no chunk: the check does not wait on the FIFO
    /// (this returns at all) nor follow the link, and the join names the chunk.
    @Test func aFIFOOrALinkInPlaceOfAChunkIsNotDone() throws {
        let (folder, plan) = try renderedFolder()
        let chunk0 = try folder.chunkFileForWriting(0, plan: plan), chunk1 = try folder.chunkFileForWriting(1, plan: plan)
        try FileManager.default.moveItem(atPath: chunk1, toPath: directory + "/outside.mov")
        try FileManager.default.createSymbolicLink(atPath: chunk1, withDestinationPath: directory + "/outside.mov")
        try FileManager.default.removeItem(atPath: chunk0)
        #expect(mkfifo(chunk0, 0o644) == 0)
        #expect(try folder.doneChunks(plan).isEmpty, "both rendered again on resume")
        let error = try #require(throws: VRenderError.self) { try folder.renderedChunks(plan) }
        #expect("\(error)".contains("chunk_0000.mov: chunk 0 is missing"), "\(error)")
    }

    @Test func aMalformedDoneRecordIsAnErrorNamingIt() throws {
        let (folder, plan) = try renderedFolder()
        try Self.editRecord(of: 1, in: folder) { $0.index = 7 }
        let error = try #require(throws: VRenderError.self) { try folder.doneChunks(plan) }
        #expect("\(error)".contains("chunk_0001.json: field 'index' is 7"), "\(error)")
    }

    /// The sound is job 2 (one past the last chunk), with a file and a record of its own: done
    /// only as recorded, and the join names it while it is missing or not the file recorded.
    @Test func theSoundIsAJobOfItsOwnInTheDoneList() throws {
        var json = Self.planJSON()
        json["sound"] = "mp4"
        let plan = try Self.load(json)
        #expect(plan.soundJob == 2 && plan.jobs == [2, 0, 1])
        let folder = WorkFolder(path: directory + "/work")
        try folder.create()
        try folder.save(plan)
        let sound = try folder.chunkFileForWriting(2, plan: plan)
        #expect(sound == folder.path + "/chunks/sound.mp4")
        let missing = try #require(throws: VRenderError.self) { try folder.renderedSound(plan) }
        #expect("\(missing)".contains("the sound is not encoded yet"), "\(missing)")
        try Data(repeating: 7, count: 500).write(to: URL(fileURLWithPath: sound))
        _ = try folder.markDone(2, plan: plan) {
            ChunkRecord(index: 2, frames: 0, bytes: $0, sha256: $1, seconds: 1, host: "h", encoder: "aac",
                        damagedFrames: [:], warnings: [])
        }
        #expect(FileManager.default.fileExists(atPath: folder.path + "/done/sound.json"))
        #expect(try folder.doneChunks(plan) == [2])
        #expect(try folder.renderedSound(plan) == sound)
        try Data(repeating: 8, count: 500).write(to: URL(fileURLWithPath: sound))
        #expect(try folder.doneChunks(plan).isEmpty, "encoded again on resume")
        let changed = try #require(throws: VRenderError.self) { try folder.renderedSound(plan) }
        #expect("\(changed)".contains("sound.mp4: the sound is not the file its done record describes"), "\(changed)")
    }

    /// A record's start-up is a time: a negative or infinite one is refused naming the field.
    @Test func aDoneRecordsStartUpMustBeATime() throws {
        let (folder, plan) = try renderedFolder()
        try Self.editRecord(of: 1, in: folder) { $0.startSeconds = -1 }
        let error = try #require(throws: VRenderError.self) { try folder.doneChunks(plan) }
        #expect("\(error)".contains("chunk_0001.json: field 'startSeconds' is -1.0"), "\(error)")
    }

    /// The job ids become scancel's arguments: an option there is refused.
    @Test func aJobsListThatIsNotJobIdsIsRefused() throws {
        let (folder, _) = try renderedFolder()
        try folder.recordSubmitted("123")
        #expect(try folder.submittedJobs() == ["123"])
        try "123\n--user=everyone\n".write(toFile: folder.path + "/slurm/jobs", atomically: true, encoding: .utf8)
        let error = try #require(throws: VRenderError.self) { try folder.submittedJobs() }
        #expect("\(error)".contains("slurm/jobs: line 2 is not a Slurm job id"), "\(error)")
    }

    /// A `chunks` link to a folder outside: nothing is written or read through it.
    @Test func aChunksLinkIsNotFollowed() throws {
        let (folder, plan) = try renderedFolder()
        let outside = directory + "/outside"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try FileManager.default.removeItem(atPath: folder.path + "/chunks")
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/chunks", withDestinationPath: outside)
        #expect(throws: VRenderError.self) { try folder.chunkFileForWriting(0, plan: plan) }
        folder.remove()
        #expect(FileManager.default.fileExists(atPath: outside), "the link's target is not removed")
        #expect(!FileManager.default.fileExists(atPath: folder.path), "the link itself and the folder vrender made are")
    }
}
