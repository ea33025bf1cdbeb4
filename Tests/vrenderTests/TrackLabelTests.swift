import Foundation
import Testing
import VRenderTestSupport

/// Issue "Export correctness 3", item 2: every track an export keeps keeps its language, title
/// and default/forced/commentary flags, in stream copies, transcodes and chunked exports, into
/// .mkv, .mp4 and .mov; joined takes that disagree are matched or named. Inputs are made by
/// the ffmpeg CLI from lavfi sources, outputs judged by ffprobe.
@Suite struct TrackLabelTests {
    let scratch = ScratchFolder()
    var folder: String { scratch.path }

    func vrender(_ arguments: [String]) -> ProgramRun { ProgramRun.run(CommandLineTests.binary, arguments) }

    /// A 1 s 320x240 H.264 take in `name` with one AAC track per `tracks` entry (a sine of its
    /// frequency), tagged with its language (and title), the first marked default.
    func take(_ name: String, tracks: [(language: String, frequency: Int, title: String?)]) throws -> String {
        let path = folder + "/" + name
        var arguments = ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30:duration=1"]
        for track in tracks { arguments += ["-f", "lavfi", "-i", "sine=frequency=\(track.frequency):sample_rate=48000:duration=1"] }
        arguments += ["-map", "0"] + tracks.indices.flatMap { ["-map", "\($0 + 1)"] }
        arguments += ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac"]
        for (index, track) in tracks.enumerated() {
            arguments += ["-metadata:s:a:\(index)", "language=\(track.language)", "-disposition:a:\(index)", index == 0 ? "default" : "0"]
            if let title = track.title { arguments += ["-metadata:s:a:\(index)", "title=\(title)"] }
        }
        let run = ProgramRun.run("/usr/bin/ffmpeg", arguments + [path])
        try #require(run.status == 0, "ffmpeg: \(run.standardError)")
        return path
    }

    /// The issue's take: English (default) and German, the German titled "Commentary".
    func twoLanguages(_ name: String = "h264_2lang.mkv") throws -> String {
        try take(name, tracks: [("eng", 440, nil), ("deu", 660, "Commentary")])
    }

