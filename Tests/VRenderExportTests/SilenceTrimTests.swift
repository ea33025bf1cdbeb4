import Foundation
import Testing
import VRenderCore
import VRenderMedia
import VRenderTestSupport
@testable import VRenderExport

/// `--trim-silence` and `--cut-pauses` on a take whose silences ffmpeg made: a tone from 1.2 s
/// to 2.5 s and from 4.0 s to 5.0 s of 6 s, silence elsewhere.
@Suite struct SilenceTrimTests {
    let directory = TestMedia.scratchDirectory()

    private func makeTake(_ name: String = "speech.mp4") throws -> String {
        let path = directory + "/" + name
        let tone = "aevalsrc='if(between(t,1.2,2.5)+between(t,4,5),0.5*sin(2*PI*440*t),0)':s=48000:d=6"
        let run = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=30",
                                                      "-f", "lavfi", "-i", tone, "-t", "6", "-c:v", "libx264", "-preset", "ultrafast",
                                                      "-pix_fmt", "yuv420p", "-c:a", "aac", path])
        try #require(run.status == 0, "\(run.standardError)")
        return path
    }

    private func plan(_ take: String, _ request: SilenceTrimRequest) throws -> ExportPlan {
        var options = ExportOptions(inputs: [take], output: directory + "/out.mp4")
        options.silence = request
        return try ExportPlanner.plan(options)
    }

    private func expectParts(_ plan: ExportPlan, _ expected: [(Double, Double)], sourceLocation: SourceLocation = #_sourceLocation) {
        let parts = plan.takes.map { ($0.trim?.start ?? 0, ($0.trim?.start ?? 0) + $0.duration) }
        #expect(parts.count == expected.count, "\(parts)", sourceLocation: sourceLocation)
        for (part, edge) in zip(parts, expected) {
            #expect(abs(part.0 - edge.0) <= 0.020 && abs(part.1 - edge.1) <= 0.020, "kept \(part), expected \(edge)",
                    sourceLocation: sourceLocation)
        }
    }

    @Test func leadingAndTrailingSilenceAreCutWithinTwentyMillisecondsOfTheEdgePlusTheMargin() throws {
        let take = try makeTake()
        expectParts(try plan(take, SilenceTrimRequest()), [(1.2 - 0.25, 5.0 + 0.25)])
        let tight = try plan(take, SilenceTrimRequest(threshold: -30, margin: 0.05))
        expectParts(tight, [(1.15, 5.05)])
        #expect(tight.notices.contains { $0.hasPrefix("silence: take 1 cut 0.000–1.1") })
    }

    @Test func pausesLongerThanAskedAreCutInsideTheTakeAndTheResultStaysInSync() throws {
        let take = try makeTake()
        var options = ExportOptions(inputs: [take], output: directory + "/paused.mp4", codec: .encode(.h264), preset: "ultrafast")
        options.silence = SilenceTrimRequest(margin: 0.1, pause: 1)
        let plan = try ExportPlanner.plan(options)
        expectParts(plan, [(1.1, 2.6), (3.9, 5.1)])
        // A pause shorter than asked stays.
        expectParts(try self.plan(take, SilenceTrimRequest(margin: 0.1, pause: 2)), [(1.1, 5.1)])
        _ = try Exporter(options: options).run(plan)
        let video = Double(ProgramRun.ffprobe(options.output, stream: "v", entries: "stream=duration")) ?? 0
        let audio = Double(ProgramRun.ffprobe(options.output, stream: "a", entries: "stream=duration")) ?? 0
        #expect(abs(video - 2.7) < 0.001 && abs(audio - video) < 0.001, "video \(video) s, audio \(audio) s")
    }

    @Test func aTakeWithoutSoundIsKeptWhole() throws {
        let path = directory + "/mute.mp4"
        _ = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=30", "-t", "2",
                                               "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", path])
        let plan = try plan(path, SilenceTrimRequest())
        #expect(plan.takes.count == 1 && plan.takes[0].trim == nil)
        #expect(plan.notices.contains("silence: take 1 has no sound: kept whole"))
    }

    @Test func theOptionsValueIsALevelAndAMargin() throws {
        #expect(try SilenceTrimRequest.parse("", pause: nil) == SilenceTrimRequest())
        #expect(try SilenceTrimRequest.parse("-35:100ms", pause: 2) == SilenceTrimRequest(threshold: -35, margin: 0.1, pause: 2))
        #expect(throws: VRenderError.self) { try SilenceTrimRequest.parse("loud", pause: nil) }
        #expect(throws: VRenderError.self) { try SilenceTrimRequest.parse("-40:forever", pause: nil) }
        #expect(throws: VRenderError.self) { try SilenceTrimRequest.parse("12", pause: nil) }
    }
}
