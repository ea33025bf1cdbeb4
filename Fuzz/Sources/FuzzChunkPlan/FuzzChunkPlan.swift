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
private let validPlan = #"{"canvas":[640,360],"chunkContainer":"mov","chunks":[{"firstFrame":0,"frameCount":30,"index":0}],"frameRate":{"denominator":1001,"numerator":30000},"inputs":[{"bytes":112437,"modifiedNanoseconds":1795643104492152341,"path":"/takes/a.mov"},{"bytes":76568,"modifiedNanoseconds":1795642988020550896,"path":"/takes/script.txt"}],"keyframeInterval":60,"recipe":{"codec":"h264","filter":"noir","filterThreads":0,"frameRate":{"denominator":1001,"numerator":30000},"gpu":"auto","inputs":["/takes/a.mov"],"output":"/out/sj.mkv","overwrite":false,"prompter":{"box":[10,20,300,200],"script":"/takes/script.txt","settings":{"ending":"pause","fontSize":28,"speed":24}},"size":[640,360]},"sound":"mp4","takes":[{"audioTracks":[{"channels":2,"codecName":"aac","duration":1.002,"extradata":[17,144,86,229,0],"index":1,"sampleFormat":"fltp","sampleRate":48000,"startTime":0,"timeBase":{"denominator":48000,"numerator":1}}],"container":"mov,mp4,m4a,3gp,3g2,mj2","path":"/takes/a.mov","side":{"chapters":[{"end":1,"start":0,"title":"Intro"}],"others":[],"subtitles":[],"timecode":"01:00:00:00"},"video":{"bitDepth":8,"codecName":"h264","codecTag":"avc1","colour":{"fullRange":false,"matrix":1,"primaries":1,"transfer":1},"damagedTimestamps":0,"decodingTimesStored":true,"duration":1.001,"extradata":[1,100,0,30,255,225,0,25,103,100,0,30,172,217,64,160,47,249,112,17,0,0,3,0,1,0,0,3,0,60,15,22,45,150],"frameRate":{"denominator":1001,"numerator":30000},"height":360,"hiddenFrames":0,"index":0,"mirrored":false,"pixelFormat":"yuv420p","profile":100,"rotation":0,"sampleAspect":{"denominator":1,"numerator":1},"startTime":0,"timeBase":{"denominator":30000,"numerator":1},"width":640}}],"totalFrames":30,"version":4,"videoCodec":"h264"}"#

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
        precondition(plan.takes.count == plan.recipe.inputs.count, "an accepted plan without one probed take per input")
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
