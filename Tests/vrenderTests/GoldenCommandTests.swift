import Foundation
import Testing
import VRenderTestSupport

/// `vrender golden record|check|diff` run as a user (or a CI script) runs them.
@Suite struct GoldenCommandTests {
    let scratch = ScratchFolder()
    static let video = TestMedia.path("small_a.mov")   // 30 frames, 320x240

    func vrender(_ arguments: String...) -> ProgramRun {
        ProgramRun.run(CommandLineTests.binary, arguments)
    }

    /// Exports `small_a.mov` losslessly with `filter`, as a CI job would before checking.
    private func export(_ filter: String) -> String {
        let output = scratch.path + "/\(filter).mkv"
        let run = vrender("concat", Self.video, "--filter", filter, "--codec", "ffv1", "--gpu", "cpu", "--progress", "none", "-o", output)
        precondition(run.status == 0, run.standardError)
        return output
    }

    /// Exactly one `vrender: error:` line, containing `mentions`.
    private func expectOneError(_ run: ProgramRun, _ status: Int32, _ mentions: String,
                                sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(run.status == status, "\(run.standardError)", sourceLocation: sourceLocation)
        let errors = run.standardError.split(separator: "\n").filter { $0.contains("vrender: error:") }
        #expect(errors.count == 1, "\(run.standardError)", sourceLocation: sourceLocation)
        #expect(errors.first?.hasPrefix("vrender: error: ") == true, sourceLocation: sourceLocation)
        #expect(errors.first?.contains(mentions) == true, "\(run.standardError)", sourceLocation: sourceLocation)
    }

    @Test func aMatchingVideoPassesWithOneLine() {
        let golden = scratch.path + "/g"
        let record = vrender("golden", "record", Self.video, "--golden", golden, "--frames", "0,middle,last")
        #expect(record.status == 0, "\(record.standardError)")
        #expect(record.standardOutput == "golden: recorded 30 frames of \(Self.video) in \(golden) (exact); references: frames 0,15,29\n")
        let check = vrender("golden", "check", Self.video, "--golden", golden, "--threads", "2")
        #expect(check.status == 0, "\(check.standardError)")
        #expect(check.standardOutput == "golden: 30 frames match \(golden) (exact)\n")
        #expect(check.standardError.isEmpty)
    }

    @Test func anotherFilterFailsWithATableAndAHeatMap() throws {
        let golden = scratch.path + "/mono"
        #expect(vrender("golden", "record", export("mono"), "--golden", golden, "--frames", "15").status == 0)
        let sepia = export("sepia")
        let check = vrender("golden", "check", sepia, "--golden", golden)
        expectOneError(check, 1, "\(sepia): does not match \(golden) (exact): 31 difference(s) in 30 frame(s); heat maps: \(golden)/diff-000015.png")
        let lines = check.standardOutput.split(separator: "\n")
        #expect(lines.first?.hasPrefix("frame  what     expected") == true, "\(check.standardOutput)")
        #expect(lines.contains { $0.hasPrefix("0      md5      ") })
        #expect(lines.contains { $0.hasPrefix("15     picture  frame-000015.png ") && $0.contains(" dB, ssim 0.") })
        #expect(lines.last == "... md5 also differs in 20 more frame(s), 10-29")
        #expect(FileManager.default.fileExists(atPath: golden + "/diff-000015.png"))
        let map = ProgramRun.ffprobe(golden + "/diff-000015.png", stream: "v:0", entries: "stream=width,height")
        #expect(map == "320")
    }

