import Testing
@testable import VRenderExport

/// The rate and estimate a progress report shows.
@Suite struct ExportProgressTests {
    @Test("the rate is counted from the first frame, and given only after half a second of frames")
    func rateFromTheFirstFrame() {
        // A 0.8 s job: files and codecs opened in 0.2 s, then 30 frames a second.
        var early = ExportProgress(framesDone: 3, framesTotal: 24, outputSeconds: 0.1, elapsed: 0.27, finished: false,
                                   firstFrame: (0.2, 1))
        #expect(early.fps == 0 && early.eta == nil && early.speed == 0)
        early.elapsed = 0.8
        early.framesDone = 19
        #expect(abs(early.fps - 30) < 1e-9)
        #expect(abs((early.eta ?? 0) - 5.0 / 30) < 1e-9)
        let done = ExportProgress(framesDone: 24, framesTotal: 24, outputSeconds: 0.8, elapsed: 0.8, finished: true,
                                  firstFrame: (0.2, 1))
        #expect(abs(done.fps - 23 / 0.6) < 1e-9 && done.eta == 0)
        let quick = ExportProgress(framesDone: 5, framesTotal: 5, outputSeconds: 0.2, elapsed: 0.25, finished: true,
                                   firstFrame: (0.2, 1))
        #expect(quick.fps == 20, "a job shorter than the window: its frames over its whole time")
        #expect(ExportProgress(framesDone: 0, framesTotal: 5, outputSeconds: 0, elapsed: 1, finished: false).eta == nil)
    }
}
