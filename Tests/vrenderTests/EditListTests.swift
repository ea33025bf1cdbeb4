import Foundation
import Testing
import VRenderTestSupport

/// Issue 21, item 2: a clip trimmed by an edit list (`ffmpeg -ss 1.5 -i src.mp4 -c copy`)
/// keeps the whole group of pictures its cut starts in; FFmpeg's mov demuxer marks the 45
/// frames before the cut to be discarded (decoded as references, never shown). An export shows
/// what a player shows: 75 frames from the source's 1.5 s on, the sound in its place, and a
/// summary that counts the frames a player counts. A copy keeps the hidden frames only where
/// the output's own edit list hides them again (the first take of a .mov/.mp4); elsewhere
/// the take is transcoded, and the plan says why.
@Suite struct EditListTests {
    let folder = ScratchFolder()

    /// src.mp4: 4 s at 30 fps in one group of pictures, a 1 kHz beep from 2.0 s to 2.3 s;
    /// cut.mp4: its copy from 1.5 s (beep at 0.5 s); clip.mp4: 2 s, beep at 1.0 s.
    func media() -> (source: String, cut: String, clip: String) {
        let (source, cut, clip) = (folder.path + "/src.mp4", folder.path + "/cut.mp4", folder.path + "/clip.mp4")
        TimingJudge.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=320x180:r=30:d=4", "-f", "lavfi", "-i",
                            "aevalsrc='if(between(t,2,2.3),0.5*sin(2*PI*1000*t),0)':s=48000:d=4",
                            "-c:v", "libx264", "-g", "300", "-c:a", "aac", source])
        TimingJudge.ffmpeg(["-ss", "1.5", "-i", source, "-c", "copy", cut])
        TimingJudge.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=320x180:r=30:d=2", "-f", "lavfi", "-i",
                            "aevalsrc='if(between(t,1,1.3),0.5*sin(2*PI*1000*t),0)':s=48000:d=2",
                            "-c:v", "libx264", "-g", "300", "-c:a", "aac", clip])
        return (source, cut, clip)
    }

    func export(_ inputs: [String], _ output: String, _ extra: [String] = []) -> ProgramRun {
        let run = GuardedRun.vrender(["concat"] + inputs + ["-o", folder.path + "/" + output, "--progress", "none"] + extra)
        #expect(run.status == 0, "\(run.standardError)")
        return run
    }

    @Test(arguments: [("alone.mov", [String]()), ("alone.mp4", ["--codec", "h264", "--preset", "ultrafast"]),
                      ("alone.mkv", [])])
    func trimmedClipAloneShowsWhatAPlayerShows(output: String, options: [String]) throws {
        let (source, cut, _) = media()
        let shown = ProgramRun.decodedFrames(cut)
        #expect(shown == 75, "ffmpeg shows the 2.5 s after the cut")
        let run = export([cut], output, options)
        let file = folder.path + "/" + output
        #expect(ProgramRun.decodedFrames(file) == shown)
        #expect(TimingJudge.reportedFrames(run) == shown, "the summary counts shown frames: \(run.standardOutput)")
        let times = TimingJudge.frameTimes(file)
        #expect(abs((times.last ?? 0) - (times.first ?? 0) - 74.0 / 30) < 0.005)
        if output.hasSuffix(".mkv") {
            #expect(run.standardError.contains("\(cut) has an edit list that hides 45 decoded frame(s)"), "\(run.standardError)")
        }
        // The first picture is the source's at 1.5 s, the last its at 3.967 s.
        let exported = TimingJudge.pictures(file)
        let original = TimingJudge.pictures(source)
        #expect(exported.count == 75 && original.count == 120)
        if let first = exported.first, let last = exported.last, original.count == 120 {
            #expect(TimingJudge.psnr(first, original[45]) >= 30)
            #expect(TimingJudge.psnr(first, original[44]) < TimingJudge.psnr(first, original[45]))
            #expect(TimingJudge.psnr(last, original[119]) >= 30)
        }
        // The beep the source has at 2.0 s sounds 0.5 s after the first picture.
        let onsets = TimingJudge.soundOnsets(file)
        #expect(onsets.count == 1)
        #expect(abs((onsets.first ?? -1) - (times.first ?? 0) - 0.5) <= 0.025, "onsets \(onsets), first frame \(times.first ?? -1)")
    }

    @Test(arguments: ["mp4", "mov"])
    func trimmedClipFirstIsCopiedItsHiddenFramesStayHidden(container: String) throws {
        let (source, cut, clip) = media()
        let run = export([cut, clip], "joined.\(container)")
        #expect(run.standardError.contains("plan: stream copy"), "\(run.standardError)")
        let file = folder.path + "/joined.\(container)"
        #expect(ProgramRun.decodedFrames(file) == 75 + 60)
        #expect(TimingJudge.reportedFrames(run) == 75 + 60, "\(run.standardOutput)")
        let exported = TimingJudge.pictures(file)
        let original = TimingJudge.pictures(source)
        if exported.count == 135, original.count == 120 {
            #expect(TimingJudge.psnr(exported[0], original[45]) >= 30)
            #expect(TimingJudge.psnr(exported[75], TimingJudge.pictures(clip)[0]) >= 30)
        }
        let onsets = TimingJudge.soundOnsets(file)
        #expect(onsets.count == 2)
        #expect(abs((onsets.first ?? -1) - 0.5) <= 0.025 && abs((onsets.last ?? -1) - 3.5) <= 0.025, "\(onsets)")
    }

    @Test(arguments: [("mp4", [String]()), ("mkv", []), ("mov", ["--codec", "h264", "--preset", "ultrafast"])])
    func trimmedClipSecondIsTranscodedToShowOnlyItsShownFrames(container: String, options: [String]) throws {
        let (source, cut, clip) = media()
        let run = export([clip, cut], "joined.\(container)", options)
        if options.isEmpty {
            #expect(run.standardError.contains("plan: transcode: \(cut) has an edit list that hides 45 decoded frame(s)"),
                    "\(run.standardError)")
        }
        let file = folder.path + "/joined.\(container)"
        #expect(ProgramRun.decodedFrames(file) == 60 + 75)
        #expect(TimingJudge.reportedFrames(run) == 60 + 75, "\(run.standardOutput)")
        let exported = TimingJudge.pictures(file)
        let original = TimingJudge.pictures(source)
        if exported.count == 135, original.count == 120 {
            #expect(TimingJudge.psnr(exported[60], original[45]) >= 30, "the cut's first shown picture follows the clip")
            #expect(TimingJudge.psnr(exported[134], original[119]) >= 30)
        }
        let start = TimingJudge.frameTimes(file).first ?? 0
        let onsets = TimingJudge.soundOnsets(file).map { $0 - start }
        #expect(onsets.count == 2)
        #expect(abs((onsets.first ?? -1) - 1.0) <= 0.025 && abs((onsets.last ?? -1) - 2.5) <= 0.025, "\(onsets)")
    }
}
