import Foundation
import Testing
import VRenderCore
import VRenderMedia
import VRenderTestSupport
@testable import VRenderExport

/// Frame-exact trims, judged by ffmpeg: the export's decoded frames (FFV1, lossless) are the
/// very frames ffmpeg decodes from the inputs between the in and out points, and the sound is
/// as long as the pictures.
@Suite struct TrimExportTests {
    let directory = TestMedia.scratchDirectory()

    /// Three 4 s takes at 30 fps with B-frames and long groups of pictures: H.264 (3 B-frames,
    /// GOP 50), HEVC (4 B-frames, GOP 60) and VP9 (alt-ref frames, GOP 60), with a 440 Hz tone.
    private func makeTakes() throws -> [String] {
        let variants: [(String, [String])] = [
            ("h264.mp4", ["-c:v", "libx264", "-bf", "3", "-g", "50", "-preset", "ultrafast", "-tune", "zerolatency", "-x264-params", "bframes=3"]),
            ("hevc.mov", ["-c:v", "libx265", "-x265-params", "bframes=4:keyint=60:min-keyint=60:log-level=error", "-preset", "ultrafast", "-tag:v", "hvc1"]),
            ("vp9.webm", ["-c:v", "libvpx-vp9", "-g", "60", "-auto-alt-ref", "1", "-lag-in-frames", "16", "-deadline", "realtime", "-cpu-used", "8"]),
        ]
        return try variants.map { name, codec in
            let path = directory + "/" + name
            let audio = name.hasSuffix(".webm") ? ["-c:a", "libopus"] : ["-c:a", "aac"]
            let run = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=192x108:rate=30",
                                                          "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000",
                                                          "-t", "4", "-pix_fmt", "yuv420p"] + codec + audio + ["-shortest", path])
            try #require(run.status == 0, "\(run.standardError)")
            return path
        }
    }

    /// ffmpeg's frame hashes of `path`'s frames `first...last` (display order, from 0).
    private func expectedHashes(_ path: String, frames: ClosedRange<Int>) -> [String] {
        hashes(ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-i", path, "-map", "0:v", "-vf",
                                                  "select='between(n,\(frames.lowerBound),\(frames.upperBound))'",
                                                  "-fps_mode", "passthrough", "-f", "framemd5", "-"]).standardOutput)
    }

    private func hashes(_ framemd5: String) -> [String] {
        framemd5.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { $0.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) } }
    }

    @Test func twentyRandomTrimsGiveExactlyTheFramesAskedFor() throws {
        let takes = try makeTakes()
        // A list's points are on each file's clock, where frame k starts at start + k/30 s (the
        // WebM's video starts at 0.007 s, after Opus's priming).
        let starts = try takes.map { try Probe.probe($0).video.startTime }
        var random = SplitMix64(seed: 24)
        var list = "ffconcat version 1.0\n"
        var expected: [String] = []
        for index in 0..<20 {
            let take = takes[index % takes.count], start = starts[index % takes.count]
            let first = Int(random.next() % 100)              // frames 0...99 of 120
            let count = 1 + Int(random.next() % UInt64(120 - first - 1))
            // As times and as a list with a duration, half each.
            list += "file '\(take)'\ninpoint \(start + Double(first) / 30)\n"
            list += index.isMultiple(of: 2) ? "outpoint \(start + Double(first + count) / 30)\n" : "duration \(Double(count) / 30)\n"
            expected += expectedHashes(take, frames: first...(first + count - 1))
        }
        let listPath = directory + "/trims.txt"
        try list.write(toFile: listPath, atomically: true, encoding: .utf8)
        let output = directory + "/trimmed.mov"
        let options = ExportOptions(inputs: [listPath], output: output, codec: .encode(.ffv1))
        let summary = try Exporter(options: options).export()
        let got = hashes(ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-i", output, "-map", "0:v", "-fps_mode", "passthrough",
                                                            "-f", "framemd5", "-"]).standardOutput)
        #expect(got.count == expected.count && summary.frames == expected.count)
        for (index, pair) in zip(got, expected).enumerated() where pair.0 != pair.1 {
            Issue.record("output frame \(index) is not the input frame asked for")
            break
        }
        let video = Double(ProgramRun.ffprobe(output, stream: "v", entries: "stream=duration")) ?? 0
        let audio = Double(ProgramRun.ffprobe(output, stream: "a", entries: "stream=duration")) ?? 0
        #expect(abs(video - Double(expected.count) / 30) < 0.001)
        #expect(abs(audio - video) < 0.001, "audio \(audio) s, video \(video) s")
    }

    @Test func trimsOnKeyframesKeepTheStreamCopyAndOthersSayWhyTheyReencode() throws {
        let take = try makeTakes()[0]   // H.264, keyframes at 0, 50 and 100 (1.667 s, 3.333 s)
        let onKeyframes = directory + "/keys.txt"
        try "file '\(take)'\ninpoint \(50.0 / 30)\noutpoint \(100.0 / 30)\nfile '\(take)'\ninpoint \(100.0 / 30)\n"
            .write(toFile: onKeyframes, atomically: true, encoding: .utf8)
        let output = directory + "/copied.mp4"
        let summary = try Exporter(options: ExportOptions(inputs: [onKeyframes], output: output)).export()
        #expect(summary.mode == "stream-copy")
        let got = hashes(ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-i", output, "-map", "0:v", "-f", "framemd5", "-"]).standardOutput)
        #expect(got == expectedHashes(take, frames: 50...99) + expectedHashes(take, frames: 100...119))

        let between = directory + "/between.txt"
        try "file '\(take)'\ninpoint 1\n".write(toFile: between, atomically: true, encoding: .utf8)
        // Cut between keyframes: re-encoded up to the next clean one, copied from there (`SmartRenderTests`).
        let plan = try ExportPlanner.plan(ExportOptions(inputs: [between], output: directory + "/x.mp4"))
        #expect(plan.mode == .streamCopy && plan.smartRender != nil)
        #expect(plan.reason == "smart render: take 1's trim starts at 1.000 s, between the clean keyframes at 0.000 s and 1.667 s: "
                + "a copy starts and ends a take only at a clean keyframe, so a frame-exact cut there needs re-encoding: "
                + "only the frames from each cut to the next clean keyframe are re-encoded (libx264, as the copied H.264 is coded), "
                + "the rest copied")
    }

    /// A take looped by stream copy (`ffmpeg -stream_loop`): each pass starts where the last
    /// one's longer audio ended, so its pictures are off the 30 fps grid by a few milliseconds.
    /// Cut on a keyframe 2 ms before the in point's grid frame, the copy to .mp4 once dropped
    /// that first picture (its edit list hid a picture before zero): 314 frames for 315.
    @Test func aCopiedTrimOfALoopedTakeKeepsItsFirstPictureInEveryContainer() throws {
        let once = directory + "/once.mov", looped = directory + "/looped.mov"
        for arguments in [["-f", "lavfi", "-i", "testsrc2=size=160x96:rate=30:duration=2.3", "-f", "lavfi", "-i", "sine=duration=2.3",
                           "-c:v", "libx264", "-g", "10", "-bf", "2", "-preset", "ultrafast", "-c:a", "aac", once],
                          ["-stream_loop", "4", "-i", once, "-c", "copy", looped]] {
            let made = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error"] + arguments)
            try #require(made.status == 0, "\(made.standardError)")
        }
        let list = directory + "/looped.txt"
        try "file '\(looped)'\ninpoint 1.031\n".write(toFile: list, atomically: true, encoding: .utf8)
        let expected = expectedHashes(looped, frames: 30...344)
        try #require(expected.count == 315)
        for container in ["mp4", "mkv"] {
            let output = directory + "/looped-trim." + container
            let summary = try Exporter(options: ExportOptions(inputs: [list], output: output)).export()
            #expect(summary.mode == "stream-copy")
            let got = hashes(ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-i", output, "-map", "0:v", "-f", "framemd5", "-"]).standardOutput)
            let same = got == expected   // apart: a failure prints the counts, not 630 hashes
            #expect(same, "\(container): \(got.count) frames for 315, the first \(got.first == expected.first ? "kept" : "lost")")
        }
    }

    /// An HEVC take with a keyframe every second, all but the first open-GOP (x265's CRA): a
    /// trim at 2 s once said "between keyframes (-0.000 s and none)".
    @Test func aTrimBetweenOpenKeyframesNamesThem() throws {
        let take = directory + "/open.mp4"
        let made = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=160x96:rate=30", "-t", "4",
                                                      "-c:v", "libx265", "-x265-params", "keyint=30:min-keyint=30:open-gop=1:bframes=3:log-level=error",
                                                      "-pix_fmt", "yuv420p", take])
        #expect(made.status == 0, "\(made.standardError)")
        let list = directory + "/open.txt"
        try "file '\(take)'\ninpoint 2\n".write(toFile: list, atomically: true, encoding: .utf8)
        let plan = try ExportPlanner.plan(ExportOptions(inputs: [list], output: directory + "/x.mp4"))
        // Which of x265's keyframes are open depends on its B-frame choices: the scan says.
        let keyframes = try KeyframeScan.keyframes(path: take, stream: 0)
        #expect(keyframes.count == 4 && keyframes.first?.clean == true)
        let open = keyframes.filter { !$0.clean }.map { String(format: "%.3f s", $0.time) }
        try #require(open.contains("2.000 s"), "\(keyframes)")
        let reason = plan.reason
        #expect(reason.hasPrefix("transcode: take 1's trim starts at 2.000 s, "), "\(reason)")
        #expect(reason.contains("(on an open keyframe; the keyframes at \(open.joined(separator: ", ")) are open-GOP: "
                                + "their leading pictures refer to the pictures before them): a copy starts and ends a take "
                                + "only at a clean keyframe, so a frame-exact cut there needs re-encoding"), "\(reason)")
        #expect(!reason.contains("-0.000") && !reason.contains("none"))
    }
}
