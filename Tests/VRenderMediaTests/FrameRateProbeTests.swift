import Foundation
import Testing
import VRenderCore
@testable import VRenderMedia
import VRenderTestSupport

/// Issue 21, item 3: a take's frame rate is its nominal one (the most common frame interval),
/// not the average, which a screen recording's dropped repeats halve; every constant-rate kind
/// keeps the rate it had. Item 2: frames an edit list hides are counted at probe.
@Suite struct FrameRateProbeTests {
    let folder = ScratchFolder()

    func testsrc(_ rate: String, seconds: String = "1") -> [String] {
        ["-f", "lavfi", "-i", "testsrc2=s=160x90:r=\(rate):d=\(seconds)"]
    }

    @Test func constantRateKindsKeepTheirRate() throws {
        let kinds: [(String, [String], Rational)] = [
            ("r23976.mp4", testsrc("24000/1001") + ["-c:v", "libx264"], Rational(24000, 1001)),
            ("r2997.mkv", testsrc("30000/1001") + ["-c:v", "libx264", "-bf", "3"], Rational(30000, 1001)),
            ("r25.mov", testsrc("25") + ["-c:v", "libx264"], Rational(25, 1)),
            ("r50.mkv", testsrc("50") + ["-c:v", "libx264"], Rational(50, 1)),
            ("r60.mp4", testsrc("60") + ["-c:v", "libx264"], Rational(60, 1)),
            ("r240.mkv", testsrc("240") + ["-c:v", "libx264"], Rational(240, 1)),
            ("r300.mkv", testsrc("300") + ["-c:v", "libx264"], Rational(300, 1)),
            ("r30.webm", testsrc("30") + ["-c:v", "libvpx-vp9", "-deadline", "realtime"], Rational(30, 1)),
            ("r30.avi", testsrc("30") + ["-c:v", "mjpeg"], Rational(30, 1)),
            ("one.mp4", testsrc("30") + ["-frames:v", "1", "-c:v", "libx264"], Rational(30, 1)),
        ]
        for (name, arguments, rate) in kinds {
            let info = try Probe.probe(folder.ffmpeg(name, arguments))
            #expect(info.video.frameRate.doubleValue == rate.doubleValue, "\(name): \(info.video.frameRate)")
            #expect(info.video.hiddenFrames == 0, "\(name)")
        }
    }

    /// 30 fps with two frames of every six dropped after the first ten: avg_frame_rate about
    /// 20, r_frame_rate 30, in .mp4 (1/15360) and in .mkv (milliseconds, where 1/30 s is 33 ms).
    @Test func screenRecordingWithDroppedFramesIsThirtyFps() throws {
        let vfr = try folder.ffmpeg("vfr.mp4", testsrc("30", seconds: "2") + [
            "-vf", "select='lt(n,10)+not(between(mod(n,6),3,4))'", "-fps_mode", "vfr", "-c:v", "libx264"])
        let average = ProgramRun.ffprobe(vfr, stream: "v", entries: "stream=avg_frame_rate")
        #expect(average != "30/1", "the input must have dropped frames: \(average)")
        #expect(try Probe.probe(vfr).video.frameRate == Rational(30, 1))
        let matroska = try folder.ffmpeg("vfr.mkv", ["-i", vfr, "-c", "copy"])
        #expect(try Probe.probe(matroska).video.frameRate.doubleValue == 30)
    }

    @Test func nominalRateNeedsAClearlyShorterCommonInterval() {
        let milliseconds = Rational(1, 1000)
        // 300 fps in milliseconds: 3, 3, 4 ms; the common 3 ms is the average's rounding.
        let fast = (0..<30).map { Int64((Double($0) * 1000 / 300).rounded()) }
        #expect(Demuxer.nominalRate(average: Rational(300, 1), guessed: Rational(300, 1), pts: fast, timeBase: milliseconds)
                == Rational(300, 1))
        // Dropped frames, no usable r_frame_rate: the nearest common rate to 33 ms.
        let gaps: [Int64] = [0, 33, 67, 100, 233, 267, 300, 433, 467, 500]
        #expect(Demuxer.nominalRate(average: Rational(18, 1), guessed: Rational(18, 1), pts: gaps, timeBase: milliseconds)
                == Rational(30, 1))
        // Too few intervals to tell: the average.
        #expect(Demuxer.nominalRate(average: Rational(15, 1), guessed: Rational(30, 1), pts: [0, 33, 67], timeBase: milliseconds)
                == Rational(15, 1))
        // No interval common enough (a third): the average.
        let spread: [Int64] = [0, 10, 30, 60, 100, 150, 210]
        #expect(Demuxer.nominalRate(average: Rational(30, 1), guessed: nil, pts: spread, timeBase: milliseconds)
                == Rational(30, 1))
    }

    @Test func framesAnEditListHidesAreCounted() throws {
        let source = try folder.ffmpeg("src.mp4", testsrc("30", seconds: "3") + ["-c:v", "libx264", "-g", "300"])
        let cut = try folder.ffmpeg("cut.mp4", ["-ss", "1", "-i", source, "-c", "copy"])
        let video = try Probe.probe(cut).video
        #expect(video.hiddenFrames == 30)
        #expect(abs(video.duration - 2) < 0.02 && video.startTime == 0)
        #expect(try Probe.probe(source).video.hiddenFrames == 0)
    }
}
