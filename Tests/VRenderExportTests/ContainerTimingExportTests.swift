import Foundation
import Testing
import VRenderCore
import VRenderMedia
import VRenderTestSupport
@testable import VRenderExport

/// Export correctness 3, items 1 and 4, judged as users judge them: ffprobe's frame count,
/// the frames themselves (framemd5 against ffmpeg's decode of the inputs), and FFmpeg's own
/// concat demuxer reading the same list.
@Suite struct ContainerTimingExportTests {
    let folder = ScratchFolder()

    /// A 1 s WMV at 25 fps with 48 kHz WMA, as the trial made it: ASF's preroll puts its video
    /// at 0.043 s on the file's clock (its audio at 0).
    private func wmv() throws -> String {
        try folder.ffmpeg("wmv2.wmv", ["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25:duration=1",
                                        "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=1", "-c:v", "wmv2", "-c:a", "wmav2"])
    }

    /// A 1 s FLV of H.264 and AAC at 30 fps (its header's length is the file's: 1.044 s).
    private func flv() throws -> String {
        try folder.ffmpeg("h264_aac.flv", ["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=30:duration=1",
                                           "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=1", "-c:v", "libx264", "-c:a", "aac"])
    }

    private func frameCount(_ path: String) -> Int {
        Int(ProgramRun.ffprobe(path, stream: "v", entries: "stream=nb_read_frames", countFrames: true)) ?? -1
    }

