import Foundation
import VRenderCore
import VRenderExport

/// The folder a chunked export works in, on a file system every worker mounts at the same path:
///
///     .vrender-work-folder       the marker: vrender's work folder (and whether vrender made it)
///     plan.json                  the chunk plan (`ChunkPlan`)
///     chunks/chunk_0003.mov      rendered chunks (each written to a temporary file, renamed)
///     chunks/sound.mp4           the export's sound, encoded by a job of its own (.mka: Opus)
///     done/chunk_0003.json       the done-list: one record per finished job (`ChunkRecord`)
///     logs/chunk_0003.try1.log   each attempt's output (Slurm: chunk_0003.job<ID>.log; sound.…)
///     progress/chunk_0003        frames a worker has rendered so far, for the bar (`ChunkProgress`)
///     slurm/                     batch scripts and the jobs submitted (Slurm engine)
///     joined.json                the join's summary
///
/// One file per finished chunk, not one list: workers on many machines finish at once, and a
/// rename is atomic where appending to one shared file (over NFS) is not.
///
/// Everything below the folder is reached by descriptor without following links (a `chunks`
/// link cannot send chunks elsewhere), and every file read back is checked field by field as it
/// loads: the folder may be shared, and is only as trustworthy as whoever can write it.
public struct WorkFolder: Sendable {
    public let path: String

    public init(path: String) {
        self.path = FileNames.absolute(path)
    }

    static let planName = "plan.json"
    static let chunksName = "chunks"
    static let doneName = "done"
    static let logsName = "logs"
    static let slurmName = "slurm"
    static let progressName = "progress"
    static let joinedName = "joined.json"
    static let jobsName = "jobs"
    /// The subfolders vrender makes, and removes with everything in them.
    static let subfolders = [chunksName, doneName, logsName, slurmName, progressName]

    public var planPath: String { path + "/" + Self.planName }
    public var logsPath: String { path + "/" + Self.logsName }
    var slurmPath: String { path + "/" + Self.slurmName }
    var joinedPath: String { path + "/" + Self.joinedName }

    static func name(ofChunk index: Int) -> String { String(format: "chunk_%04d", index) }

    static let soundName = "sound"

    /// Job `index`'s name in the folder's files: a chunk's, or the sound's.
    static func name(ofJob index: Int, plan: ChunkPlan) -> String {
        index == plan.soundJob ? soundName : name(ofChunk: index)
    }

    static func chunkName(_ index: Int, plan: ChunkPlan) -> String {
        index == plan.soundJob ? "\(soundName).\(plan.sound ?? "")" : "\(name(ofChunk: index)).\(plan.chunkContainer)"
    }

    static func recordName(_ index: Int) -> String { "\(name(ofChunk: index)).json" }
    static func recordName(_ index: Int, plan: ChunkPlan) -> String { "\(name(ofJob: index, plan: plan)).json" }

    /// The local engine's log of one attempt at a job.
    static func logName(job index: Int, attempt: Int, plan: ChunkPlan) -> String { "\(name(ofJob: index, plan: plan)).try\(attempt).log" }
    func log(job index: Int, attempt: Int, plan: ChunkPlan) -> String { logsPath + "/" + Self.logName(job: index, attempt: attempt, plan: plan) }

    /// The folder itself (reached through links, if the user named it so).
    func root() throws -> FolderHandle { try FolderHandle.open(path) }

    /// One of `subfolders`, opened beneath the folder without following a link.
    func subfolder(_ name: String) throws -> FolderHandle { try root().folder(name) }

    public var hasPlan: Bool { (try? root())?.status(Self.planName) != nil }

    /// The plan, read (at most `ChunkPlan.maxFileBytes`) and checked field by field.
    public func loadPlan() throws -> ChunkPlan {
        guard let root = try? root(), root.status(Self.planName) != nil else {
            throw VRenderError.input(planPath, "no chunk plan there (make one with 'vrender chunk plan' or 'vrender concat --engine')")
        }
        return try ChunkPlan.load(try root.readFile(Self.planName, limit: ChunkPlan.maxFileBytes), file: planPath)
    }

    func save(_ plan: ChunkPlan) throws { try AtomicFile.writeJSON(plan, in: try root(), name: Self.planName) }

    /// The summary the join leaves for whoever submitted it.
    func saveJoined(_ summary: ExportSummary) throws {
        try AtomicFile.writeJSON(summary, in: try root(), name: Self.joinedName)
    }

    /// The join's summary; nil when there is none (yet).
    func loadJoined() throws -> ExportSummary? {
        let root = try root()
        guard root.status(Self.joinedName) != nil else { return nil }
        let data = try root.readFile(Self.joinedName, limit: ChunkPlan.maxFileBytes)
        return try FieldCheck(file: joinedPath).decode(ExportSummary.self, from: data, what: "a join summary")
    }

    func forgetJoined() { (try? root())?.remove(Self.joinedName) }

    /// A new, empty log for an attempt (one an earlier run left with the same name is replaced).
    func createLog(job index: Int, attempt: Int, plan: ChunkPlan) throws -> FileHandle {
        let logs = try subfolder(Self.logsName), name = Self.logName(job: index, attempt: attempt, plan: plan)
        logs.remove(name)
        return FileHandle(fileDescriptor: try logs.createExclusive(name), closeOnDealloc: true)
    }

    /// True once a chunk was tried: a log or a done record exists.
    func hasStartedWork() -> Bool {
        [Self.logsName, Self.doneName].contains { ((try? subfolder($0).names()) ?? []).contains { !$0.hasPrefix(".") } }
    }

    /// The Slurm jobs the run following this folder submitted, one id a line (`slurm/jobs`),
    /// each checked to be a job id (they become scancel's arguments).
    func submittedJobs() throws -> [String] {
        let slurm = try subfolder(Self.slurmName)
        guard slurm.status(Self.jobsName) != nil else { return [] }
        let file = slurm.join(Self.jobsName)
        let lines = String(decoding: try slurm.readFile(Self.jobsName, limit: 1 << 20), as: UTF8.self).split(separator: "\n")
        for (number, line) in lines.enumerated() where !(1...20).contains(line.utf8.count) || !line.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
            throw VRenderError.input(file, "line \(number + 1) is not a Slurm job id: not what vrender writes there (damaged or edited?)")
        }
        return lines.map(String.init)
    }

    /// Adds a submitted job to the list; written before anything else can happen, so a run killed
    /// right after submitting still leaves its jobs for the next `--resume` to cancel.
    func recordSubmitted(_ id: String) throws {
        try write(text: (try submittedJobs() + [id]).joined(separator: "\n") + "\n", in: try subfolder(Self.slurmName), name: Self.jobsName)
    }

    func forgetSubmittedJobs() { (try? subfolder(Self.slurmName))?.remove(Self.jobsName) }

    /// Writes `text` (UTF-8) atomically as `name` in `folder`.
    func write(text: String, in folder: FolderHandle, name: String) throws {
        try Data(text.utf8).withUnsafeBytes { try AtomicFile.write($0, in: folder, name: name) }
    }
}

/// Chunk numbers as people read them: "0-3,5,9-10".
enum ChunkList {
    static func text(_ indices: [Int]) -> String {
        var runs: [String] = []
        var index = 0
        let sorted = indices.sorted()
        while index < sorted.count {
            var end = index
            while end + 1 < sorted.count && sorted[end + 1] == sorted[end] + 1 { end += 1 }
            runs.append(end == index ? "\(sorted[index])" : "\(sorted[index])-\(sorted[end])")
            index = end + 1
        }
        return runs.joined(separator: ",")
    }
}
