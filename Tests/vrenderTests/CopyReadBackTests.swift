import Foundation
import Testing
import VRenderTestSupport

/// Issue 21, item 7: QuickTime Animation (qtrle) copied into .mkv made a file ffprobe cannot
/// read (the muxer's dry run accepted it; the bits per pixel are lost). A copy is now read back
/// before it is planned, and this one is transcoded, saying why.
@Suite struct CopyReadBackTests {
    let folder = TestMedia.scratchDirectory()

    func qtrleTake() -> String {
        let path = folder + "/a.mov"
        let made = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=320x180:d=2",
                                                      "-c:v", "qtrle", path])
        #expect(made.status == 0, "\(made.standardError)")
        return path
    }

    @Test func qtrleIntoMatroskaIsTranscodedAndReadable() {
        let input = qtrleTake()
        let output = folder + "/a.mkv"
        let run = GuardedRun.vrender(["concat", input, "-o", output, "--progress", "none"])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardError.contains("plan: transcode: a .mkv file (matroska) cannot hold qtrle as it is"),
                "\(run.standardError)")
        #expect(ProgramRun.ffprobe(output, stream: "v", entries: "stream=pix_fmt") == "yuv420p")
        #expect(ProgramRun.decodeErrors(output) == "")
        #expect(ProgramRun.decodedFrames(output) == 50)
    }

    @Test func qtrleIntoQuickTimeIsStillCopied() {
        let input = qtrleTake()
        let output = folder + "/b.mov"
        let run = GuardedRun.vrender(["concat", input, "-o", output, "--progress", "none"])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("(stream-copy)"), "\(run.standardOutput)")
        #expect(ProgramRun.ffprobe(output, stream: "v", entries: "stream=codec_name") == "qtrle")
        #expect(ProgramRun.decodedFrames(output) == 50)
    }

    @Test func qtrleUnderCodecCopyIntoMatroskaIsRefusedWithTheReason() {
        let input = qtrleTake()
        let output = folder + "/c.mkv"
        let run = GuardedRun.vrender(["concat", input, "-o", output, "--codec", "copy", "--progress", "none"])
        #expect(run.status != 0)
        #expect(run.standardError.contains("cannot hold qtrle as it is"), "\(run.standardError)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }
}
