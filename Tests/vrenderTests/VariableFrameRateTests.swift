import Foundation
import Testing
import VRenderTestSupport

/// Issue 21, item 3: a 30 fps screen recording that drops repeated frames (average about
/// 16 fps, `-fps_mode vfr`) joined with a 30 fps clip. The export runs at 30 fps; transcoded,
/// each of its frames is the recording's frame shown at that time (a frame held over a gap);
/// copied, the recording's frames keep their times. Either way the take keeps its length.
@Suite struct VariableFrameRateTests {
    let folder = ScratchFolder()

    /// vfr.mp4: testsrc2 at 30 fps for 4 s without frames 10, 11 and then three of every six
    /// (their pictures carry a running counter), a beep at 2.0 s, 48 kHz; clip.mp4: 2 s at
    /// 30 fps, a tone at `clipSampleRate` Hz.
    func media(clipSampleRate: Int = 44_100) -> (vfr: String, constant: String, clip: String) {
        let (vfr, constant, clip) = (folder.path + "/vfr.mp4", folder.path + "/cfr.mp4", folder.path + "/clip.mp4")
        let beep = ["-f", "lavfi", "-i", "aevalsrc='if(between(t,2,2.3),0.5*sin(2*PI*1000*t),0)':s=48000:d=4"]
        TimingJudge.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=320x180:r=30:d=4"] + beep + ["-c:v", "libx264", "-c:a", "aac", constant])
        TimingJudge.ffmpeg(["-i", constant, "-vf", "select='lt(n,10)+not(between(mod(n,6),3,5))'", "-fps_mode", "vfr",
                            "-c:v", "libx264", "-c:a", "copy", vfr])
        TimingJudge.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=320x180:r=30:d=2",
                            "-f", "lavfi", "-i", "sine=f=440:d=2:sample_rate=\(clipSampleRate)",
                            "-c:v", "libx264", "-c:a", "aac", clip])
        return (vfr, constant, clip)
    }

    func export(_ inputs: [String], _ output: String, _ extra: [String] = []) -> ProgramRun {
        let run = GuardedRun.vrender(["concat"] + inputs + ["-o", folder.path + "/" + output, "--progress", "none"] + extra)
        #expect(run.status == 0, "\(run.standardError)")
        return run
    }

    @Test func recordingJoinedWithAThirtyFpsClipIsTranscodedAtThirtyFps() throws {
        let (vfr, constant, clip) = media()
        #expect(ProgramRun.ffprobe(vfr, stream: "v", entries: "stream=r_frame_rate") == "30/1")
        #expect(ProgramRun.ffprobe(vfr, stream: "v", entries: "stream=avg_frame_rate") != "30/1")
        let run = export([vfr, clip], "joined.mp4", ["--codec", "h264", "--preset", "ultrafast"])
        #expect(run.standardError.contains("at 30 fps"), "\(run.standardError)")
        #expect(run.standardError.contains("\(vfr): variable frame rate (16.41 fps on average; most frames 1/30 s apart): "
                                           + "counted at 30 fps"), "\(run.standardError)")
        let file = folder.path + "/joined.mp4"
        #expect(ProgramRun.ffprobe(file, stream: "v", entries: "stream=avg_frame_rate") == "30/1")
        // The recording lasts 3.9 s (its last 3 frames dropped): 117 frames, then the clip's 60.
        #expect(ProgramRun.decodedFrames(file) == 117 + 60)
        #expect(TimingJudge.reportedFrames(run) == 117 + 60)
        // Frame k is the recording's picture shown at k/30 s: what its frames give at 30 fps.
        let exported = TimingJudge.pictures(file)
        let shown = TimingJudge.pictures(vfr, filter: "fps=30")
        let original = TimingJudge.pictures(constant)
        #expect(exported.count == 177 && shown.count >= 117 && original.count == 120)
        if exported.count == 177, shown.count >= 117, original.count == 120 {
            let worst = (0..<117).map { TimingJudge.psnr(exported[$0], shown[$0]) }.min() ?? 0
            #expect(worst >= 30, "worst PSNR against the picture shown at that time: \(worst) dB")
            // Frame 10 of the recording was dropped: frame 9 is held over the gap.
            #expect(TimingJudge.psnr(exported[10], original[9]) >= 30)
            #expect(TimingJudge.psnr(exported[10], original[10]) < TimingJudge.psnr(exported[10], original[9]))
            #expect(TimingJudge.psnr(exported[117], TimingJudge.pictures(clip)[0]) >= 30)
        }
        let onsets = TimingJudge.soundOnsets(file)
        #expect(abs((onsets.first ?? -1) - 2.0) <= 0.025, "\(onsets)")
    }

    /// With the clip's audio at 44.1 kHz only the video is copied (the summary once counted
    /// the timeline's 177 slots for the 124 frames written); at 48 kHz everything is.
    @Test(arguments: [(44_100, "plan: video copied, audio re-encoded"), (48_000, "plan: stream copy")])
    func recordingJoinedWithAThirtyFpsClipIsCopiedWithItsTimes(clipSampleRate: Int, plan: String) throws {
        let (vfr, _, clip) = media(clipSampleRate: clipSampleRate)
        let run = export([vfr, clip], "joined.mp4")
        #expect(run.standardError.contains(plan), "\(run.standardError)")
        #expect(run.standardError.contains("at 30 fps"), "\(run.standardError)")
        let file = folder.path + "/joined.mp4"
        let source = TimingJudge.frameTimes(vfr)
        let times = TimingJudge.frameTimes(file)
        #expect(source.count == 64 && times.count == 64 + 60)
        #expect(TimingJudge.reportedFrames(run) == times.count)
        if times.count == 124, source.count == 64 {
            #expect(zip(source, times).allSatisfy { abs($0 - $1) < 0.001 }, "the recording's frames keep their times")
            #expect(abs(times[64] - 3.9) < 0.001, "the clip starts where the recording ends")
        }
        let onsets = TimingJudge.soundOnsets(file)
        #expect(abs((onsets.first ?? -1) - 2.0) <= 0.025, "\(onsets)")
    }

    /// A Matroska screen recording still for over a second (OBS, GNOME's recorder): FFmpeg makes
    /// up its dts at a constant pace, and the frame after the hold, far ahead of them, was taken
    /// for a damaged timestamp and placed a second early.
    @Test func matroskaRecordingWithALongHoldIsNotCalledDamaged() {
        let recording = folder.path + "/held.mkv"
        TimingJudge.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=320x180:r=30:d=3", "-vf", "select='not(between(n,20,60))'",
                            "-fps_mode", "vfr", "-c:v", "libx264", "-bf", "2", recording])
        let run = export([recording], "held.mp4", ["--codec", "h264", "--preset", "ultrafast"])
        #expect(!run.standardError.contains("damaged"), "\(run.standardError)")
        let file = folder.path + "/held.mp4"
        #expect(ProgramRun.decodedFrames(file) == 90)
        let exported = TimingJudge.pictures(file)
        let shown = TimingJudge.pictures(recording, filter: "fps=30")
        #expect(exported.count == 90 && shown.count >= 90)
        if exported.count == 90, shown.count >= 90 {
            let worst = (0..<90).map { TimingJudge.psnr(exported[$0], shown[$0]) }.min() ?? 0
            #expect(worst >= 30, "worst PSNR against the picture shown at that time: \(worst) dB")
        }
    }
}
