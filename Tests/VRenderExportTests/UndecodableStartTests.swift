import Foundation
import Testing
import VRenderCore
import VRenderMedia
import VRenderTestSupport
@testable import VRenderExport

/// Takes whose first pictures cannot be decoded (a transport stream cut at a byte, a file whose
/// first packets are not a keyframe, an open-GOP cut): the export starts each at its first
/// keyframe that decodes, the sound cut to match, copied when that copy decodes cleanly and
/// re-encoded otherwise, and the plan says which. Judged as users judge it: `ffmpeg -v error`
/// prints nothing, ffprobe's frames and start times.
@Suite struct UndecodableStartTests {
    let directory = TestMedia.scratchDirectory()

    /// A 2 s 192x108 30 fps take with a 440 Hz tone, made by ffmpeg with `codec`.
    private func take(_ name: String, _ codec: [String], audio: [String] = ["-c:a", "aac"]) throws -> String {
        let path = directory + "/" + name
        let run = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=192x108:rate=30:duration=2",
                                                      "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=2",
                                                      "-pix_fmt", "yuv420p"] + codec + audio + [path])
        try #require(run.status == 0, "\(run.standardError)")
        return path
    }

    /// `source` from `fraction` of its bytes on, at a 188-byte transport packet boundary.
    private func cutBytes(_ source: String, at fraction: Double, to name: String) throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: source))
        var offset = Int(Double(data.count) * fraction)
        offset -= offset % 188
        let path = directory + "/" + name
        try data[offset...].write(to: URL(fileURLWithPath: path))
        return path
    }

    /// `ffmpeg … -c copy` of `source` into `name`, with `arguments` before the output.
    private func copy(_ source: String, to name: String, _ arguments: [String], seek: String? = nil) throws -> String {
        let path = directory + "/" + name
        let run = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error"] + (seek.map { ["-ss", $0] } ?? []) + ["-i", source, "-c", "copy"]
                                     + arguments + [path])
        try #require(run.status == 0, "\(run.standardError)")
        return path
    }

    private func export(_ inputs: [String], to name: String, codec: ExportOptions.CodecRequest = .auto) throws
        -> (ExportSummary, ExportPlan, String) {
        let options = ExportOptions(inputs: inputs, output: directory + "/" + name, codec: codec)
        var plans: [ExportPlan] = []
        let summary = try Exporter(options: options).export { plans.append($0) }
        return (summary, try #require(plans.first), options.output)
    }

    /// Seconds between the first sound and the first picture, as ffprobe states them.
    private func startGap(_ path: String) -> Double {
        let video = Double(ProgramRun.ffprobe(path, stream: "v", entries: "stream=start_time")) ?? .nan
        let audio = Double(ProgramRun.ffprobe(path, stream: "a", entries: "stream=start_time")) ?? .nan
        return abs(video - audio)
    }

    /// What every such export must be: no decoding error from its first frame, as many frames
    /// as it says, its sound starting with its pictures (within an audio frame), and a note.
    private func expectClean(_ output: String, _ summary: ExportSummary, _ plan: ExportPlan, take: String) {
        #expect(ProgramRun.decodeErrors(output) == "", "\(output)")
        #expect(ProgramRun.decodedFrames(output) == summary.frames)
        #expect(startGap(output) < 0.025, "sound and pictures start \(startGap(output)) s apart")
        let note = plan.notices.first { $0.contains("starts with") && $0.contains("cannot be decoded") }
        #expect(note?.contains((take as NSString).lastPathComponent) == true, "\(plan.notices)")
        #expect(note?.contains("sound trimmed to match") == true)
    }

    /// The trial's input: x264 with open GOPs and B-frames in MPEG-TS, its head cut at a
    /// transport packet. Its first keyframe is an open GOP's I-frame whose next pictures still
    /// name pictures cut away (x264's mmco), so no copy of it decodes cleanly: re-encoded.
    @Test func anOpenGOPByteCutIsReencodedFromItsFirstKeyframe() throws {
        let full = try take("full.ts", ["-c:v", "libx264", "-preset", "fast", "-bf", "3", "-g", "15", "-x264-params", "open-gop=1"])
        let cut = try cutBytes(full, at: 0.4, to: "opengop_cut.ts")
        let (summary, plan, output) = try export([cut], to: "c.mkv")
        #expect(plan.mode == .transcode)
        #expect(plan.reason.contains("cannot be copied from its first keyframe"), "\(plan.reason)")
        expectClean(output, summary, plan, take: cut)
        #expect(summary.frames == Int((plan.takes[0].duration * 30).rounded()))
        // Under --codec copy the same take is refused, naming it.
        #expect(throws: VRenderError.self) { try export([cut], to: "copy.mkv", codec: .copy) }
    }

    /// Starts a copy can make cleanly from the first keyframe: a closed-GOP transport stream cut
    /// at a byte, P-frames first in Matroska, MP4 and WebM (VP9, alt-ref frames), and an HEVC
    /// open-GOP cut whose CRA keeps a RASL picture. Copied, the pictures before the keyframe
    /// and the sound before it dropped.
    @Test func cleanStartsAreCopiedFromTheirFirstKeyframe() throws {
        let h264 = ["-c:v", "libx264", "-preset", "fast", "-bf", "3", "-g", "15"]
        let dropFirst = ["-bsf:v", "noise=drop=lt(n\\,5)"]
        let cases = [
            try cutBytes(try take("closed.ts", h264), at: 0.4, to: "closed_cut.ts"),
            try copy(try take("a.mkv", h264), to: "pframes.mkv", dropFirst),
            try copy(try take("a.mp4", h264), to: "pframes.mp4", dropFirst),
            try copy(try take("a.webm", ["-c:v", "libvpx-vp9", "-g", "15", "-auto-alt-ref", "1", "-lag-in-frames", "16",
                                          "-deadline", "realtime", "-cpu-used", "8"], audio: ["-c:a", "libopus"]),
                     to: "pframes.webm", dropFirst),
            try copy(try take("hevc.ts", ["-c:v", "libx265", "-preset", "ultrafast", "-x265-params", "log-level=error:keyint=15:bframes=3"]),
                     to: "hevc_cut.ts", [], seek: "0.6"),
        ]
        for input in cases {
            let name = (input as NSString).lastPathComponent
            let (summary, plan, output) = try export([input], to: "out-" + name.replacingOccurrences(of: ".ts", with: ".mkv"))
            #expect(plan.mode == .streamCopy, "\(name): \(plan.reason)")
            expectClean(output, summary, plan, take: input)
        }
        // Into .mp4 the RASL picture dropped after the CRA must leave no gap in decoding order:
        // the track counted it into its length (30 fps read as 28.1 fps by ffprobe and players).
        let (summary, plan, output) = try export([cases[4]], to: "hevc_cut.mp4")
        #expect(plan.mode == .streamCopy, "\(plan.reason)")
        expectClean(output, summary, plan, take: cases[4])
        #expect(ProgramRun.ffprobe(output, stream: "v", entries: "stream=avg_frame_rate") == "30/1")
    }

    /// Export correctness 3: the trial's VP9 WebM cut mid-GOP (`make-trial-media.sh`'s
    /// `vp9_cut`: `-ss 0.6 -c copy -copyinkf` of 1.6 s with a keyframe each second),
    /// transcoded, held its first good picture for the 0.4 s before it (30 frames for 18) and
    /// its sound ran 0.4 s late. It starts at the keyframe: ffmpeg's 18 frames, the sound with them.
    @Test func aVP9CutMidGOPIsTranscodedFromItsKeyframe() throws {
        let path = directory + "/vp9.webm"
        let made = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=192x108:rate=30:duration=1.6",
                                                       "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=1.6",
                                                       "-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-g", "30",
                                                       "-keyint_min", "30", "-pix_fmt", "yuv420p", "-c:a", "libopus", path])
        try #require(made.status == 0, "\(made.standardError)")
        let cut = directory + "/vp9_cut.webm"
        let cutting = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-i", path, "-ss", "0.6", "-map", "0", "-c", "copy", "-copyinkf", cut])
        try #require(cutting.status == 0, "\(cutting.standardError)")
        let (summary, plan, output) = try export([cut], to: "vp9_cut.mp4", codec: .encode(.h264))
        #expect(plan.mode == .transcode)
        expectClean(output, summary, plan, take: cut)
        #expect(summary.frames == 18)
        let length = Double(ProgramRun.ffprobe(output, stream: "a", entries: "stream=duration")) ?? 0
        #expect(abs(length - 0.6) < 0.025, "the sound lasts \(length) s")
    }

    /// A join whose second take starts with P-frames, and trims of such takes: an in point
    /// measured from the first picture that decodes (on a keyframe there, so still a copy), and
    /// an in point at the start of an HEVC open-GOP cut, whose CRA the copy starts cleanly.
    @Test func joinsAndTrimsOfSuchTakesStayCleanCopies() throws {
        let h264 = ["-c:v", "libx264", "-preset", "fast", "-bf", "3", "-g", "15"]
        let first = try take("a.mkv", h264)
        let second = try copy(first, to: "pframes.mkv", ["-bsf:v", "noise=drop=lt(n\\,5)"])
        let (summary, plan, output) = try export([first, second], to: "join.mkv")
        #expect(plan.mode == .streamCopy, "\(plan.reason)")
        expectClean(output, summary, plan, take: second)
        #expect(summary.frames == 60 + 45)
        let length = Double(ProgramRun.ffprobe(output, stream: "a", entries: "format=duration")) ?? 0
        #expect(abs(length - 105.0 / 30) < 0.05, "the output lasts \(length) s")

        let cut = try cutBytes(try take("closed.ts", h264), at: 0.4, to: "closed_cut.ts")
        let hevc = try copy(try take("hevc.ts", ["-c:v", "libx265", "-preset", "ultrafast", "-x265-params", "log-level=error:keyint=15:bframes=3"]),
                            to: "hevc_cut.ts", [], seek: "0.6")
        for (take, inpoint) in [(cut, 0.5), (hevc, 0.0)] {
            let list = directory + "/list.txt"
            try "ffconcat version 1.0\nfile '\(take)'\ninpoint \(inpoint)\n".write(toFile: list, atomically: true, encoding: .utf8)
            let (trimmed, trimPlan, trimOutput) = try export([list], to: "trim-\(inpoint).mkv")
            #expect(trimPlan.mode == .streamCopy, "\(trimPlan.reason)")
            expectClean(trimOutput, trimmed, trimPlan, take: take)
            #expect(trimmed.frames == Int((trimPlan.takes[0].duration * 30).rounded()))
        }
    }
}
