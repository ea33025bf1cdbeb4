import Foundation
import Testing
import VRenderCore
import VRenderMedia
import VRenderTestSupport
@testable import VRenderExport

/// Pieces of one take (`--cut-pauses`) are joined by a cut with a short sound fade, never a
/// transition, and the plan counts takes as the user does (issue 42). Three takes made by
/// ffmpeg at 30 fps, PCM sound: 2 s of tone, a 4 s take whose tone pauses from 1.2 to 2.8 s
/// (its quiet a DC offset of +0.005 before 2 s and -0.005 after, under -40 dBFS, so a hard cut
/// in the pause steps by 0.01), and 2 s of tone.
@Suite struct PieceJoinTests {
    let directory = TestMedia.scratchDirectory()

    private func take(_ name: String, seconds: Double, sound: String) throws -> String {
        let path = directory + "/" + name
        let run = ProgramRun.run("/usr/bin/ffmpeg", [
            "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=30:duration=\(seconds)",
            "-f", "lavfi", "-i", "aevalsrc='\(sound)|\(sound)':s=48000:d=\(seconds)",
            "-c:v", "libx264", "-preset", "ultrafast", "-g", "15", "-pix_fmt", "yuv420p", "-c:a", "pcm_s16le", path])
        try #require(run.status == 0, "\(run.standardError)")
        return path
    }

    private func threeTakes() throws -> [String] {
        let paused = "if(between(t,0.2,1.2)+between(t,2.8,3.8),0.5*sin(2*PI*440*t),if(lt(t,2),0.005,-0.005))"
        return [try take("a.mov", seconds: 2, sound: "0.5*sin(2*PI*440*t)"),
                try take("b.mov", seconds: 4, sound: paused),
                try take("c.mov", seconds: 2, sound: "0.5*sin(2*PI*550*t)")]
    }

    private func options(_ takes: [String], _ transition: Transition, _ name: String) -> ExportOptions {
        var options = ExportOptions(inputs: takes, output: directory + "/" + name, codec: .encode(.ffv1))
        options.silence = SilenceTrimRequest(threshold: -40, margin: 0.1, pause: 1)
        options.transition = transition
        return options
    }

    @Test func thePlanCountsTakesAndPutsTheDissolveOnlyBetweenTakes() throws {
        let plan = try ExportPlanner.plan(options(try threeTakes(), .fade(seconds: 0.3), "plan.mov"))
        #expect(plan.takes.count == 4 && plan.takeCount == 3 && plan.takeNumbers == [1, 2, 2, 3])
        #expect(plan.summaryLines.contains { $0.hasPrefix("plan: 3 take(s) (4 pieces after cuts), ") }, "\(plan.summaryLines)")
        let transition = try #require(plan.transition)
        #expect(transition.joins == 2 && transition.joinFrames == [9, 0, 9], "\(transition)")
        #expect(transition.description == "fade 0.30 s at 2 joins, -0.60 s")
        let spans = plan.timeline.takes
        #expect(spans[2].firstSlot == spans[1].firstSlot + spans[1].slotCount, "the pause cut overlaps: \(spans)")
        #expect(plan.timeline.overlapSamples(beforeTake: 2) == 0 && plan.timeline.overlapSamples(beforeTake: 1) == 9 * 1600)
        let cuts = Timeline(durations: plan.takes.map(\.duration), frameRate: plan.frameRate)
        #expect(plan.timeline.totalSlots == cuts.totalSlots - 2 * 9)
    }

    /// The output lasts the pieces minus the two take joins' overlaps, and its sound at the pause
    /// cut steps no further than the quiet's own ramp (a hard cut steps 0.01 there), with a
    /// dissolve between the takes and without.
    @Test(arguments: [Transition.fade(seconds: 0.3), .cut])
    func aPauseCutIsACutWithoutAClick(transition: Transition) throws {
        let options = options(try threeTakes(), transition, "joined-\(transition.specification).mov")
        var plans: [ExportPlan] = []
        _ = try Exporter(options: options).export { plans.append($0) }
        let plan = try #require(plans.first)
        let cuts = Timeline(durations: plan.takes.map(\.duration), frameRate: plan.frameRate)
        let overlaps = transition == .cut ? 0 : 2 * 9
        let frames = Int(ProgramRun.ffprobe(options.output, stream: "v", entries: "stream=nb_read_frames", countFrames: true)) ?? 0
        #expect(frames == cuts.totalSlots - overlaps && frames == plan.timeline.totalSlots)
        let samples = try sound(options.output)
        let soundLength = Int(ProgramRun.ffprobe(options.output, stream: "a", entries: "stream=duration_ts")) ?? -1
        #expect(soundLength == frames * 1600, "\(soundLength) samples for \(frames) frames")
        let join = plan.timeline.takes[2].firstSample
        let jump = largestJump(samples, join - 960..<join + 960)
        #expect(jump < 0.001, "largest step \(jump) within 20 ms of the pause cut at sample \(join)")
    }

    private func sound(_ file: String) throws -> [Float] {
        let path = file + ".f32"
        let run = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-i", file, "-map", "0:a", "-af", "pan=mono|c0=c0",
                                                     "-f", "f32le", path])
        #expect(run.status == 0, "\(run.standardError)")
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    private func largestJump(_ samples: [Float], _ range: Range<Int>) -> Float {
        range.clamped(to: 1..<samples.count).reduce(0) { Swift.max($0, abs(samples[$1] - samples[$1 - 1])) }
    }
}