    /// Each audio stream of `file` as ffprobe shows it: language, title (a QuickTime file's
    /// handler name), default and forced.
    func audioLabels(_ file: String) -> [String] {
        let shown = ProgramRun.run("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "a", "-show_entries",
                                                        "stream_tags=language,title,handler_name:stream_disposition=default,forced",
                                                        "-of", "json", file]).standardOutput
        guard let json = try? JSONSerialization.jsonObject(with: Data(shown.utf8)) as? [String: Any],
              let streams = json["streams"] as? [[String: Any]] else { return [] }
        return streams.map { stream in
            let tags = stream["tags"] as? [String: String] ?? [:]
            let flags = stream["disposition"] as? [String: Int] ?? [:]
            let title = tags["title"] ?? tags["handler_name"].flatMap { $0 == "SoundHandler" ? nil : $0 } ?? ""
            return "\(tags["language"] ?? "-") \(title.isEmpty ? "-" : title) default=\(flags["default"] ?? -1) forced=\(flags["forced"] ?? -1)"
        }
    }

    static let exports: [(extension: String, options: [String])] = ["mkv", "mp4", "mov"].flatMap {
        [($0, []), ($0, ["--filter", "mono"])]
    } + [("mkv", ["--filter", "mono", "--engine", "local", "--chunks", "2"]), ("mp4", ["--filter", "mono", "--engine", "local", "--chunks", "2"])]

    /// The issue's reproduction: both languages, the title and the default flag on the English
    /// track only, in every container and mode; the plan names them. (.mov spells German "ger":
    /// its language list has no "deu".)
    @Test(arguments: exports)
    func languagesTitlesAndDefaultAreKept(export: (extension: String, options: [String])) throws {
        let input = try twoLanguages()
        let out = folder + "/out." + export.extension
        let run = vrender(["concat", input, "-o", out, "--progress", "none"] + export.options)
        try #require(run.status == 0, "\(run.standardError)")
        let german = export.extension == "mov" ? "ger" : "deu"
        #expect(audioLabels(out) == ["eng - default=1 forced=0", "\(german) Commentary default=0 forced=0"], "\(run.standardError)")
        #expect(run.standardError.contains("audio 1 eng (default), 2 \(german) \"Commentary\""), "\(run.standardError)")
        #expect(ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-i", out, "-f", "null", "-"]).standardError.isEmpty)
    }

    /// The frequency of `file`'s audio track `track` over 0.4 s from `start`, counted from its
    /// decoded samples' sign changes.
    func frequency(_ file: String, track: Int, from start: Double) throws -> Double {
        let raw = folder + "/track.raw"
        let run = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-ss", "\(start)", "-i", file, "-map", "0:a:\(track)",
                                                     "-t", "0.4", "-ac", "1", "-ar", "48000", "-f", "s16le", raw])
        try #require(run.status == 0, "ffmpeg: \(run.standardError)")
        let data = try Data(contentsOf: URL(fileURLWithPath: raw))
        let samples = stride(from: 0, to: data.count - 1, by: 2).map { Int16(bitPattern: UInt16(data[$0]) | UInt16(data[$0 + 1]) << 8) }
        let rises = zip(samples, samples.dropFirst()).filter { $0 < 0 && $1 >= 0 }.count
        return Double(rises) / (Double(samples.count) / 48_000)
    }

    /// A second take with the same languages in another order (German first): joined language
    /// by language, not position; the plan says so. The output's English track plays 440 Hz in
    /// both takes, its German 660 Hz.
    @Test(arguments: [[], ["--filter", "mono"]])
    func takesInAnotherOrderAreMatchedByLanguage(options: [String]) throws {
        let first = try twoLanguages("first.mkv")
        let second = try take("second.mkv", tracks: [("deu", 660, "Commentary"), ("eng", 440, nil)])
        let out = folder + "/out.mkv"
        let run = vrender(["concat", first, second, "-o", out, "--progress", "none"] + options)
        try #require(run.status == 0, "\(run.standardError)")
        #expect(run.standardError.contains("second.mkv's tracks (deu, eng) joined by language, in the first take's order (eng, deu)"),
                "\(run.standardError)")
        #expect(audioLabels(out).map { $0.prefix(3) } == ["eng", "deu"])
        for start in [0.3, 1.3] {
            #expect(abs(try frequency(out, track: 0, from: start) - 440) < 15, "English at \(start) s")
            #expect(abs(try frequency(out, track: 1, from: start) - 660) < 15, "German at \(start) s")
        }
    }

    /// Take 1's second track is German, take 2's French: that output track gets no language
    /// (neither is true of all of it) and the plan names both; the English track keeps its own.
    /// With fewer tracks in one take, the dropped track is named with its language.
    @Test func takesThatDisagreeAreNamed() throws {
        let german = try twoLanguages("german.mkv")
        let french = try take("french.mkv", tracks: [("eng", 440, nil), ("fra", 550, "Commentary")])
        let out = folder + "/out.mkv"
        let run = vrender(["concat", german, french, "-o", out, "--progress", "none"])
        try #require(run.status == 0, "\(run.standardError)")
        #expect(run.standardError.contains("audio track 2: no language written, the takes differ (german.mkv: deu, french.mkv: fra)"),
                "\(run.standardError)")
        #expect(audioLabels(out) == ["eng - default=1 forced=0", "- Commentary default=0 forced=0"])
        let english = try take("english.mkv", tracks: [("eng", 440, nil)])
        let dropped = vrender(["concat", german, english, "-o", folder + "/one.mkv", "--progress", "none"])
        try #require(dropped.status == 0, "\(dropped.standardError)")
        #expect(dropped.standardError.contains("german.mkv: track 2 (deu \"Commentary\") dropped"), "\(dropped.standardError)")
        #expect(audioLabels(folder + "/one.mkv") == ["eng - default=1 forced=0"])
    }

    /// The same class beyond audio languages: the video's language and title, an audio track
    /// marked for the visually impaired, forced and titled subtitles. Matroska keeps them all;
    /// .mov keeps languages and default only, and the plan names each flag it leaves out.
    @Test(arguments: [("mkv", []), ("mkv", ["--filter", "mono"]), ("mov", []), ("mov", ["--filter", "mono"])])
    func videoSubtitleAndFlagLabelsAreKeptOrNamed(export: (extension: String, options: [String])) throws {
        let srt = folder + "/signs.srt"
        try Data("1\n00:00:00,200 --> 00:00:00,800\nSchild\n\n".utf8).write(to: URL(fileURLWithPath: srt))
        let input = folder + "/rich.mkv"
        let made = ProgramRun.run("/usr/bin/ffmpeg", [
            "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30:duration=1",
            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=1", "-i", srt,
            "-map", "0", "-map", "1", "-map", "2", "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", "-c:s", "srt",
            "-metadata:s:v:0", "language=eng", "-metadata:s:v:0", "title=Camera A", "-metadata:s:a:0", "language=eng",
            "-metadata:s:a:0", "title=Described", "-metadata:s:s:0", "language=deu", "-metadata:s:s:0", "title=Signs",
            "-disposition:v:0", "default", "-disposition:a:0", "default+visual_impaired", "-disposition:s:0", "forced", input])
        try #require(made.status == 0, "ffmpeg: \(made.standardError)")
        let out = folder + "/out." + export.extension
        let run = vrender(["concat", input, "-o", out, "--progress", "none"] + export.options)
        try #require(run.status == 0, "\(run.standardError)")
        let shown = { (stream: String) in
            ProgramRun.run("/usr/bin/ffprobe", ["-v", "error", "-select_streams", stream, "-show_entries",
                                                "stream_tags=language,title,handler_name:stream_disposition=default,forced,visual_impaired",
                                                "-of", "compact=nk=0", out]).standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let mkv = export.extension == "mkv"
        let title = mkv ? "title" : "handler_name"
        #expect(shown("v") == "stream|disposition:default=1|disposition:forced=0|disposition:visual_impaired=0|tag:language=eng|tag:\(title)=Camera A")
        #expect(shown("a") == "stream|disposition:default=1|disposition:forced=0|disposition:visual_impaired=\(mkv ? 1 : 0)|tag:language=eng|tag:\(title)=Described")
        // QuickTime's muxer enables (marks default) the first track of each kind.
        #expect(shown("s") == "stream|disposition:default=\(mkv ? 0 : 1)|disposition:forced=\(mkv ? 1 : 0)|disposition:visual_impaired=0|"
                + "tag:language=\(mkv ? "deu" : "ger")|tag:\(title)=Signs")
        #expect(run.standardError.contains("tracks: video eng \"Camera A\" (default); audio eng \"Described\" (default\(mkv ? ", visual_impaired" : ""))"),
                "\(run.standardError)")
        if !mkv {
            #expect(run.standardError.contains("audio: not marked visual_impaired (a .mov file cannot store that flag: write .mkv)"))
            #expect(run.standardError.contains("subtitles: not marked forced (a .mov file cannot store that flag: write .mkv)"))
        }
    }
}
