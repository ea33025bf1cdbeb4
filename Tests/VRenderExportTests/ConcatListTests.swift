import Testing
import VRenderCore
import VRenderMedia
@testable import VRenderExport

/// FFmpeg's concat script format as `vrender concat LIST.txt` reads it.
@Suite struct ConcatListTests {
    @Test func readsFilesWithTheirInAndOutPointsAsFFmpegWritesThem() throws {
        let text = """
            ffconcat version 1.0
            # a comment
            file 'take 1.mov'
            inpoint 1.5
            outpoint 00:00:04.250

            file 'it'\\''s.mp4'
            duration 3
            file /abs/c\\ d.mkv
            inpoint 2
            file_packet_meta key value
            """
        let list = try ConcatList(text: text, path: "/lists/talk.txt")
        #expect(list.entries == [
            .init(path: "/lists/take 1.mov", trim: TakeTrim(start: 1.5, end: 4.25)),
            .init(path: "/lists/it's.mp4", trim: TakeTrim(start: 0, end: 3)),
            .init(path: "/abs/c d.mkv", trim: TakeTrim(start: 2, end: nil)),
        ])
        #expect(list.notices == ["/lists/talk.txt line 11: 'file_packet_meta' is not applied by vrender (skipped)"])
    }

    @Test func refusesWhatItCannotApplyNamingTheLine() {
        let cases: [(String, String)] = [
            ("file a.mov\nstream\n", "/l.txt: line 2: 'stream' is not a directive vrender applies (it reads file, inpoint, outpoint and duration)"),
            ("inpoint 2\nfile a.mov\n", "/l.txt: line 1: 'inpoint' before any 'file'"),
            ("file a.mov\noutpoint soon\n", "/l.txt: line 2: 'soon' is not a time (seconds, or [HH:]MM:SS.mmm)"),
            ("file a.mov\ninpoint 3\noutpoint 2\n", "/l.txt: line 1: its out point (2.000 s) is not after its in point (3.000 s)"),
            ("file 'a.mov\n", "/l.txt: line 1: the file name's quote is not closed"),
            ("# nothing\n", "/l.txt: lists no files ('file NAME' lines)"),
        ]
        for (text, message) in cases {
            #expect(throws: VRenderError.self) { try ConcatList(text: text, path: "/l.txt") }
            do {
                _ = try ConcatList(text: text, path: "/l.txt")
            } catch let error as VRenderError {
                #expect(error.description == message)
            } catch {
                Issue.record("\(error)")
            }
        }
    }
}
