import Foundation
import Testing
import VRenderCore
import VRenderTakes
import VRenderTestSupport
@testable import VRenderAlignment

/// `vrender takes captions`: files ffmpeg reads, cues that are the script's words, where
/// ffmpeg hears speech.
@Suite struct TakeCaptionsTests {
    let test = ScriptAlignerTests()

    @Test func eachTakeGetsCaptionsWhereTheVoiceIs() throws {
        let recorded = try test.alignRecorded(ScriptAlignerTests.english, takes: 2, seconds: 10)
        let folder = test.directory
        try Data(ScriptAlignerTests.english.utf8).write(to: URL(fileURLWithPath: folder + "/talk.txt"))
        var heard: [String] = []
        let results = try TakeCaptions.write(TakeCaptions.Request(folder: folder)) { heard.append($0.take) }
        #expect(heard == recorded.map(\.take.file) && results.count == 2)
        let words = ScriptAlignerTests.english.split(whereSeparator: \.isWhitespace).map(String.init)
        for (result, take) in zip(results, recorded.map(\.take)) {
            #expect(result.files.count == 2 && !result.cues.isEmpty)
            for file in result.files {
                let path = folder + "/" + file
                #expect(ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-i", path, "-map", "0", "-c", "copy", "-f", "null", "-"]).status == 0,
                        "\(file)")
            }
            // Each cue is the script's words in order, and nothing else.
            for cue in result.cues {
                #expect(cue.text.replacingOccurrences(of: "\n", with: " ") == words[cue.words].joined(separator: " "))
            }
            // ffmpeg's speech (on the take's clock) begins within 150 ms of each cue's start,
            // and ends within 150 ms of its end where the cue holds at least a second of words.
            let path = folder + "/" + take.file
            let origin = try #require(ProgramRun.streamSpan(path, "v")).start
            let spans = ProgramRun.soundSpans(path).map { (start: $0.start - origin, end: $0.end - origin) }
                .filter { $0.end - $0.start > 0.1 }
            for cue in result.cues {
                #expect(spans.contains { abs($0.start - cue.start) <= 0.15 }, "cue at \(cue.start)")
                if cue.end - cue.start > 1.1 && cue.end < take.duration - 0.2 {
                    #expect(spans.contains { abs($0.end - cue.end) <= 0.15 }, "cue ending \(cue.end)")
                }
            }
            // No speech longer than 0.3 s goes without a cue (the take's cut-off last words aside).
            for span in spans where span.end - span.start > 0.3 && span.end < take.duration - 0.5 {
                #expect(result.cues.contains { $0.start < span.end && $0.end > span.start }, "speech at \(span.start)")
            }
        }
    }

    @Test func aScriptNamedOutsideTheFolderIsNotRead() throws {
        _ = try test.alignRecorded(ScriptAlignerTests.english, takes: 1, seconds: 2)
        // takes.json names "talk.txt" (as typed at capture); the folder has no copy of it.
        let error = #expect(throws: VRenderError.self) { try TakeCaptions.write(TakeCaptions.Request(folder: test.directory)) }
        #expect(error?.subject == "--script" && error?.reason.contains("'talk.txt'") == true)
        #expect(!FileManager.default.fileExists(atPath: test.directory + "/captions/x"))
    }

    /// A take that is not a video (a crafted or broken file named in takes.json) is refused by
    /// its own name, not by the descriptor it was read through, and nothing is written for it.
    @Test func aTakeThatIsNotAVideoIsRefusedByName() throws {
        let take = try #require(try test.alignRecorded(ScriptAlignerTests.english, takes: 1, seconds: 2).first).take
        try Data(ScriptAlignerTests.english.utf8).write(to: URL(fileURLWithPath: test.directory + "/talk.txt"))
        try Data("not a video".utf8).write(to: URL(fileURLWithPath: test.directory + "/" + take.file))
        let error = #expect(throws: VRenderError.self) { try TakeCaptions.write(TakeCaptions.Request(folder: test.directory)) }
        #expect(error?.subject == test.directory + "/" + take.file, "\(String(describing: error))")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: test.directory + "/captions"))?.isEmpty ?? true)
    }
}
