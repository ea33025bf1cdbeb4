import Foundation
import VRenderCore
import VRenderMedia

/// What an export carries beside picture and sound, and what it drops, said in notices:
/// one text-subtitle stream (each take's first text subtitles, retimed to where the take
/// starts and converted to the codec the container holds), every take's chapters shifted
/// the same way, and the first take's timecode. Bitmap subtitles, data streams, attachments,
/// later takes' timecodes and what the container cannot hold are named as dropped.
package struct SideStreamPlan: Sendable, Equatable {
    /// The output's subtitle codec; nil when the export writes no subtitles.
    package var subtitleCodec: String?
    /// Per take, the subtitle stream carried (nil: none).
    package var subtitleStreams: [Int?] = []
    /// The carried subtitles' language, title and dispositions (`TrackLabelMerge` of the takes').
    package var subtitleLabel = TrackLabel()
    /// True when the subtitle stream is the export's captions (`--captions track`), not the takes'.
    package var carriesCaptions = false
    /// True when the takes' chapters are written.
    package var carriesChapters = false
    /// The first take's timecode, written on the output.
    package var timecode: String?
    package var notices: [String] = []

    package init() {}

    /// True when the output gets any side stream.
    package var isEmpty: Bool { subtitleCodec == nil && !carriesChapters && timecode == nil }

    /// The plan for `takes` into `container`. `captions`: the subtitle stream is the script's
    /// captions (`--captions track`, whose language `labelCaptions` sets), and the takes' own
    /// subtitles are dropped.
    package init(takes: [MediaInfo], container: OutputContainer, captions: Bool = false) throws {
        let fileExtension = (container.path as NSString).pathExtension.lowercased()
        let name = { (take: MediaInfo) in (take.path as NSString).lastPathComponent }
        if captions {
            guard let codec = Self.captionCodec(in: container) else {
                throw VRenderError.option("--captions", "a .\(fileExtension) file holds no subtitle stream for 'track' (write .mov, .mp4, .mkv or .webm)")
            }
            (subtitleCodec, carriesCaptions, subtitleLabel) = (codec, true, TrackLabel(dispositions: ["default"]))
        }
        let firstText = takes.lazy.compactMap { $0.side.subtitles.first(where: \.isText) }.first
        let codec = captions ? nil : firstText.flatMap { Self.textCodec(in: container, source: $0.codecName) }
        for take in takes {
            let carried = codec == nil ? nil : take.side.subtitles.first(where: \.isText)
            subtitleStreams.append(carried?.index)
            for subtitle in take.side.subtitles where subtitle.index != carried?.index {
                let why = captions ? "--captions track writes the script's captions instead"
                    : !subtitle.isText ? "bitmap subtitles cannot be retimed into a .\(fileExtension) file"
                    : codec == nil ? "a .\(fileExtension) file holds no text subtitles" : "one subtitle stream per export"
                notices.append("subtitles: \(subtitle.codecName)\(Self.language(subtitle)) of \(name(take)) dropped (\(why))")
            }
            notices += take.side.others.map { "\($0) of \(name(take)) dropped" }
        }
        if let codec {
            subtitleCodec = codec
            let labels = zip(takes, subtitleStreams).compactMap { take, index in
                take.side.subtitles.first { $0.index == index }.map { (name(take), $0.label) }
            }
            let merged = TrackLabelMerge.merge(labels, track: "subtitles")
            let fitted = TrackLabelMerge.fitted(merged.label, into: container, track: "subtitles")
            subtitleLabel = fitted.label
            notices += merged.notices + fitted.notices
            let sources = Set(zip(takes, subtitleStreams).compactMap { take, index in
                take.side.subtitles.first { $0.index == index }?.codecName })
            notices.append("subtitles: \(sources.sorted().joined(separator: ", ")) of \(subtitleStreams.compactMap { $0 }.count) "
                           + "take(s) written as \(codec), each take's cues moved to where it starts")
        }
        planChapters(takes, container: container, fileExtension: fileExtension)
        planTimecode(takes, container: container, fileExtension: fileExtension, name: name)
    }

    /// The captions' language on their stream, as `container` spells it; returns a notice
    /// when it cannot.
    package mutating func labelCaptions(language: String, container: OutputContainer) -> [String] {
        let fitted = TrackLabelMerge.fitted(TrackLabel(language: language, dispositions: ["default"]), into: container, track: "captions")
        subtitleLabel = fitted.label
        return fitted.notices
    }

    /// The codec captions are written in: mov_text in QuickTime and MP4, WebVTT in Matroska and WebM.
    static func captionCodec(in container: OutputContainer) -> String? {
        if container.isQuickTimeFamily { return "mov_text" }
        return ["matroska", "webm"].contains(container.name) ? "webvtt" : nil
    }

    private mutating func planChapters(_ takes: [MediaInfo], container: OutputContainer, fileExtension: String) {
        let count = takes.map(\.side.chapters.count).reduce(0, +)
        guard count > 0 else { return }
        carriesChapters = container.isQuickTimeFamily || ["matroska", "webm"].contains(container.name)
        let without = takes.filter { $0.side.chapters.isEmpty }.count
        notices.append(carriesChapters ? "chapters: \(count) from \(takes.count - without) take(s), each moved to where its take starts"
                                         + (without > 0 ? "; \(without) take(s) without chapters get one named after the file" : "")
                                       : "chapters: \(count) dropped (a .\(fileExtension) file holds none)")
    }

    private mutating func planTimecode(_ takes: [MediaInfo], container: OutputContainer, fileExtension: String,
                                       name: (MediaInfo) -> String) {
        guard let first = takes.first else { return }
        let holds = container.isQuickTimeFamily || container.name == "matroska"
        if let code = first.side.timecode {
            if holds { timecode = code }
            notices.append(holds ? "timecode \(code) of \(name(first)) kept"
                                 : "timecode \(code) of \(name(first)) dropped (a .\(fileExtension) file holds none)")
        }
        for take in takes.dropFirst() {
            if let code = take.side.timecode {
                notices.append("timecode \(code) of \(name(take)) dropped (an output has the first take's timecode only)")
            }
        }
    }

    /// The text-subtitle codec `container` holds: mov_text in QuickTime, ASS (from ASS
    /// sources) or SubRip in Matroska, WebVTT in WebM; nil for any other.
    static func textCodec(in container: OutputContainer, source: String) -> String? {
        if container.isQuickTimeFamily { return "mov_text" }
        switch container.name {
        case "matroska": return ["ass", "ssa"].contains(source) ? "ass" : "subrip"
        case "webm": return "webvtt"
        default: return nil
        }
    }

    private static func language(_ subtitle: SubtitleStreamInfo) -> String {
        subtitle.label.parenthesized
    }

    /// Where each take starts in the output and how long it lasts there, in seconds: a stream
    /// copy places takes end to end by their lengths, every other mode by the timeline's slots.
    static func spans(of plan: ExportPlan) -> [(offset: Double, length: Double)] {
        if plan.mode == .streamCopy {
            var offset = 0.0
            return plan.takes.map { take in
                defer { offset += take.duration }
                return (offset, take.duration)
            }
        }
        let rate = plan.frameRate.doubleValue
        return plan.timeline.takes.map { (Double($0.firstSlot) / rate, Double($0.slotCount) / rate) }
    }
}
