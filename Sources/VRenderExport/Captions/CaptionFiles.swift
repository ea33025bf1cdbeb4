import VRenderAlignment
import VRenderCore

/// `--captions srt,vtt`: the caption files beside the output (`talk.srt` beside `talk.mov`),
/// checked with the output before any work and written, each atomically, once the output is
/// in place: an export that fails leaves neither.
enum CaptionFiles {
    /// Throws, naming the file, when one of the caption files `options` ask for cannot be
    /// written: it exists (without `--overwrite`), is an input, or its folder is not writable.
    static func checkTargets(_ options: ExportOptions) throws {
        guard let captions = options.script?.captions, !captions.isEmpty else { return }
        let track = CaptionTrack(outputs: captions, language: "", cues: [])
        for file in track.files(beside: options.output) {
            for input in options.inputs where OutputFile.isSameFile(input, file.path) {
                throw VRenderError.output(file.path, "is also an input; an export never modifies its takes")
            }
            try AtomicFile(path: file.path, heldFolder: options.outputFolder).checkTarget(overwrite: options.overwrite)
        }
    }

    /// Writes `plan`'s caption files beside its output; returns their paths.
    static func write(_ plan: ExportPlan) throws -> [String] {
        guard let captions = plan.captions else { return [] }
        return try captions.files(beside: plan.output).map { file in
            try Array(file.format.text(captions.cues).utf8).withUnsafeBytes {
                try AtomicFile(path: file.path, heldFolder: plan.writing.folder).write($0)
            }
            return file.path
        }
    }
}
