import Foundation
import Testing
import VRenderTestSupport

/// One flipped bit in a take's `ctts` (`hostile/ctts_bit20_hevc.mov`: one frame's pts 68 s late
/// in a 2 s take) neither stretches a stream copy's container nor pads a transcode: both keep
/// the take's 2 s and 60 frames, and the damage is named in the plan and the summary.
@Suite struct DamagedTimestampTests {
    static let take = TestMedia.path("hostile/ctts_bit20_hevc.mov")

    @Test(arguments: [["--codec", "copy"], ["--codec", "h264", "--preset", "ultrafast"]])
    func aFlippedCompositionOffsetKeepsTheTakesLength(_ options: [String]) throws {
        let folder = GuardedRun.folder()
        defer { GuardedRun.remove(folder) }
        let output = folder + "/out.mp4"
        let run = GuardedRun.vrender(["concat", Self.take, "-o", output, "--progress", "none"] + options)
        #expect(run.status == 0, "\(run.standardError)")
        let probed = try #require(GuardedRun.probe(output), "\(run.standardError)")
        #expect(probed.frames == 60, "\(probed)")
        #expect(abs(probed.seconds - 2.0) < 0.05, "\(probed)")
        #expect(ProgramRun.decodeErrors(output).isEmpty)
        let named = run.standardError.split(separator: "\n").filter { $0.contains("1 frame(s) with a damaged timestamp") }
        #expect(named.contains { $0.hasPrefix("plan: note: \(Self.take)") }, "the plan names it: \(run.standardError)")
        #expect(named.contains { $0.hasPrefix("vrender: warning: \(Self.take)") }, "the summary names it: \(run.standardError)")
    }
}
