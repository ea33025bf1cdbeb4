import Foundation
import VRenderCore
import VRenderExport

/// The folder a chunked export works in, on a file system every worker mounts at the same path:
///
///     plan.json                  the chunk plan (`ChunkPlan`)
///     chunks/chunk_0003.mov      rendered chunks (each written to a temporary file, renamed)
///     done/chunk_0003.json       the done-list: one record per finished chunk (`ChunkRecord`)
///     logs/chunk_0003.try1.log   each attempt's output (Slurm: chunk_0003.job<ID>.log)
///     slurm/                     batch scripts and the jobs submitted (Slurm engine)
///     joined.json                the join's summary
///
/// One file per finished chunk, not one list: workers on many machines finish at once, and a
/// rename is atomic where appending to one shared file (over NFS) is not.
public struct WorkFolder: Sendable {
    public let path: String

    public init(path: String) {
        self.path = FileNames.absolute(path)
    }

    public var planPath: String { path + "/plan.json" }
    var chunksPath: String { path + "/chunks" }
    var donePath: String { path + "/done" }
    public var logsPath: String { path + "/logs" }
    var slurmPath: String { path + "/slurm" }
    var joinedPath: String { path + "/joined.json" }

    static func name(ofChunk index: Int) -> String { String(format: "chunk_%04d", index) }

    func chunkFile(_ index: Int, plan: ChunkPlan) -> String {
        "\(chunksPath)/\(Self.name(ofChunk: index)).\(plan.chunkContainer)"
    }

    func doneRecord(_ index: Int) -> String { "\(donePath)/\(Self.name(ofChunk: index)).json" }

    /// The local engine's log of one attempt at a chunk.
    func log(chunk index: Int, attempt: Int) -> String { "\(logsPath)/\(Self.name(ofChunk: index)).try\(attempt).log" }

    /// Makes the folder and its subfolders (existing ones are kept).
    func create() throws {
        for folder in [path, chunksPath, donePath, logsPath, slurmPath] {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw VRenderError.output(folder, "cannot create the work folder (\(VRenderError.systemReason(error)))")
            }
        }
    }

    public var hasPlan: Bool { FileNames.status(planPath) != nil }

    public func loadPlan() throws -> ChunkPlan {
        guard let data = FileManager.default.contents(atPath: planPath) else {
            throw VRenderError.input(planPath, "no chunk plan there (make one with 'vrender chunk plan' or 'vrender concat --engine')")
        }
        let plan: ChunkPlan
        do { plan = try JSONDecoder().decode(ChunkPlan.self, from: data) } catch {
            throw VRenderError.input(planPath, "is not a chunk plan vrender can read (\(error))")
        }
        guard plan.version == ChunkPlan.currentVersion else {
            throw VRenderError.input(planPath, "is a version \(plan.version) plan; this vrender reads version \(ChunkPlan.currentVersion)")
        }
        return plan
    }

    func save(_ plan: ChunkPlan) throws { try AtomicFile.writeJSON(plan, to: planPath) }

    func markDone(_ record: ChunkRecord) throws { try AtomicFile.writeJSON(record, to: doneRecord(record.index)) }

    /// The chunks whose record exists and whose file is there with the size recorded: a chunk
    /// file removed or replaced since is rendered again.
    public func doneChunks(_ plan: ChunkPlan) -> Set<Int> {
        Set(plan.chunks.map(\.index).filter { record(of: $0, plan: plan) != nil })
    }

    /// True once a chunk was tried: one is done, or a log exists.
    func hasStartedWork(_ plan: ChunkPlan) -> Bool {
        let logs = (try? FileManager.default.contentsOfDirectory(atPath: logsPath)) ?? []
        return !logs.isEmpty || !doneChunks(plan).isEmpty
    }

    /// Chunk `index`'s done record, when its file is there as recorded.
    func record(of index: Int, plan: ChunkPlan) -> ChunkRecord? {
        guard let data = FileManager.default.contents(atPath: doneRecord(index)),
              let record = try? JSONDecoder().decode(ChunkRecord.self, from: data),
              let status = FileNames.status(chunkFile(index, plan: plan)),
              Int64(status.st_size) == record.bytes, record.frames == plan.chunks[index].frameCount else { return nil }
        return record
    }

    /// Every chunk, for the join; throws naming the chunks not rendered yet.
    func renderedChunks(_ plan: ChunkPlan) throws -> [RenderedChunk] {
        let missing = Set(plan.chunks.map(\.index)).subtracting(doneChunks(plan)).sorted()
        guard missing.isEmpty else {
            throw VRenderError.input(path, "\(missing.count) of \(plan.chunks.count) chunk(s) are not rendered yet (\(ChunkList.text(missing))): render them first ('vrender chunk status \(path)')")
        }
        return plan.chunks.map { RenderedChunk(path: chunkFile($0.index, plan: plan), firstFrame: $0.firstFrame, frameCount: $0.frameCount) }
    }

    /// The Slurm jobs the run following this folder submitted, one id a line (`slurm/jobs`).
    var submittedJobs: [String] {
        ((try? String(contentsOfFile: jobsPath, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// Adds a submitted job to the list; written before anything else can happen, so a run killed
    /// right after submitting still leaves its jobs for the next `--resume` to cancel.
    func recordSubmitted(_ id: String) throws {
        try Self.write(text: (submittedJobs + [id]).joined(separator: "\n") + "\n", to: jobsPath)
    }

    func forgetSubmittedJobs() {
        try? FileManager.default.removeItem(atPath: jobsPath)
    }

    private var jobsPath: String { slurmPath + "/jobs" }

    /// Writes `text` (UTF-8) to `path` atomically.
    static func write(text: String, to path: String) throws {
        try Data(text.utf8).withUnsafeBytes { try AtomicFile.write($0, to: path) }
    }

    /// After a successful export: everything goes (the chunks are as big as the output).
    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// One line of the done-list: a chunk rendered, by whom, how fast.
public struct ChunkRecord: Codable, Sendable, Equatable {
    public var index: Int
    public var frames: Int
    public var bytes: Int64
    public var seconds: Double
    public var host: String
    /// The encoder that wrote it ("libx264"), for the join's summary.
    public var encoder: String
    /// Damage met while rendering it (packets or frames skipped per take, warnings), for the
    /// export's summary: a chunk's log is not where anyone looks when it succeeded.
    public var damagedFrames: [String: Int]
    public var warnings: [String]
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
