import Foundation
import Testing
import VRenderTestSupport

/// `vrender concat` as a user runs it: takes folders, recording order, usage mistakes.
@Suite struct ConcatCommandTests {
    let directory = TestMedia.scratchDirectory()

    func vrender(_ arguments: [String]) -> ProgramRun {
        ProgramRun.run(CommandLineTests.binary, arguments)
    }

    /// Hash of every decoded picture of `file`, in order (no timestamps).
    func pictureHashes(_ file: String) -> [String] {
        let run = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-i", file, "-map", "0:v", "-f", "framemd5", "-"])
        return run.standardOutput.split(separator: "\n").filter { !$0.hasPrefix("#") }
            .compactMap { $0.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) } }
    }

    /// Four synthetic takes; each differs from the others (its timecode strip), so order shows.
    func recordFourTakes() throws -> (folder: String, recordedOrder: [String]) {
        let folder = directory + "/takes"
        let capture = vrender(["capture", "--device", "synthetic", "--out", folder, "--takes", "4", "--duration", "300ms"])
        #expect(capture.status == 0, "\(capture.standardError)")
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/takes.json")))
        let takes = ((manifest as? [String: Any])?["takes"] as? [[String: Any]]) ?? []
        return (folder, takes.compactMap { $0["file"] as? String }.map { folder + "/" + $0 })
    }

    @Test func globAndFolderJoinTakesInRecordingOrder() throws {
        let (folder, recorded) = try recordFourTakes()
        #expect(recorded.count == 4)
        let expected = recorded.flatMap(pictureHashes)
        #expect(Set(expected).count > 4, "takes should differ from one another")

        // What the shell's glob gives: file names sorted byte-wise.
        let globbed = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".mov") }.sorted()
        let byGlob = directory + "/glob.mov"
        let glob = vrender(["concat"] + globbed.map { folder + "/" + $0 } + ["-o", byGlob, "--progress", "none"])
        #expect(glob.status == 0, "\(glob.standardError)")
        #expect(pictureHashes(byGlob) == expected)

        let byFolder = directory + "/folder.mov"
        let joined = vrender(["concat", folder, "-o", byFolder, "--progress", "none"])
        #expect(joined.status == 0, "\(joined.standardError)")
        #expect(pictureHashes(byFolder) == expected)
    }

    @Test func aFolderWithoutManifestIsJoinedInFileNameOrderAndSaysSo() throws {
        let (folder, recorded) = try recordFourTakes()
        try FileManager.default.removeItem(atPath: folder + "/takes.json")
        let output = directory + "/names.mov"
        let run = vrender(["concat", folder, "-o", output, "--progress", "none"])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardError.contains("no takes.json"))
        #expect(pictureHashes(output) == recorded.sorted().flatMap(pictureHashes))
    }

    /// Each mistake: one `vrender: error:` line naming the problem, the documented exit code,
    /// and nothing left behind.
    @Test(arguments: [
        (["--fps", "-1"], "--fps '-1'", 2),
        (["--crf", "-5"], "--crf", 2),
        (["-o", "o"], "no file extension", 2),
        (["-o", "clip.avi"], "not .avi", 2),
        (["--audio-track", "0"], "--audio-track", 2),
        (["-o", "missing-folder/out.mov"], "does not exist", 1),
    ])
    func mistakesGiveOneErrorLineAndLeaveNothing(extra: [String], mentions: String, status: Int32) throws {
        let work = TestMedia.scratchDirectory()
        let arguments = ["concat", TestMedia.path("small_a.mov")] + extra.map { $0.hasSuffix("out.mov") ? work + "/" + $0 : $0 }
        let run = ProgramRun.run(CommandLineTests.binary, arguments, currentDirectory: work)
        #expect(run.status == status, "\(run.standardError)")
        let errors = run.standardError.split(separator: "\n").filter { $0.hasPrefix("vrender: error:") }
        #expect(errors.count == 1, "\(run.standardError)")
        #expect(errors.first?.contains(mentions) == true, "\(run.standardError)")
        #expect(!run.standardError.contains("plan:"), "the output is checked before planning")
        #expect(try FileManager.default.contentsOfDirectory(atPath: work).isEmpty)
    }

    @Test func aStillImageIsRefusedByName() throws {
        let picture = directory + "/still.png"
        let made = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=64x64", "-frames:v", "1", picture])
        #expect(made.status == 0)
        let run = vrender(["concat", picture, "-o", directory + "/x.mov", "--progress", "none"])
        #expect(run.status == 1)
        #expect(run.standardError.contains("\(picture): is a still image"))
        #expect(!FileManager.default.fileExists(atPath: directory + "/x.mov"))
    }
}
