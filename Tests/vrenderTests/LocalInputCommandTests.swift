import Foundation
import Testing
import VRenderTestSupport

/// `vrender concat` reads every name, on the command line or in a list, as the local file of
/// that name, however much it looks like one of FFmpeg's URLs (`LocalInput`).
@Suite struct LocalInputCommandTests {
    /// Relative names that FFmpeg read as protocols: `http:x.mov` failed as an HTTP URL, and
    /// `subfile,,…:small.mov` read 9 bytes of small.mov; each is the take saved under that name.
    @Test func namesThatLookLikeURLsAreLocalFiles() throws {
        let work = TestMedia.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let names = ["http:x.mov", "a:b.mov", "subfile,,start,0,end,9,,:small.mov"]
        try FileManager.default.copyItem(atPath: TestMedia.path("small_a.mov"), toPath: work + "/small.mov")
        for name in names { try FileManager.default.copyItem(atPath: TestMedia.path("small_b.mov"), toPath: work + "/" + name) }
        try ("ffconcat version 1.0\n" + names.map { "file '\($0)'\n" }.joined()).write(toFile: work + "/list.txt", atomically: true, encoding: .utf8)

        for inputs in [names, ["list.txt"]] {
            try? FileManager.default.removeItem(atPath: work + "/out.mov")
            let run = ProgramRun.run(CommandLineTests.binary, ["concat"] + inputs + ["-o", "out.mov", "--progress", "none"],
                                     currentDirectory: work)
            #expect(run.status == 0, "\(inputs): \(run.standardError)")
            let frames = ProgramRun.run("/usr/bin/ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0",
                                                             "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", work + "/out.mov"])
            #expect(frames.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == "90", "three 1 s takes at 30 fps")
        }
    }
}
