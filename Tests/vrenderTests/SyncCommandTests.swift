import Foundation
import Testing
import VRenderTestSupport

/// `vrender sync` on the synthetic clapper's takes as a user runs it: takes in sync, the same
/// after `concat --loudness` raised or lowered the sound (where a full-scale threshold found
/// every voice peak or no click), a dissolve's blended flashes skipped rather than failed, a
/// file whose sound was moved by 40 ms failing with that offset, and files with nothing to judge.
@Suite struct SyncCommandTests {
    let directory = TestMedia.scratchDirectory()

    func vrender(_ arguments: [String]) -> ProgramRun {
        ProgramRun.run(CommandLineTests.binary, arguments)
    }

    /// Two 3 s takes of the synthetic camera and microphone: flashes (and clicks) at 0, 1 and 2 s
    /// of each; the click of a take's first frame falls before its sound starts (AAC's priming).
    func record() throws -> String {
        let folder = directory + "/takes"
        let run = vrender(["capture", "--device", "synthetic", "--out", folder, "--takes", "2", "--duration", "3s",
                           "--size", "320x180"])
        try #require(run.status == 0, "\(run.standardError)")
        return folder
    }

    func sync(_ path: String, _ extra: [String] = []) throws -> (status: Int32, files: [[String: Any]], run: ProgramRun) {
        let run = vrender(["sync", path, "--json"] + extra)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any],
                                "\(run.standardOutput)\(run.standardError)")
        #expect(json["ok"] as? Bool == (run.status == 0))
        return (run.status, try #require(json["files"] as? [[String: Any]]), run)
    }

    func export(_ folder: String, _ name: String, _ options: [String]) throws -> String {
        let output = directory + "/" + name
        let run = vrender(["concat", folder, "--codec", "h264", "--preset", "ultrafast", "-o", output, "--progress", "none"] + options)
        try #require(run.status == 0, "\(run.standardError)")
        return output
    }

    static func offsets(_ file: [String: Any]) -> [Double] {
        ((file["pairs"] as? [[String: Any]]) ?? []).compactMap { $0["offsetMs"] as? Double }
    }

    static func skipped(_ file: [String: Any], _ reason: String) -> [Double] {
        ((file["skipped"] as? [[String: Any]]) ?? []).filter { $0["reason"] as? String == reason }.compactMap { $0["flash"] as? Double }
    }

    @Test func takesAreInSyncTakeByTake() throws {
        let folder = try record()
        let result = try sync(folder)
        #expect(result.status == 0, "\(result.run.standardOutput)")
        #expect(result.files.count == 2)
        for file in result.files {
            #expect(file["verdict"] as? String == "ok" && file["flashes"] as? Int == 3 && file["clicks"] as? Int == 2, "\(file)")
            let offsets = Self.offsets(file)
            #expect(offsets.count == 2 && offsets.allSatisfy { abs($0) <= 1 }, "\(offsets)")
            // The first frame's flash (a take's clock may start a frame or two in): its click
            // falls in the encoder's priming, before any sound.
            let pairs = (file["pairs"] as? [[String: Any]] ?? []).compactMap { $0["flash"] as? Double }
            #expect(Self.skipped(file, "silence").count == 1 && Self.skipped(file, "silence")[0] < 0.1
                    && pairs.map { ($0 - Self.skipped(file, "silence")[0]).rounded() } == [1, 2], "\(file)")
        }
        let human = vrender(["sync", folder])
        #expect(human.status == 0)
        #expect(human.standardOutput.contains(": 3 flashes, 2 clicks, 2 pairs, 1 skipped (0 transition, 1 silence), 0 flashes without a click\n"),
                "\(human.standardOutput)")
    }

    /// -16 LUFS raises the takes' -29 LUFS by 14 dB into the limiter (voice peaks then pass half
    /// scale), -10 LUFS by 54 dB (click and voice squeezed to the same peak), -40 LUFS lowers it
    /// by 11 dB (no click reaches half scale): every clap still found, and only clicks.
    @Test(arguments: ["-16", "-10", "-40"])
    func levelledSoundStillFindsEveryClap(loudness: String) throws {
        let output = try export(try record(), "levelled.mp4", ["--loudness", loudness])
        let result = try sync(output)
        let file = try #require(result.files.first)
        #expect(result.status == 0, "\(result.run.standardOutput)")
        let offsets = Self.offsets(file)
        // Flashes at 0, 1, 2, 3, 4 and 5 s; those at 0 and 3 s (each take's first frame) unheard.
        #expect(offsets.count == 4 && offsets.allSatisfy { abs($0) <= 1.5 }, "\(file)")
        #expect(file["clicks"] as? Int == 4, "\(file)")
        #expect(Self.skipped(file, "silence").map { ($0 * 10).rounded() / 10 } == [0, 3], "\(file)")
    }

    /// The synthetic presenter reading a script (espeak-ng: sibilants as loud at 3 kHz as a
    /// click once levelled) raised 40 dB into the limiter: still every clap and nothing else,
    /// where a 3 kHz level alone took a sibilant for a click 51 ms from its flash.
    @Test func levelledSpeechStillFindsEveryClap() throws {
        let script = directory + "/script.txt"
        try "She sells seashells, surely; six sick sheikhs sit shushing.\nSuch sizzling speech should stress the search.\n"
            .write(toFile: script, atomically: true, encoding: .utf8)
        let folder = directory + "/spoken"
        let capture = vrender(["capture", "--device", "synthetic", "--out", folder, "--duration", "8s", "--size", "320x180",
                               "--prompter", script])
        try #require(capture.status == 0, "\(capture.standardError)")
        let result = try sync(try export(folder, "spoken.mp4", ["--loudness", "-10"]))
        let file = try #require(result.files.first)
        #expect(result.status == 0, "\(result.run.standardOutput)")
        #expect(Self.offsets(file).count == 7 && Self.offsets(file).allSatisfy { abs($0) <= 1.5 }, "\(file)")
        #expect(file["clicks"] as? Int == 7, "\(file)")
    }

    /// A 1.5 s dissolve: take 1's flash at 2 s and take 2's at its 1 s (2.5 s out) are two
    /// thirds lit (blended with the other take's black patch), their clicks at two thirds.
    @Test func dissolveSkipsBlendedFlashesWithoutFailing() throws {
        let output = try export(try record(), "dissolve.mp4", ["--transition", "fade:1.5"])
        let result = try sync(output)
        let file = try #require(result.files.first)
        #expect(result.status == 0, "\(result.run.standardOutput)")
        #expect(Self.skipped(file, "transition").map { ($0 * 10).rounded() / 10 } == [2, 2.5], "\(file)")
        #expect(Self.offsets(file).count == 2 && Self.offsets(file).allSatisfy { abs($0) <= 1.5 }, "\(file)")
        #expect((file["flashesWithoutClick"] as? [Double])?.isEmpty == true)
    }

    /// The sound moved 40 ms later or earlier by remuxing (an edit list in the .mov): every
    /// pair is off by that much, with the sign of the move, and sync fails.
    @Test(arguments: [40.0, -40.0])
    func movedSoundFailsWithItsOffset(milliseconds: Double) throws {
        let folder = try record()
        let take = try #require(try FileManager.default.contentsOfDirectory(atPath: folder).sorted().first { $0.hasSuffix(".mov") })
        let moved = directory + "/moved.mov"
        let remux = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-i", folder + "/" + take, "-itsoffset", String(milliseconds / 1000),
                                                       "-i", folder + "/" + take, "-map", "0:v", "-map", "1:a", "-c", "copy", moved])
        try #require(remux.status == 0, "\(remux.standardError)")
        let result = try sync(moved)
        let file = try #require(result.files.first)
        #expect(result.status == 1 && file["verdict"] as? String == "fail", "\(file)")
        let offsets = Self.offsets(file)
        #expect(offsets.count == 2 && offsets.allSatisfy { abs($0 - milliseconds) <= 1 }, "\(offsets)")
        let human = vrender(["sync", moved, "--limit-ms", "50"])
        #expect(human.status == 0, "\(human.standardOutput)")
    }

    @Test func nothingToJudgeIsSaidAndBadInputNamed() throws {
        let silent = TestMedia.path("mpeg4_854x480_24_noaudio.mkv")
        let quiet = try sync(silent)
        #expect(quiet.status == 1 && quiet.files.first?["verdict"] as? String == "unjudged")
        #expect(vrender(["sync", silent]).standardOutput.contains("no sound to judge: the file has no audio track"))
        let text = directory + "/notes.txt"
        try "not a video\n".write(toFile: text, atomically: true, encoding: .utf8)
        for path in [text, directory + "/missing.mov"] {
            let run = vrender(["sync", path])
            #expect(run.status == 1 && run.standardError.hasPrefix("vrender: error: \(path)"), "\(run.standardError)")
        }
        #expect(vrender(["sync", silent, "--limit-ms", "0"]).status == 2)
    }
}
