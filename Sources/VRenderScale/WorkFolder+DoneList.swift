import Foundation
import VRenderCore
import VRenderExport

/// The done-list: a chunk is done when its record is there and its file is the one the record
/// describes, byte for byte (size and SHA-256). A chunk file copied over another, or changed
/// since, is rendered again by `--resume` and refused by the join, never joined silently.
extension WorkFolder {
    enum ChunkState: Sendable {
        case done(ChunkRecord)
        case notRendered
        /// A record whose file is missing or differs: why, in a few words.
        case mismatch(String)
    }

    /// Where chunk `index` is written: beneath `chunks/`, opened without following a link.
    func chunkFileForWriting(_ index: Int, plan: ChunkPlan) throws -> String {
        try subfolder(Self.chunksName).join(Self.chunkName(index, plan: plan))
    }

    /// Size and SHA-256 of chunk `index` as it is now; nil when there is no such file.
    func fingerprint(of index: Int, plan: ChunkPlan) throws -> (bytes: Int64, sha256: String)? {
        let chunks = try subfolder(Self.chunksName)
        // Not a regular file there (a link, a FIFO: never waited on) is as good as none.
        guard let file = try? HeldFile.open(Self.chunkName(index, plan: plan), in: chunks) else { return nil }
        return (Int64(file.size), try ChunkHash.sha256(descriptor: file.descriptor, file: file.path))
    }

    /// Chunk `index`'s record, read and checked against the plan; nil when there is none.
    /// A record that is there but malformed is an error naming it and the field.
    func storedRecord(of index: Int, plan: ChunkPlan) throws -> ChunkRecord? {
        let done = try subfolder(Self.doneName), name = Self.recordName(index, plan: plan)
        guard done.status(name) != nil else { return nil }
        let check = FieldCheck(file: done.join(name))
        let record = try check.decode(ChunkRecord.self, from: try done.readFile(name, limit: ChunkRecord.maxFileBytes), what: "a done record")
        try record.validate(file: check.file, chunk: plan.job(index))
        return record
    }

    func state(of index: Int, plan: ChunkPlan) throws -> ChunkState {
        guard let record = try storedRecord(of: index, plan: plan) else { return .notRendered }
        guard let now = try fingerprint(of: index, plan: plan) else { return .mismatch("is missing") }
        guard now.bytes == record.bytes else { return .mismatch("is \(now.bytes) bytes, its done record says \(record.bytes)") }
        guard now.sha256 == record.sha256 else { return .mismatch("is not the file its done record describes (SHA-256 differs)") }
        return .done(record)
    }

    /// Chunk `index`'s record when its file is there as recorded.
    func record(of index: Int, plan: ChunkPlan) throws -> ChunkRecord? {
        if case .done(let record) = try state(of: index, plan: plan) { return record }
        return nil
    }

    /// The jobs (chunks, and the sound) whose file is there as recorded: the others are run (again).
    public func doneChunks(_ plan: ChunkPlan) throws -> Set<Int> {
        Set(try plan.jobs.filter { try record(of: $0, plan: plan) != nil })
    }

    /// Adds chunk `index`, just written, to the done-list, with its size and SHA-256 as it is
    /// on disk now.
    func markDone(_ index: Int, plan: ChunkPlan, record make: (Int64, String) -> ChunkRecord) throws -> ChunkRecord {
        guard let now = try fingerprint(of: index, plan: plan) else {
            throw VRenderError.output(try chunkFileForWriting(index, plan: plan), "vanished right after it was written")
        }
        let record = make(now.bytes, now.sha256)
        try AtomicFile.writeJSON(record, in: try subfolder(Self.doneName), name: Self.recordName(index, plan: plan))
        return record
    }

    /// Every chunk, for the join; throws naming the chunks not rendered yet, or the first one
    /// that is not the file its record describes.
    func renderedChunks(_ plan: ChunkPlan, threads: Int = 1) throws -> [RenderedChunk] {
        var missing: [Int] = []
        // Each file's SHA-256 is independent of the others': on `threads` threads (the join's tail waits for them).
        let states = try InOrderMap.map(plan.chunks.count, threads: threads) { try state(of: plan.chunks[$0].index, plan: plan) }
        for (chunk, state) in zip(plan.chunks, states) {
            switch state {
            case .done: continue
            case .notRendered: missing.append(chunk.index)
            case .mismatch(let why):
                throw VRenderError.input(try chunkFileForWriting(chunk.index, plan: plan),
                                         "chunk \(chunk.index) \(why): render it again ('vrender concat ... --work-dir \(path) --resume' does)")
            }
        }
        guard missing.isEmpty else {
            throw VRenderError.input(path, "\(missing.count) of \(plan.chunks.count) chunk(s) are not rendered yet (\(ChunkList.text(missing))): render them first ('vrender chunk status \(path)')")
        }
        return try plan.chunks.map {
            RenderedChunk(path: try chunkFileForWriting($0.index, plan: plan), firstFrame: $0.firstFrame, frameCount: $0.frameCount)
        }
    }

    /// The sound file, for the join (nil when the export has none); throws when it is not
    /// encoded yet, or is not the file its record describes.
    func renderedSound(_ plan: ChunkPlan) throws -> String? {
        guard let job = plan.soundJob else { return nil }
        let path = try chunkFileForWriting(job, plan: plan)
        switch try state(of: job, plan: plan) {
        case .done: return path
        case .notRendered:
            throw VRenderError.input(path, "the sound is not encoded yet: encode it first ('vrender chunk sound \(self.path)')")
        case .mismatch(let why):
            throw VRenderError.input(path, "the sound \(why): encode it again ('vrender concat ... --work-dir \(self.path) --resume' does)")
        }
    }
}
