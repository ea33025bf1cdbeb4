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
            try atomicFile(file.path, folder: options.outputFolder).checkTarget(overwrite: options.overwrite)
        }
    }

    /// Writes `plan`'s caption files beside its output; returns their paths.
    static func write(_ plan: ExportPlan) throws -> [String] {
        guard let captions = plan.captions else { return [] }
        return try captions.files(beside: plan.output).map { file in
            try Array(file.format.text(captions.cues).utf8).withUnsafeBytes {
                try atomicFile(file.path, folder: plan.writing.folder).write($0)
            }
            return file.path
        }
    }

    /// The file at `path`, made in `folder` when the caller holds the output's folder open.
    private static func atomicFile(_ path: String, folder: FolderHandle?) -> AtomicFile {
        folder.map { AtomicFile(in: $0, name: FileNames.split(path).name) } ?? AtomicFile(path: path)
    }
}
