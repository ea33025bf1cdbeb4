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
}
