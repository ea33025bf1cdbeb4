import ArgumentParser
import Foundation
import VRenderExport

/// An export's output as a command takes and reports it: `-o FILE` checked before anything
/// runs, and the line the command ends with. `concat`, `bench concat`, `demo`, `chunk plan`
/// and the join (`vrender chunk join`, `vrender-worker join`) share them.
package enum ExportOutput {
    /// `-o FILE`: an extension that picks a container vrender writes.
    package static func validate(output: String?) throws {
        guard let output else { return }
        let ext = (output as NSString).pathExtension.lowercased()
        if ext.isEmpty {
            throw ValidationError("-o '\(output)' has no file extension; the extension picks the container (.mov, .mp4, .mkv or .webm)")
        }
        if !OutputFile.containerExtensions.contains(ext) {
            throw ValidationError("-o '\(output)': vrender writes .mov, .mp4, .m4v, .mkv or .webm, not .\(ext)")
        }
    }

    /// The line an export ends with: its output, length, frames, size, codecs, bytes, wall time and mode.
    /// "captions: 42 cue(s) (eng) in talk.srt, talk.vtt and a subtitle track"; nil without --captions.
    package static func captionLine(_ summary: ExportSummary) -> String? {
        guard let captions = summary.captions else { return nil }
        let places = captions.files + (captions.track ? ["a subtitle track"] : []) + (captions.burned ? ["the pictures"] : [])
        let listed = places.count > 1 ? places.dropLast().joined(separator: ", ") + " and " + places.last! : places.first ?? "nowhere"
        return "captions: \(captions.cues) cue(s)\(captions.language.isEmpty ? "" : " (\(captions.language))") in \(listed)"
    }

    package static func finalLine(_ summary: ExportSummary) -> String {
        let megabytes = String(format: "%.1f MB", Double(summary.bytes) / 1_000_000)
        let codecs = summary.videoCodec + (summary.audioCodec.map { "+\($0)" } ?? "")
        return "\(summary.output): \(String(format: "%.2f", summary.duration)) s, \(summary.frames) frames, "
            + "\(summary.width)x\(summary.height) \(codecs), \(megabytes) in \(String(format: "%.2f", summary.wallSeconds)) s (\(summary.mode))"
    }
}