    @Test func aLooserToleranceIsAUsageError() {
        let golden = scratch.path + "/lossy"
        #expect(vrender("golden", "record", Self.video, "--golden", golden, "--psnr", "40").status == 0)
        let looser = vrender("golden", "check", Self.video, "--golden", golden, "--psnr", "30")
        expectOneError(looser, 2, "--psnr: psnr 30 dB is looser than the psnr 40 dB \(golden) was recorded with")
        let tighter = vrender("golden", "check", Self.video, "--golden", golden, "--psnr", "45")
        #expect(tighter.status == 0, "\(tighter.standardError)")
        #expect(tighter.standardOutput.hasPrefix("golden: 30 frames match \(golden) (lossy, psnr >= 45 dB); worst reference frame "))
        let exact = scratch.path + "/exact"
        #expect(vrender("golden", "record", Self.video, "--golden", exact, "--every", "10").status == 0)
        expectOneError(vrender("golden", "check", Self.video, "--golden", exact, "--ssim", "0.9"), 2,
                       "--ssim: \(exact) is an exact golden")
    }

    @Test func errorsNameWhatIsAtFault() {
        let golden = scratch.path + "/g"
        let missing = scratch.path + "/missing.mov"
        let notes = TestMedia.path("bad/notes.mov")
        expectOneError(vrender("golden", "record", missing, "--golden", golden), 1, "\(missing): no such file")
        expectOneError(vrender("golden", "record", notes, "--golden", golden), 1, "\(notes): ")
        expectOneError(vrender("golden", "check", Self.video, "--golden", scratch.path + "/none"), 1,
                       "\(scratch.path)/none: no such golden folder")
        expectOneError(vrender("golden", "record", Self.video, "--golden", golden, "--frames", "0,x"), 2,
                       "--frames: 'x' is not a frame number")
        expectOneError(vrender("golden", "record", Self.video, "--golden", golden, "--frames", "30"), 2,
                       "--frames: frame 30 is beyond the end of \(Self.video), whose last frame is 29")
        expectOneError(vrender("golden", "record", Self.video, "--golden", golden, "--frames", "1", "--every", "2"), 2,
                       "give --frames or --every, not both")
        expectOneError(vrender("golden", "record", Self.video, "--golden", golden, "--psnr", "30", "--ssim", "0.9"), 2,
                       "give --psnr or --ssim, not both")
        expectOneError(vrender("golden", "record", Self.video), 2, "--golden")
        let other = TestMedia.path("hevc_640x480_25_aac44k_mono.mp4")
        expectOneError(vrender("golden", "diff", Self.video, other), 1, "is 320x240 but \(other)'s is 640x480")
        #expect(!FileManager.default.fileExists(atPath: golden), "no failed record leaves a folder")
    }

    @Test func diffPrintsEveryFrameAndTheWorst() throws {
        let mono = export("mono"), noir = export("noir")
        let diff = vrender("golden", "diff", mono, noir)
        #expect(diff.status == 0, "\(diff.standardError)")
        let lines = diff.standardOutput.split(separator: "\n")
        #expect(lines.first == "frame  psnr      ssim")
        #expect(lines.filter { $0.first?.isNumber == true && !$0.contains("frames") }.count == 30)
        #expect(lines.contains { $0.hasPrefix("worst: frame ") })
        #expect(lines.last?.hasPrefix("30 frames of 320x240 compared; mean psnr ") == true)

        let json = vrender("golden", "diff", mono, mono, "--json")
        #expect(json.status == 0)
        let decoded = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any]
        let scores = try #require(decoded?["scores"] as? [[String: Any]])
        #expect(scores.count == 30)
        #expect(scores.first?["psnr"] is NSNull, "identical frames: infinite PSNR, written as null")
        #expect(scores.first?["ssim"] as? Double == 1)
    }

    @Test func helpNamesTheSubcommandsAndOptions() {
        let help = vrender("golden", "--help")
        #expect(help.status == 0)
        for word in ["record", "check", "diff"] { #expect(help.standardOutput.contains(word)) }
        let record = vrender("golden", "record", "--help")
        for option in ["--golden", "--frames", "--every", "--psnr", "--ssim", "--threads"] {
            #expect(record.standardOutput.contains(option), "record --help lacks \(option)")
        }
    }
}
