import Testing
import VRenderCore
@testable import VRenderMedia
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
            .init(path: "/lists/take 1.mov", inpoint: 1.5, outpoint: 4.25),
            .init(path: "/lists/it's.mp4", duration: 3),
            .init(path: "/abs/c d.mkv", inpoint: 2),
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

    /// A 2 s take at 25 fps whose video starts at `start` on its file's clock.
    private func take(startingAt start: Double) -> MediaInfo {
        let video = VideoStreamInfo(index: 0, codecName: "wmv2", width: 160, height: 120, pixelFormat: "yuv420p",
                                    timeBase: Rational(1, 1000), frameRate: Rational(25, 1), rotation: .none,
                                    displayMatrix: nil, extradata: [], startTime: start, duration: 2)
        return MediaInfo(path: "/t/a.wmv", container: "asf", video: video, audio: nil)
    }

    /// Export correctness 3, item 4: points on the file's clock become a trim from the first
    /// picture on whole frames: the frame on screen at the in point is the first kept, frames
    /// starting at or after the out point are not (FFmpeg's concat demuxer).
    @Test func pointsOnTheFilesClockKeepTheFramesFFmpegShows() throws {
        let late = take(startingAt: 0.043)  // frame k at 0.043 + k/25
        let cases: [(ConcatList.Entry, TakeTrim?)] = [
            (.init(path: "a", inpoint: 0.2, outpoint: 0.8), TakeTrim(start: 3.0 / 25, end: 19.0 / 25)),   // frames 3–18
            (.init(path: "a", inpoint: 0.203, outpoint: 0.803), TakeTrim(start: 4.0 / 25, end: 19.0 / 25)),  // on a frame's start
            (.init(path: "a", inpoint: 0.01), TakeTrim(start: 0, end: nil)),                               // before the first frame
            (.init(path: "a", inpoint: 0.2, duration: 0.6), TakeTrim(start: 3.0 / 25, end: 19.0 / 25)),    // duration: outpoint 0.8
            (.init(path: "a", duration: 0.4), TakeTrim(start: 0, end: 10.0 / 25)),                         // from the first picture
            (.init(path: "a"), nil),
        ]
        for (entry, trim) in cases {
            let got = try entry.trim(of: late)
            #expect(got.map { [$0.start, $0.end ?? -1] }.map { $0.map { ($0 * 1e9).rounded() } }
                    == trim.map { [$0.start, $0.end ?? -1] }.map { $0.map { ($0 * 1e9).rounded() } }, "\(entry.pointsText)")
        }
        // Files starting at 0 cut where the points say: frame k from k/25 s.
        let zero = take(startingAt: 0)
        #expect(try ConcatList.Entry(path: "a", inpoint: 0.12, outpoint: 0.8).trim(of: zero) == TakeTrim(start: 3.0 / 25, end: 20.0 / 25))
        #expect(throws: VRenderError.self) { try ConcatList.Entry(path: "/t/a.wmv", inpoint: 0.2, outpoint: 0.2005).trim(of: zero) }
        do {
            _ = try ConcatList.Entry(path: "/t/a.wmv", inpoint: 0.01, outpoint: 0.03).trim(of: late)
            Issue.record("points before the first frame kept a frame")
        } catch let error as VRenderError {
            #expect(error.description == "/t/a.wmv: its list's inpoint 0.010 s outpoint 0.030 s keep no frame: "
                    + "its video starts at 0.043 s on the file's clock, a frame every 0.040 s")
        }
    }
}
