import Foundation

extension ExportPlan {
    /// What the export will do, as `vrender concat` prints it before it starts, each line
    /// "plan: ...": why this mode; the takes, length, output, size, rate, rotation, colours and
    /// sound; then the loudness, stabilizing, transition and notices. A notice of several lines
    /// gives several lines.
    public var summaryLines: [String] {
        var lines = ["plan: \(reason)", "plan: " + takesLine]
        lines += (smartRender?.summaryLines ?? []).map { "plan: \($0)" }
        if let tracksLine { lines.append("plan: " + tracksLine) }
        lines += (loudness?.lines ?? []).map { "plan: \($0)" }
        if let stabilize { lines.append("plan: stabilize: \(takeCount) take(s), \(stabilize.summary)") }
        if let transition { lines.append("plan: transition: \(transition.description)") }
        if let delivery = encoding.delivery { lines.append("plan: " + delivery.summary(self)) }
        lines += notices.map { "plan: note: \($0)" }
        return lines.flatMap { $0.split(separator: "\n").map(String.init) }
    }

    /// "tracks: video (default); audio 1 eng (default), 2 deu \"Commentary\"; subtitles fra (forced)":
    /// the language, title and dispositions each output track is written with; nil when that
    /// says nothing a user would not assume (no languages or titles, each kind's one track its
    /// default: what every ordinary take has).
    private var tracksLine: String? {
        let audioLabels = (0..<audio.trackCount).map { audio.label(ofTrack: $0) }
        let subtitles = side.subtitleCodec == nil ? nil : side.subtitleLabel
        guard audioLabels.count > 1 || !videoLabel.isOrdinary || audioLabels.contains(where: { !$0.isOrdinary })
                || subtitles.map({ !$0.isOrdinary }) == true else { return nil }
        var parts = ["video \(videoLabel.description)"]
        if audioLabels.count == 1 {
            parts.append("audio \(audioLabels[0].description)")
        } else if !audioLabels.isEmpty {
            parts.append("audio " + audioLabels.enumerated().map { "\($0.offset + 1) \($0.element.description)" }.joined(separator: ", "))
        }
        if let subtitles { parts.append("subtitles \(subtitles.description)") }
        return "tracks: " + parts.joined(separator: "; ")
    }

    /// "3 take(s), 12.00 s -> export.mov, 1280x720 at 30 fps, ..., audio AAC 48 kHz stereo".
    private var takesLine: String {
        let upright = uprightCanvas
        let pieces = takes.count > takeCount ? " (\(takes.count) pieces after cuts)" : ""
        var line = "\(takeCount) take(s)\(pieces), \(String(format: "%.2f", timeline.duration)) s -> \(output), "
            + "\(upright.width)x\(upright.height) at \(frameRateText) fps"
        switch rotation {
        case .keepMetadata(let rotation, _) where rotation != .none || takes[0].video.mirrored:
            line += ", \(takes[0].video.orientation) kept as metadata"
        case .uprightPixels:
            line += ", turned upright in pixels"
        default:
            break
        }
        if mode == .transcode { line += ", colours \(colour.output)" + (colour.tenBit ? " 10-bit" : "") }
        if audio.trackCount == 0 {
            line += ", no audio"
        } else if mode != .streamCopy {
            let tracks = audio.trackCount > 1 ? "\(audio.trackCount) audio tracks" : "audio"
            line += ", \(tracks) \(audioCodec.rawValue.uppercased()) 48 kHz stereo"
        } else if audio.trackCount > 1 {
            line += ", \(audio.trackCount) audio tracks"
        }
        return line
    }
}
