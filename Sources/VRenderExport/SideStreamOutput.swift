import Foundation
import VRenderAlignment
import VRenderCore
import VRenderMedia

/// Puts `plan.side` on a muxer: before its header, the subtitle stream, the chapters (each
/// take's, moved to where it starts and cut at its end) and the timecode; then the subtitle
/// packets, per take or all at once. A chunked export's join and its one-pass export both
/// place takes by the timeline, so both write the same side streams.
struct SideStreamOutput {
    let plan: ExportPlan
    private let writer: SubtitleWriter?
    /// The muxer's subtitle stream, nil when none is written.
    let subtitleStream: Int?

    /// Adds what the plan carries to `muxer`, which has its video and audio streams and no header yet.
    init(plan: ExportPlan, muxer: Muxer) throws {
        self.plan = plan
        let side = plan.side
        let first = zip(plan.takes, side.subtitleStreams).first { $0.1 != nil }
        if let codec = side.subtitleCodec, side.carriesCaptions, plan.captions != nil {
            let writer = try SubtitleWriter(codec: codec, globalHeader: muxer.needsGlobalHeader)
            let stream = try muxer.addStream(subtitles: writer)
            muxer.setLabel(side.subtitleLabel, stream: stream)
            subtitleStream = stream
            self.writer = writer
        } else if let codec = side.subtitleCodec, let (take, index) = first, let index {
            let writer = try SubtitleWriter(codec: codec, stylePath: take.path, styleStream: index,
                                            globalHeader: muxer.needsGlobalHeader)
            let stream = try muxer.addStream(subtitles: writer)
            muxer.setLabel(side.subtitleLabel, stream: stream)
            subtitleStream = stream
            self.writer = writer
        } else {
            (writer, subtitleStream) = (nil, nil)
        }
        if side.carriesChapters { addChapters(to: muxer) }
        if let timecode = side.timecode { muxer.setMetadata("timecode", timecode) }
    }

    private func addChapters(to muxer: Muxer) {
        for (take, span) in zip(plan.takes, SideStreamPlan.spans(of: plan)) {
            // A take of no chapters gets one, named after its file: QuickTime's chapter
            // track has starts only, so a gap would stretch the chapter before it.
            let chapters = take.side.chapters.isEmpty
                ? [ChapterInfo(start: take.video.startTime, end: take.video.startTime + span.length,
                               title: (take.path as NSString).lastPathComponent)]
                : take.side.chapters
            for chapter in chapters {
                let from = Swift.max(chapter.start - take.video.startTime, 0)
                let to = Swift.min(chapter.end - take.video.startTime, span.length)
                if to > from { muxer.addChapter(start: span.offset + from, end: span.offset + to, title: chapter.title) }
            }
        }
    }

    /// Take `index`'s cues placed at `offset` seconds of the output (milliseconds, in order).
    func cues(ofTake index: Int, at offset: Double) throws -> [Packet] {
        if plan.side.carriesCaptions, let writer, let captions = plan.captions {
            return captionPackets(captions, ofTake: index, writer: writer)
        }
        guard let writer, index < plan.side.subtitleStreams.count, let stream = plan.side.subtitleStreams[index] else { return [] }
        let take = plan.takes[index]
        let length = SideStreamPlan.spans(of: plan)[index].length
        return try writer.cues(of: take.path, stream: stream, from: take.video.startTime, length: length, at: offset)
    }

    /// The captions that start in take `index`'s span (placed on the output's clock when the
    /// export was planned: `ExportCaptions`).
    private func captionPackets(_ captions: CaptionTrack, ofTake index: Int, writer: SubtitleWriter) -> [Packet] {
        let spans = SideStreamPlan.spans(of: plan)
        let from = index == 0 ? -Double.infinity : spans[index].offset
        let to = index + 1 < spans.count ? spans[index + 1].offset : .infinity
        return captions.cues.filter { $0.start >= from && $0.start < to }.compactMap { writer.cue($0.lines, from: $0.start, to: $0.end) }
    }

    /// Every take's cues, each take placed by `SideStreamPlan.spans`.
    func allCues() throws -> [Packet] {
        try SideStreamPlan.spans(of: plan).enumerated().flatMap { try cues(ofTake: $0.offset, at: $0.element.offset) }
    }
}
