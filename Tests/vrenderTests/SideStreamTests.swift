import Foundation
import Testing
import VRenderTestSupport

/// Issue 21, item 6: subtitles, chapters and timecode survive `vrender concat` where the
/// output container holds them (each take's cues and chapters moved to where it starts, the
/// first take's timecode), in stream copies, transcodes and chunked exports; what cannot be
/// carried is named in the plan. Inputs are made by ffmpeg, outputs judged by ffprobe/ffmpeg.
@Suite struct SideStreamTests {
    let scratch = ScratchFolder()
    var folder: String { scratch.path }

    func vrender(_ arguments: [String]) -> ProgramRun { ProgramRun.run(CommandLineTests.binary, arguments) }

    func ffmpeg(_ arguments: [String]) throws {
        let run = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-y"] + arguments)
        try #require(run.status == 0, "ffmpeg \(arguments): \(run.standardError)")
    }

    /// A 320x180 H.264 + AAC take of `seconds`, made with `extra` inputs and options before the output.
    func take(_ name: String, seconds: Int, _ extra: [String] = []) throws -> String {
        let path = folder + "/" + name
        try ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=320x180:d=\(seconds)", "-f", "lavfi", "-i", "sine=d=\(seconds)"]
                   + extra + ["-c:v", "libx264", "-c:a", "aac", path])
        return path
    }

    /// A 3 s take with cues at 0.5–1.5 and 2.0–2.8 s, one from 2.9 s running past its end and
    /// one after it, and chapters "One" (0–1 s) and "Two" (1–3 s); `subtitleCodec` for its file.
    func subtitledTake(_ name: String, subtitleCodec: String) throws -> String {
        let srt = folder + "/cues.srt", meta = folder + "/meta.txt"
        try Data("""
            1
            00:00:00,500 --> 00:00:01,500
            Hello

            2
            00:00:02,000 --> 00:00:02,800
            World

            3
            00:00:02,900 --> 00:00:06,000
            Cut

            4
            00:00:04,000 --> 00:00:05,000
            Gone

            """.utf8).write(to: URL(fileURLWithPath: srt))
        try Data(";FFMETADATA1\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=0\nEND=1000\ntitle=One\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=1000\nEND=3000\ntitle=Two\n"
            .utf8).write(to: URL(fileURLWithPath: meta))
        return try take(name, seconds: 3, ["-i", srt, "-i", meta, "-map", "0", "-map", "1", "-map", "2", "-map_metadata", "3",
                                           "-map_chapters", "3", "-c:s", subtitleCodec, "-t", "3"])
    }

    /// The cues ffmpeg reads from `file`'s subtitles: text and times, relative to the video's start.
    func cues(_ file: String) -> [(text: String, start: Double, end: Double)] {
        let videoStart = Double(ProgramRun.ffprobe(file, stream: "v", entries: "stream=start_time")) ?? 0
        let srt = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-i", file, "-map", "0:s", "-f", "srt", "-"]).standardOutput
        let seconds = { (text: Substring) -> Double in
            let parts = text.split(whereSeparator: { ":,".contains($0) }).compactMap { Double($0) }
            return parts.count == 4 ? parts[0] * 3600 + parts[1] * 60 + parts[2] + parts[3] / 1000 : -1
        }
        let lines = srt.split(separator: "\n", omittingEmptySubsequences: false)
        return lines.indices.compactMap { index in
            let times = lines[index].components(separatedBy: " --> ")
            guard times.count == 2, index + 1 < lines.count else { return nil }
            return (String(lines[index + 1]), seconds(Substring(times[0])) - videoStart, seconds(Substring(times[1])) - videoStart)
        }
    }

    /// `file`'s chapters as ffprobe shows them.
    func chapters(_ file: String) -> [(start: Double, title: String)] {
        let shown = ProgramRun.run("/usr/bin/ffprobe", ["-v", "error", "-show_chapters", "-show_entries",
                                                        "chapter=start_time:chapter_tags=title", "-of", "csv=p=0", file])
        return shown.standardOutput.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ",", maxSplits: 1)
            guard fields.count == 2, let start = Double(fields[0]) else { return nil }
            return (start, String(fields[1]))
        }
    }

    static let outputs: [(extension: String, filter: [String])] = ["mp4", "mov", "mkv"].flatMap { [($0, []), ($0, ["--filter", "mono"])] }

    /// A subtitled take with chapters after a plain one: its cues at 2 s + their own time, the
    /// one running past its end cut there, the one after it gone; its chapters at 2 s and 3 s
    /// after one chapter named after the plain take.
    @Test(arguments: outputs)
    func subtitlesAndChaptersFollowTheirTake(output: (extension: String, filter: [String])) throws {
        let plain = try take("plain.mp4", seconds: 2)
        let subtitled = try subtitledTake("subtitled.mp4", subtitleCodec: "mov_text")
        let out = folder + "/out." + output.extension
        let run = vrender(["concat", plain, subtitled, "-o", out, "--progress", "none"] + output.filter)
        try #require(run.status == 0, "\(run.standardError)")
        #expect((run.standardError + run.standardOutput).contains(output.filter.isEmpty ? "stream copy" : "transcode"))
        #expect((run.standardError + run.standardOutput).contains("subtitles: mov_text of 1 take(s) written as"))
        let codec = ProgramRun.ffprobe(out, stream: "s", entries: "stream=codec_name")
        #expect(codec == (output.extension == "mkv" ? "subrip" : "mov_text"))
        let found = cues(out)
        #expect(found.map(\.text) == ["Hello", "World", "Cut"])
        for (cue, expected) in zip(found, [(2.5, 3.5), (4.0, 4.8), (4.9, 5.0)]) {
            #expect(abs(cue.start - expected.0) < 0.03 && abs(cue.end - expected.1) < 0.03, "\(cue) != \(expected)")
        }
        let marks = chapters(out)
        #expect(marks.map(\.title) == ["plain.mp4", "One", "Two"])
        for (mark, start) in zip(marks, [0.0, 2.0, 3.0]) { #expect(abs(mark.start - start) < 0.03, "\(mark)") }
    }

    /// The first take's timecode is on the output (a tmcd track in .mov, a tag in .mkv); a
    /// later take's is named as dropped; SubRip from .mkv becomes mov_text in .mov.
    @Test(arguments: ["mov", "mkv"])
    func theFirstTakesTimecodeIsKept(extension ext: String) throws {
        let first = try take("first.mov", seconds: 2, ["-timecode", "01:00:00:00"])
        let subtitled = try subtitledTake("subtitled.mkv", subtitleCodec: "srt")
        let last = try take("last.mov", seconds: 1, ["-timecode", "02:00:00:00"])
        let out = folder + "/out." + ext
        let run = vrender(["concat", first, subtitled, last, "-o", out, "--progress", "none"])
        try #require(run.status == 0, "\(run.standardError)")
        #expect((run.standardError + run.standardOutput).contains("timecode 02:00:00:00 of last.mov dropped"))
        if ext == "mov" {
            let tags = ProgramRun.run("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "d", "-show_entries",
                                                           "stream=codec_tag_string", "-of", "csv=p=0", out]).standardOutput
            #expect(tags.split(separator: "\n").contains("tmcd"))
            #expect(ProgramRun.ffprobe(out, stream: "v", entries: "stream_tags=timecode") == "01:00:00:00")
            #expect(ProgramRun.ffprobe(out, stream: "s", entries: "stream=codec_name") == "mov_text")
        } else {
            let tag = ProgramRun.run("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "format_tags=TIMECODE",
                                                          "-of", "default=nw=1:nk=1", out]).standardOutput
            #expect(tag.trimmingCharacters(in: .whitespacesAndNewlines) == "01:00:00:00")
        }
        #expect(cues(out).first.map { abs($0.start - 2.5) < 0.03 } == true)
    }

    /// Two timecoded .mov takes joined by stream copy: the output's tmcd track has the first's.
    @Test func timecodeSurvivesAStreamCopy() throws {
        let first = try take("first.mov", seconds: 2, ["-timecode", "01:00:00:00"])
        let last = try take("last.mov", seconds: 1, ["-timecode", "02:00:00:00"])
        let out = folder + "/out.mov"
        let run = vrender(["concat", first, last, "-o", out, "--progress", "none"])
        try #require(run.status == 0, "\(run.standardError)")
        #expect((run.standardError + run.standardOutput).contains("stream copy"))
        #expect(ProgramRun.ffprobe(out, stream: "d", entries: "stream=codec_tag_string") == "tmcd")
        #expect(ProgramRun.ffprobe(out, stream: "d", entries: "stream_tags=timecode") == "01:00:00:00")
    }

    /// A data stream and an attachment cannot go into .mp4: the plan names each as dropped.
    @Test func whatCannotBeCarriedIsNamed() throws {
        let timecoded = try take("timecoded.mov", seconds: 2, ["-timecode", "01:00:00:00"])
        let withData = folder + "/data.ts"
        try ffmpeg(["-i", timecoded, "-map", "0", "-c", "copy", withData])
        let subtitled = try subtitledTake("subtitled.mkv", subtitleCodec: "srt")
        let attached = folder + "/attached.mkv"
        try ffmpeg(["-i", subtitled, "-attach", folder + "/meta.txt", "-metadata:s:t", "mimetype=text/plain",
                    "-map", "0", "-c", "copy", attached])
        let out = folder + "/out.mp4"
        let run = vrender(["concat", withData, attached, "-o", out, "--progress", "none"])
        try #require(run.status == 0, "\(run.standardError)")
        #expect((run.standardError + run.standardOutput).contains("data stream (bin_data) of data.ts dropped"))
        #expect((run.standardError + run.standardOutput).contains("attachment (meta.txt) of attached.mkv dropped"))
        #expect(ProgramRun.ffprobe(out, stream: "s", entries: "stream=codec_name") == "mov_text")
    }

    /// A chunked export writes the same subtitles, chapters and timecode as its one-pass export.
    @Test(arguments: ["mkv", "mp4"])
    func chunkedExportCarriesTheSameSideStreams(extension ext: String) throws {
        let first = try take("first.mov", seconds: 2, ["-timecode", "01:00:00:00"])
        let subtitled = try subtitledTake("subtitled.mp4", subtitleCodec: "mov_text")
        let onePass = folder + "/one." + ext, chunked = folder + "/chunked." + ext
        let common = [first, subtitled, "--filter", "mono", "--progress", "none"]
        let one = vrender(["concat"] + common + ["-o", onePass])
        try #require(one.status == 0, "\(one.standardError)")
        let chunks = vrender(["concat"] + common + ["-o", chunked, "--engine", "local", "--chunks", "3"])
        try #require(chunks.status == 0, "\(chunks.standardError)")
        let side = { (file: String) in
            ProgramRun.run("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "s", "-show_entries",
                                                "packet=pts,duration,size:stream=codec_name:format_tags=TIMECODE",
                                                "-show_chapters", "-of", "compact", file]).standardOutput
        }
        #expect(side(onePass).contains("packet|pts"))
        #expect(side(onePass).contains("chapter|"))
        #expect(side(chunked) == side(onePass))
        #expect(cues(chunked).map(\.text) == ["Hello", "World", "Cut"])
    }
}
