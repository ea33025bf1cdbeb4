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

    /// Made by ffmpeg: H.264 with B-frames in Matroska, whose first packets carry no decoding time.
    func matroskaTake(_ name: String) -> String {
        let path = folder + "/" + name
        let made = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=320x180:r=30:d=2",
                                                      "-c:v", "libx264", "-bf", "2", path])
        #expect(made.status == 0, "\(made.standardError)")
        return path
    }

    /// Found by the side-streams work: the second take's packets without a decoding time made
    /// the muxer refuse the copy, and the fallback called two healthy files damaged.
    @Test(arguments: ["mkv", "mp4"]) func matroskaTakesAreCopiedTogether(ext: String) {
        let takes = [matroskaTake("m1.mkv"), matroskaTake("m2.mkv")]
        let output = folder + "/joined." + ext
        let run = GuardedRun.vrender(["concat"] + takes + ["-o", output, "--progress", "none"])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("(stream-copy)"), "\(run.standardOutput)")
        #expect(!run.standardError.contains("warning"), "\(run.standardError)")
        #expect(ProgramRun.decodeErrors(output) == "")
        #expect(ProgramRun.decodedFrames(output) == 120)
    }

    /// WebM's muxer checks codecs only when it writes the header: the copy check writes one.
    @Test func h264IntoWebMIsTranscodedNotRefused() {
        let input = matroskaTake("w.mkv")
        let output = folder + "/w.webm"
        let run = GuardedRun.vrender(["concat", input, "-o", output, "--progress", "none"])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardError.contains("plan: transcode: a .webm file (webm) cannot hold h264"), "\(run.standardError)")
        #expect(ProgramRun.ffprobe(output, stream: "v", entries: "stream=codec_name") == "vp9")
        #expect(ProgramRun.decodedFrames(output) == 60)
    }

    /// An MPEG program stream states a presentation time only now and then; Matroska needs one on
    /// every packet. Transcoded, and not called damage.
    @Test func programStreamIntoMatroskaIsTranscodedWithoutCallingItDamaged() {
        let input = folder + "/dvd.mpg"
        let made = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=352x288:r=25:d=2",
                                                      "-c:v", "mpeg2video", "-bf", "2", "-f", "vob", input])
        #expect(made.status == 0, "\(made.standardError)")
        let output = folder + "/dvd.mkv"
        let run = GuardedRun.vrender(["concat", input, "-o", output, "--progress", "none"])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(!run.standardError.contains("damaged"), "\(run.standardError)")
        #expect(ProgramRun.decodeErrors(output) == "")
        #expect(ProgramRun.ffprobe(output, stream: "v", entries: "stream=codec_name") != "mpeg2video")
    }
}

/// Export correctness 3: an animated GIF copied into .mkv read back as one packet (FFmpeg's
/// GIF parser joins Matroska's blocks), so players showed 1 of its 10 frames for 0.1 s. The
/// read-back now counts packets, and such a copy is transcoded, saying why.
@Suite struct GIFIntoMatroskaTests {
    let folder = TestMedia.scratchDirectory()

    @Test func anAnimatedGIFIntoMatroskaIsTranscodedFrameForFrame() {
        let input = folder + "/anim.gif", output = folder + "/anim.mkv"
        // A palette per file, as users make GIFs: its frames are what Matroska joins.
        let made = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=10:duration=1",
                                                      "-vf", "split[a][b];[a]palettegen[p];[b][p]paletteuse", input])
        #expect(made.status == 0, "\(made.standardError)")
        let run = GuardedRun.vrender(["concat", input, "-o", output, "--progress", "none"])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardError.contains("plan: transcode: a .mkv file (matroska) cannot hold gif as it is"),
                "\(run.standardError)")
        #expect(ProgramRun.decodeErrors(output) == "")
        #expect(ProgramRun.decodedFrames(output) == 10)
        #expect(ProgramRun.ffprobe(output, stream: "v", entries: "stream=r_frame_rate") == "10/1")
        let length = Double(ProgramRun.ffprobe(output, stream: "v", entries: "format=duration")) ?? 0
        #expect(abs(length - 1) < 0.01, "the export lasts \(length) s")
    }
}
