import Foundation
import Testing
import VRenderTestSupport

/// `vrender concat --cut-retakes` on takes where the synthetic presenter broke lines off and
/// read them again (`flub`): every broken reading cut, nothing else, sound and picture in step.
@Suite struct RetakesCommandTests {
    let base = CaptionsCommandTests()

    @Test func brokenOffReadingsAreCutAndNothingElse() throws {
        let folder = try base.record(CaptionsCommandTests.english, takes: 2, seconds: 14, actions: "at 3s flub\nat 8s flub")
        let output = base.directory + "/cut.mp4"
        let run = base.vrender(["concat", folder, "--cut-retakes", "--captions", "srt", "--codec", "h264", "--preset", "ultrafast",
                                "-o", output, "--json", "--progress", "none"])
        #expect(run.status == 0, "\(run.standardError)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        let notices = try #require(json["notices"] as? [String])
        let takes = try Self.readings(folder)
        #expect(notices.filter { $0.hasPrefix("retake: take ") && $0.contains(" cut ") }.count == takes.map(\.flubbed.count).reduce(0, +), "\(notices)")
        let kept = try Self.keptParts(json)
        for (number, take) in takes.enumerated() {
            let parts = kept[take.file] ?? []
            for span in take.flubbed {
                #expect(!parts.contains { $0.lowerBound < span.upperBound - 0.02 && $0.upperBound > span.lowerBound + 0.02 },
                        "take \(number + 1): the broken reading at \(span) is still there")
            }
            for word in take.said {
                #expect(parts.contains { $0.lowerBound <= word.start + 0.02 && word.end - 0.02 <= $0.upperBound },
                        "take \(number + 1): '\(word.text)' at \(word.start) was cut")
            }
        }
        // The export's words are the script's, each once: the captions hold the words said, in order.
        let captioned = SubRip.cues(try String(contentsOfFile: base.directory + "/cut.srt", encoding: .utf8))
            .flatMap { $0.text.split(whereSeparator: \.isWhitespace).map(String.init) }
        let said = takes.flatMap { $0.said.map(\.text) }
        #expect(captioned == said || said.starts(with: captioned) || Self.isSubsequence(captioned, of: said) && captioned.count >= said.count - 4,
                "captions: \(captioned.count) words of \(said.count)")
        checkClapsMeetFlashes(output)
    }

    /// Sound and picture in step after the cuts: every click of the clapper is heard on a
    /// frame that flashes, within half a frame.
    func checkClapsMeetFlashes(_ file: String) {
        let videoStart = Double(ProgramRun.ffprobe(file, stream: "v", entries: "stream=start_time")) ?? 0
        let clicks = ProgramRun.clickTimes(file, scratch: base.directory, threshold: 0.8).map { $0 - videoStart }
        let brightness = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-i", file, "-vf", "crop=iw/16:ih/12:0:0,signalstats,"
                                                            + "metadata=print:key=lavfi.signalstats.YAVG:file=-", "-f", "null", "-"])
        let values = brightness.standardOutput.split(separator: "\n").compactMap { line in
            line.hasPrefix("lavfi.signalstats.YAVG=") ? Double(line.dropFirst("lavfi.signalstats.YAVG=".count)) : nil
        }
        let flashes = values.indices.filter { values[$0] > 180 }.map { Double($0) / 30 }
        #expect(clicks.count >= 10 && flashes.count >= 10, "\(clicks.count) clicks, \(flashes.count) flashes")
        for click in clicks {
            #expect(flashes.contains { abs($0 - click) <= 1.0 / 60 }, "a click at \(click) s on no flash")
        }
    }

    static func isSubsequence(_ small: [String], of large: [String]) -> Bool {
        var index = large.startIndex
        for word in small {
            guard let found = large[index...].firstIndex(of: word) else { return false }
            index = found + 1
        }
        return true
    }

    /// Each take's broken readings and the words it said to the end, from takes.json's truth
    /// (seconds from the take's first picture).
    static func readings(_ folder: String) throws -> [(file: String, flubbed: [Range<Double>], said: [TrueWords.Word])] {
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/takes.json"))) as? [String: Any])
        return try #require(manifest["takes"] as? [[String: Any]]).map { take in
            let preroll = take["preroll"] as? Double ?? 0
            let words = try #require((take["presenter"] as? [String: Any])?["words"] as? [[String: Any]])
            var flubbed: [Range<Double>] = []
            var said: [TrueWords.Word] = []
            for word in words {
                let (start, end) = (try #require(word["start"] as? Double) + preroll, try #require(word["end"] as? Double) + preroll)
                if word["flubbed"] as? Bool == true {
                    if let last = flubbed.last, start - last.upperBound < 0.3 { flubbed[flubbed.count - 1] = last.lowerBound..<end } else { flubbed.append(start..<end) }
                } else {
                    said.append(TrueWords.Word(text: try #require(word["text"] as? String), start: start, end: end))
                }
            }
            return (try #require(take["file"] as? String), flubbed, said)
        }
    }

    /// The parts of each take file the export kept (its pieces' in and out points), by file name.
    static func keptParts(_ summary: [String: Any]) throws -> [String: [Range<Double>]] {
        let inputs = try #require(summary["inputs"] as? [String])
        let trims = try #require(summary["trims"] as? [Any])
        var parts: [String: [Range<Double>]] = [:]
        for (input, trim) in zip(inputs, trims) {
            let trim = try #require(trim as? [String: Any])
            let start = try #require(trim["in"] as? Double), end = trim["out"] as? Double ?? 1e9
            parts[(input as NSString).lastPathComponent, default: []].append(start..<end)
        }
        return parts
    }
}