    /// The frame hashes of `path`'s video, in display order, as ffmpeg decodes it.
    private func hashes(_ path: String) -> [String] {
        ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-i", path, "-map", "0:v", "-fps_mode", "passthrough", "-f", "framemd5", "-"])
            .standardOutput.split(separator: "\n").filter { !$0.hasPrefix("#") }
            .compactMap { $0.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) } }
    }

    /// The numbers (from 0) of `source`'s frames that `output` shows, in order.
    private func frameNumbers(of output: String, in source: String) -> [Int] {
        let numbers = Dictionary(hashes(source).enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        return hashes(output).map { numbers[$0] ?? -1 }
    }

    @Test func wmvAndFlvTakesExportTheirFramesAndNoFrozenOne() throws {
        for (input, frames) in [(try wmv(), 25), (try flv(), 30)] {
            #expect(frameCount(input) == frames)
            let output = folder.path + "/" + (input as NSString).lastPathComponent + ".mov"
            let summary = try Exporter(options: ExportOptions(inputs: [input], output: output, codec: .encode(.h264))).export()
            #expect(summary.frames == frames, "\(input)")
            #expect(frameCount(output) == frames, "\(input)")
            let check = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-i", output, "-f", "null", "-"])
            #expect(check.standardError.isEmpty, "\(check.standardError)")
        }
    }

    /// A raw .h264 stream's packets carry no times: a copy into .mov stacked its 30 frames into
    /// 0.033 s (at 899 fps). It is encoded instead, every frame in its place, and the plan says why.
    @Test func aRawH264StreamIsEncodedFrameByFrame() throws {
        let raw = try folder.ffmpeg("raw.h264", ["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=30:duration=1", "-c:v", "libx264"])
        for name in ["raw.mov", "raw.mp4", "raw.mkv"] {
            let output = folder.path + "/" + name
            let summary = try Exporter(options: ExportOptions(inputs: [raw], output: output)).export()
            #expect(summary.mode == "transcode", "\(name)")
            #expect(summary.reason.contains("raw h264 stream whose pictures carry no times"), "\(name): \(summary.reason)")
            #expect(frameCount(output) == 30, "\(name)")
            let duration = ProgramRun.ffprobe(output, stream: "v", entries: "stream=duration")
            #expect(abs((Double(duration) ?? 0) - 1.0) < 0.05 || name.hasSuffix(".mkv"), "\(name): \(duration) s")
            let check = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-i", output, "-f", "null", "-"])
            #expect(check.standardError.isEmpty, "\(name): \(check.standardError)")
        }
    }

    /// Joined, the second take starts right after the first one's 25 frames: transcoded, its
    /// first frame is output frame 25; copied (into Matroska), it starts at 1.000 s.
    @Test func aJoinedWmvTakeIsNotShiftedByAFrame() throws {
        let take = try wmv()
        let transcoded = folder.path + "/join.mov"
        _ = try Exporter(options: ExportOptions(inputs: [take, take], output: transcoded, codec: .encode(.ffv1))).export()
        #expect(frameNumbers(of: transcoded, in: take) == Array(0..<25) + Array(0..<25))

        let copied = folder.path + "/join.mkv"
        let summary = try Exporter(options: ExportOptions(inputs: [take, take], output: copied, codec: .copy)).export()
        #expect(summary.mode == "stream-copy")
        #expect(frameCount(copied) == 50)
        let times = ProgramRun.run("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "frame=pts_time",
                                                        "-of", "csv=p=0", copied]).standardOutput.split(separator: "\n")
        #expect(times.count == 50 && times[24] == "0.960000" && times[25] == "1.000000", "\(times)")
    }

    /// The WMV's sound starts 43 ms before its picture. A copy drops the packet before the
    /// picture, and FFmpeg's WMA decoder swallows the first packet it is fed: copied into
    /// Matroska (which cannot trim a packet as a .mov's edit list does) the sound decoded to
    /// 0.939 s for 1 s of video. The audio is re-encoded from the decoded take instead, the video
    /// still copied; --codec copy still copies, and the plan says what it loses.
    @Test func aWmaTakeCopiedIntoMatroskaKeepsAllItsSound() throws {
        let take = try wmv()
        let output = folder.path + "/wma.mkv"
        let summary = try Exporter(options: ExportOptions(inputs: [take], output: output)).export()
        #expect(summary.mode == "video-copy")
        #expect(summary.reason.contains("cannot keep the wmav2 packet its decoder needs to warm up"), "\(summary.reason)")
        let samples = ProgramRun.run("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "a", "-show_frames",
                                                          "-show_entries", "frame=nb_samples", "-of", "csv=p=0", output])
            .standardOutput.split(separator: "\n").compactMap { Int($0) }.reduce(0, +)
        let seconds = Double(samples) / 48000
        #expect(seconds > 0.98 && seconds < 1.05, "\(seconds) s of sound")
        #expect(frameCount(output) == 25)

        let copied = folder.path + "/wma-copy.mkv"
        let plan = try ExportPlanner.plan(takes: [try Probe.probe(take)], options: ExportOptions(inputs: [take], output: copied, codec: .copy))
        #expect(plan.mode == .streamCopy)
        #expect(plan.notices.contains { $0.contains("its first sound is lost (--codec copy keeps packets as they are)") }, "\(plan.notices)")
    }

    /// A list's points are on the file's clock, as FFmpeg reads them: in the WMV whose video
    /// starts at 0.043 s, `inpoint 0.2` keeps frame 3 (on screen from 0.163 s) and `outpoint
    /// 0.8` leaves out frame 19 (0.803 s) on: frames 3–18. FFmpeg's concat demuxer, read by
    /// ffprobe on the same list, gives the same frames: those it places at or after its in
    /// point (frame 3 at −0.037 s, on screen at 0), after the ones from its keyframe that end
    /// before it.
    @Test func listPointsAreOnTheFilesClockAsFFmpegsConcatDemuxerReadsThem() throws {
        let take = try wmv()
        let list = folder.path + "/list.txt"
        try "ffconcat version 1.0\nfile 'wmv2.wmv'\ninpoint 0.2\noutpoint 0.8\n".write(toFile: list, atomically: true, encoding: .utf8)
        let packets = { (arguments: [String]) in
            ProgramRun.run("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "v", "-show_packets", "-show_data_hash", "md5",
                                                "-show_entries", "packet=pts_time,data_hash", "-of", "csv=p=0"] + arguments)
                .standardOutput.split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
        }
        let sourceNumbers = Dictionary(packets([take]).enumerated().map { ($1[1], $0) }, uniquingKeysWith: { first, _ in first })
        let frameSeconds = 1.0 / 25
        let ffmpegFrames = packets(["-f", "concat", "-safe", "0", "-i", list])
            .filter { (Double($0[0]) ?? -1) + frameSeconds > 0.0005 }
            .map { sourceNumbers[$0[1]] ?? -1 }
        #expect(ffmpegFrames == Array(3...18))

        let output = folder.path + "/listed.mov"
        let summary = try Exporter(options: ExportOptions(inputs: [list], output: output, codec: .encode(.ffv1))).export()
        #expect(frameNumbers(of: output, in: take) == ffmpegFrames)
        #expect(summary.frames == 16)
    }
}
