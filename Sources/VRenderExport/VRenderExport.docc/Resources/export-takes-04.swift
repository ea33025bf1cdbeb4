// export-takes: records two short takes with vrender's synthetic camera, then exports them as
// one video with the mono filter, printing the export's progress.
//
//     swift run export-takes [FOLDER]        (a new folder; default: export-takes-out)
import Foundation
import VRenderCapture
import VRenderExport
import VRenderFilters
import VRenderRecording

/// Records two takes of two seconds into `folder`, with sound, and returns the folder.
func recordTakes(into folder: String) throws -> String {
    // The script runs in each take: from zoom 1, a zoom ramp, then the torch.
    let script = try ActionScript(text: """
        at 0s zoom 1
        at 0s torch off
        at 0.5s zoom 2 ramp 1
        at 1.5s torch on
        at 2s stop
        """, source: "export-takes script")
    // The synthetic camera (seed 1) draws the same pictures on every run, and FFV1 keeps them
    // lossless: the export is the same on every machine.
    let plan = RecordingPlan(outputDirectory: folder, takes: 2, codec: .ffv1, script: script)
    let options = CaptureOptions(device: "synthetic:seed=1", request: CaptureRequest(size: (width: 320, height: 180)),
                                 plan: plan, audio: "synthetic")
    let takes = try CaptureJob(options: options).run()
    print("recorded \(takes.count) takes into \(folder)")
    return folder
}

/// Exports the takes of `folder`, in the order its takes.json lists them, with the mono filter.
func export(_ folder: String, to output: String) throws {
    let options = ExportOptions(inputs: [folder], output: output, filter: try FilterRegistry.chain("mono"))
    let exporter = Exporter(options: options) { progress in
        print("exporting: \(progress.framesDone) of \(progress.framesTotal) frames")
    }
    let summary = try exporter.export()
    print("wrote \(summary.output): \(summary.frames) frames, \(summary.duration) s, \(summary.videoCodec)")
}

let folder = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "export-takes-out"
// New takes join those a takes folder holds already: start from a folder of its own.
guard !FileManager.default.fileExists(atPath: folder) else {
    FileHandle.standardError.write(Data("export-takes: \(folder) exists already: name a new folder\n".utf8))
    exit(1)
}
do {
    let takes = try recordTakes(into: folder + "/takes")
} catch {
    FileHandle.standardError.write(Data("export-takes: \(error)\n".utf8))
    exit(1)
}
