import Testing
import VRenderCore
import VRenderFilters
@testable import VRenderMedia
@testable import VRenderExport

/// Issue 21, item 2, as planning sees it: a take whose edit list hides decoded frames is
/// copied only where the output's own edit list hides them again (the first take of a
/// .mov/.mp4); elsewhere it is transcoded, and the plan says why.
@Suite struct EditListPlanTests {
    private func take(_ path: String, hidden: Int = 0) -> MediaInfo {
        var video = VideoStreamInfo(index: 0, codecName: "h264", width: 320, height: 180, pixelFormat: "yuv420p",
                                    timeBase: Rational(1, 15360), frameRate: Rational(30, 1), rotation: .none,
                                    displayMatrix: nil, extradata: [1], startTime: 0, duration: 2)
        video.hiddenFrames = hidden
        return MediaInfo(path: path, container: "mov,mp4,m4a,3gp,3g2,mj2", video: video, audio: nil)
    }

    private func plan(_ takes: [MediaInfo], output: String) throws -> ExportPlan {
        let options = ExportOptions(inputs: [], output: output, outputIsDefault: false, audioTrack: nil,
                                    filter: try FilterRegistry.chain("none"), codec: .auto, size: nil)
        return try ExportPlanner.plan(takes: takes, options: options, copyCheck: { _, _, _ in nil })
    }

    @Test(arguments: ["out.mov", "out.mp4"])
    func aTrimmedFirstTakeIsCopiedIntoQuickTime(output: String) throws {
        #expect(try plan([take("cut.mp4", hidden: 45), take("b.mp4")], output: output).mode == .streamCopy)
    }

    @Test(arguments: [
        ([("cut.mp4", 45)], "out.mkv", "a .mkv file cannot hide them"),
        ([("a.mp4", 0), ("cut.mp4", 45)], "out.mov", "a copy can hide them only at the start"),
        ([("a.mp4", 0), ("cut.mp4", 12)], "out.mkv", "a copy can hide them only at the start"),
    ])
    func otherwiseTheTakeIsTranscoded(takes: [(String, Int)], output: String, why: String) throws {
        let plan = try plan(takes.map { take($0.0, hidden: $0.1) }, output: output)
        #expect(plan.mode == .transcode)
        let hidden = takes.first { $0.1 > 0 }?.1 ?? 0
        #expect(plan.reason.contains("cut.mp4 has an edit list that hides \(hidden) decoded frame(s)"), "\(plan.reason)")
        #expect(plan.reason.contains(why), "\(plan.reason)")
    }
}
