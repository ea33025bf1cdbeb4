import Testing
import VRenderCore
import VRenderFilters
@testable import VRenderMedia
@testable import VRenderExport

/// `SideStreamPlan`: which subtitles, chapters and timecode an output gets, and the notices
/// that name what it drops. Takes are described in code.
@Suite struct SideStreamPlanTests {
    func take(_ path: String, subtitles: [(String, Bool)] = [], chapters: Int = 0, timecode: String? = nil,
              others: [String] = []) -> MediaInfo {
        var info = MediaInfo(path: path, container: "matroska,webm",
                             video: VideoStreamInfo(index: 0, codecName: "h264", width: 320, height: 180, pixelFormat: "yuv420p",
                                                    timeBase: Rational(1, 1000), frameRate: Rational(25, 1), rotation: .none,
                                                    displayMatrix: nil, extradata: [], startTime: 0, duration: 2),
                             audio: nil)
        info.side.subtitles = subtitles.enumerated().map {
            SubtitleStreamInfo(index: $0.offset + 1, codecName: $0.element.0, label: TrackLabel(language: "eng"), isText: $0.element.1)
        }
        info.side.chapters = (0..<chapters).map { ChapterInfo(start: Double($0), end: Double($0 + 1), title: "c\($0)") }
        info.side.timecode = timecode
        info.side.others = others
        return info
    }

    @Test func bitmapSubtitlesAreNamedAsDroppedAndTextIsConverted() throws {
        let takes = [take("a.mkv", subtitles: [("dvd_subtitle", false), ("subrip", true), ("ass", true)]), take("b.mkv")]
        let plan = try SideStreamPlan(takes: takes, container: try OutputContainer(path: "out.mp4"))
        #expect(plan.subtitleCodec == "mov_text")
        #expect(plan.subtitleStreams == [2, nil])
        #expect(plan.notices.contains("subtitles: dvd_subtitle (eng) of a.mkv dropped (bitmap subtitles cannot be retimed into a .mp4 file)"))
        #expect(plan.notices.contains("subtitles: ass (eng) of a.mkv dropped (one subtitle stream per export)"))
    }

    @Test func matroskaKeepsASSAndTheFirstTimecode() throws {
        let takes = [take("a.mkv", subtitles: [("ass", true)], chapters: 2, timecode: "01:00:00:00"),
                     take("b.mkv", timecode: "02:00:00:00", others: ["attachment (font.ttf)"])]
        let plan = try SideStreamPlan(takes: takes, container: try OutputContainer(path: "out.mkv"))
        #expect(plan.subtitleCodec == "ass")
        #expect(plan.carriesChapters)
        #expect(plan.timecode == "01:00:00:00")
        #expect(plan.notices.contains("timecode 02:00:00:00 of b.mkv dropped (an output has the first take's timecode only)"))
        #expect(plan.notices.contains("attachment (font.ttf) of b.mkv dropped"))
    }

    /// A copy that meets damage becomes a transcode (`Exporter`): it used to lose the copy's
    /// subtitles, chapters and timecode, planned afresh without them.
    @Test func aCopyThatFallsBackToATranscodeKeepsItsSideStreams() throws {
        let takes = [take("a.mkv", subtitles: [("subrip", true)], chapters: 2, timecode: "01:00:00:00")]
        let options = ExportOptions(inputs: [], output: "out.mkv", outputIsDefault: false, audioTrack: nil,
                                    filter: try FilterRegistry.chain("none"), codec: .auto)
        let copy = try ExportPlanner.plan(takes: takes, options: options, copyCheck: { _, _, _ in nil })
        try #require(copy.mode != .transcode)
        let damage = CopyDamage(path: "a.mkv", seconds: 0.5, what: "a packet the file marks as damaged")
        let fallback = try ExportPlanner.transcoding(instead: copy, damage: damage)
        #expect(fallback.mode == .transcode)
        #expect(fallback.side.subtitleCodec == copy.side.subtitleCodec && fallback.side.subtitleCodec != nil)
        #expect(fallback.side.carriesChapters)
        #expect(fallback.side.timecode == "01:00:00:00")
    }

    @Test func takesWithoutSideStreamsPlanNothing() throws {
        let plan = try SideStreamPlan(takes: [take("a.mkv"), take("b.mkv")], container: try OutputContainer(path: "out.mov"))
        #expect(plan.isEmpty)
        #expect(plan.notices.isEmpty)
    }
}
