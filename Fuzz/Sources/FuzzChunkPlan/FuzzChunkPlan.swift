import Foundation
import FuzzSupport
import VRenderCore
import VRenderScale

// Fuzz target: the files of a chunked export's work folder as `vrender chunk render|join|status`
// and `concat --engine --resume` read them back (a shared folder anyone may write). Each input is
// written three ways, then read by the loaders the commands use:
//   PLAN/plan.json            -> WorkFolder.loadPlan()   (the plan, every field checked)
//   DONE/done/chunk_0000.json -> ChunkStatus(folder:)    (a done record, beside a valid plan)
//   JOBS/slurm/jobs           -> ChunkStatus(folder:)    (the Slurm jobs list)
// Besides not crashing, a refusal must be an input error (naming the file), and an accepted plan
// must be one a worker can use: chunks contiguous from 0, covering the frames, a canvas of two.

/// A valid plan (testdata/fuzz/chunk-plan/plan.json) for the folders whose other files are fuzzed.
private let validPlan = #"{"canvas":[640,360],"chunkContainer":"mov","chunks":[{"firstFrame":0,"frameCount":30,"index":0}],"frameRate":{"denominator":1001,"numerator":30000},"inputs":[{"bytes":112437,"modifiedNanoseconds":1795643104492152341,"path":"/takes/a.mov"},{"bytes":76568,"modifiedNanoseconds":1795642988020550896,"path":"/takes/script.txt"}],"keyframeInterval":60,"recipe":{"codec":"h264","filter":"noir","filterThreads":0,"frameRate":{"denominator":1001,"numerator":30000},"gpu":"auto","inputs":["/takes/a.mov"],"output":"/out/sj.mkv","overwrite":false,"prompter":{"box":[10,20,300,200],"script":"/takes/script.txt","settings":{"ending":"pause","fontSize":28,"speed":24}},"size":[640,360]},"totalFrames":30,"version":2,"videoCodec":"h264"}"#

/// A work folder as `chunk plan` leaves it, with the valid plan and chunk 0's file ("chunk").
private func workFolder(_ name: String) -> String {
    let folder = FuzzScratch.path(name)
    do {
        for sub in ["chunks", "done", "logs", "slurm"] {
            try FileManager.default.createDirectory(atPath: folder + "/" + sub, withIntermediateDirectories: true)
        }
        try Data(validPlan.utf8).write(to: URL(fileURLWithPath: folder + "/plan.json"))
        try Data("chunk".utf8).write(to: URL(fileURLWithPath: folder + "/chunks/chunk_0000.mov"))
    } catch {
        preconditionFailure("fuzz harness: cannot make \(folder): \(error)")
    }
    return folder
}

private let folders = (plan: workFolder("plan"), done: workFolder("done"), jobs: workFolder("jobs"))

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<CInt>?, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?) -> CInt {
    _ = folders   // made once, before the first input
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzChunkPlan(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    input.write(to: folders.plan + "/plan.json")
    if let plan = refusingOnlyWithInputErrors({ try WorkFolder(path: folders.plan).loadPlan() }) {
        precondition(plan.canvas.count == 2 && plan.totalFrames > 0, "an accepted plan without a canvas or frames")
        var next = 0
        for (position, chunk) in plan.chunks.enumerated() {
            precondition(chunk.index == position && chunk.firstFrame == next && chunk.frameCount > 0, "an accepted plan with a broken chunk list")
            next += chunk.frameCount
        }
        precondition(next == plan.totalFrames && plan.chunks.count <= ChunkPlan.maxChunks, "an accepted plan whose chunks miss frames")
    }
    input.write(to: folders.done + "/done/chunk_0000.json")
    if let status = refusingOnlyWithInputErrors({ try ChunkStatus(folder: WorkFolder(path: folders.done)) }) {
        precondition(status.done.allSatisfy { $0.index == 0 && $0.frames == 30 && $0.bytes == 5 }, "a done record accepted that does not describe the chunk")
    }
    input.write(to: folders.jobs + "/slurm/jobs")
    if let status = refusingOnlyWithInputErrors({ try ChunkStatus(folder: WorkFolder(path: folders.jobs)) }) {
        precondition(status.slurmJobs.allSatisfy { !$0.isEmpty && $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }, "a job id accepted that is not one")
    }
    return 0
}

/// `body`'s result, or nil when it refused the folder with an input error; any other error is a finding.
private func refusingOnlyWithInputErrors<T>(_ body: () throws -> T) -> T? {
    do {
        return try body()
    } catch let error as VRenderError {
        precondition(error.kind == .input, "a work-folder file refused with a \(error.kind) error: \(error)")
        return nil
    } catch {
        preconditionFailure("the loader threw something other than a VRenderError: \(error)")
    }
}
